package org.ccl4j.engine.spi;

/**
 * The contacts between the labels of a grid, one row per pair of labels {@code first < second}
 * whose cells touch, rows ascending by pair: {@code contacts} neighbouring pairs of cells, of
 * which {@code xFaces}, {@code yFaces} and {@code zFaces} share a face across x, y and z (the
 * rest an edge or a corner). Arrays of equal length, on the Java heap.
 */
public record ContactRows(long[] first, long[] second, long[] contacts, long[] xFaces, long[] yFaces, long[] zFaces) {
    /** The number of pairs. */
    public int size() {
        return first.length;
    }
}
