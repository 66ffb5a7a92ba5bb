package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;

/**
 * A 2D or 3D grid as the engines take it: {@code width × height × depth} cells of
 * {@code type}, cell (x, y, z) at cell offset
 * {@code x + rowStride * y + layerStride * z} of {@code cells}, which the API ({@code Grid})
 * checked to hold the last cell. Labels go by linear index {@code x + width * (y + height * z)}.
 */
public record GridData(int width, int height, int depth, IntensityData.ValueType type, long rowStride,
                       long layerStride, MemorySegment cells) {
    public long cellCount() {
        return (long) width * height * depth;
    }

    public int cellBytes() {
        return type.bytes();
    }

    /** The {@code width} cells of row y of layer z. */
    public MemorySegment row(int y, int z) {
        return cells.asSlice((rowStride * y + layerStride * z) * cellBytes(), (long) width * cellBytes());
    }

    /** The value of cell (x, y, z), exactly (every cell type's values are doubles). */
    public double value(int x, int y, int z) {
        return type.read(cells, x + rowStride * y + layerStride * z);
    }

    /** "a 512x512x1 grid", as messages name it. */
    public String describe() {
        return "a " + width + "x" + height + "x" + depth + " grid";
    }
}
