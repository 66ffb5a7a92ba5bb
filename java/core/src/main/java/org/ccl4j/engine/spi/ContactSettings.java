package org.ccl4j.engine.spi;

/**
 * The labels' grid ({@code width × height × depth}, labels dense, x fastest) and the stencil of
 * contacts: {@code connectivity} 4 or 8 on a single layer, 6, 18 or 26 (faces, faces and edges,
 * all) on a volume, as the API fitted it, with the periodic axes, whose opposite boundary cells
 * touch too.
 */
public record ContactSettings(int width, int height, int depth, int connectivity, boolean periodicX,
                              boolean periodicY, boolean periodicZ) {
    public long cellCount() {
        return (long) width * height * depth;
    }
}
