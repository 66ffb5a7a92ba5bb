package org.ccl4j.engine.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A 2D or 3D grid as the engines take it: {@code width × height × depth} cells of
 * {@code cellBytes} (1: unsigned bytes, 4: ints), cell (x, y, z) at cell offset
 * {@code x + rowStride * y + layerStride * z} of {@code cells}, which the API ({@code Grid})
 * checked to hold the last cell. Labels go by linear index {@code x + width * (y + height * z)}.
 */
public record GridData(int width, int height, int depth, int cellBytes, long rowStride, long layerStride,
                       MemorySegment cells) {
    public long cellCount() {
        return (long) width * height * depth;
    }

    public boolean bytes() {
        return cellBytes == 1;
    }

    /** The {@code width} cells of row y of layer z. */
    public MemorySegment row(int y, int z) {
        return cells.asSlice((rowStride * y + layerStride * z) * cellBytes, (long) width * cellBytes);
    }

    /** The value of cell (x, y, z), unsigned bytes as 0..255. */
    public int cell(int x, int y, int z) {
        long offset = x + rowStride * y + layerStride * z;
        return bytes() ? Byte.toUnsignedInt(cells.get(ValueLayout.JAVA_BYTE, offset))
                : cells.getAtIndex(ValueLayout.JAVA_INT, offset);
    }

    /** "a 512x512x1 grid", as messages name it. */
    public String describe() {
        return "a " + width + "x" + height + "x" + depth + " grid";
    }
}
