package org.ccl4j.mesh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A 2D or 3D mesh of cells over an off-heap segment: {@code width × height × depth} cells of one
 * {@link CellType}, x varying fastest, so cell (x, y, z) is at linear index
 * {@code x + width * (y + height * z)}. A 2D grid has depth 1.
 */
public final class Grid {
    /** The type of a cell. */
    public enum CellType {
        /** Unsigned 8-bit cells (images, occupancy fields). */
        U8(1),
        /** Signed 32-bit cells (spins, phases, decorated meshes). */
        I32(4);

        private final int bytes;

        CellType(int bytes) {
            this.bytes = bytes;
        }

        /** The size of one cell in bytes. */
        public int bytes() {
            return bytes;
        }
    }

    private final MemorySegment cells;
    private final CellType type;
    private final int width;
    private final int height;
    private final int depth;

    private Grid(MemorySegment cells, CellType type, int width, int height, int depth) {
        Objects.requireNonNull(cells, "cells");
        Objects.requireNonNull(type, "type");
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("grid dimensions must be positive, got " + width + "x" + height + "x" + depth);
        }
        long count = (long) width * height * depth;
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a grid holds at most " + Integer.MAX_VALUE + " cells (labels are int32), got "
                    + width + "x" + height + "x" + depth + " = " + count);
        }
        if (cells.byteSize() < count * type.bytes()) {
            throw new IllegalArgumentException("the segment holds " + cells.byteSize() + " bytes, a " + width + "x" + height
                    + "x" + depth + " grid of " + type + " needs " + count * type.bytes());
        }
        if (type == CellType.I32 && cells.isNative() && cells.address() % Integer.BYTES != 0) {
            throw new IllegalArgumentException("int32 cells must be 4-byte aligned");
        }
        this.cells = cells;
        this.type = type;
        this.width = width;
        this.height = height;
        this.depth = depth;
    }

    /** A 2D grid over existing cells (not copied). */
    public static Grid wrap(MemorySegment cells, CellType type, int width, int height) {
        return new Grid(cells, type, width, height, 1);
    }

    /** A 3D grid over existing cells (not copied). */
    public static Grid wrap(MemorySegment cells, CellType type, int width, int height, int depth) {
        return new Grid(cells, type, width, height, depth);
    }

    /** A zero-filled grid allocated in {@code arena}. */
    public static Grid allocate(Arena arena, CellType type, int width, int height, int depth) {
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("grid dimensions must be positive, got " + width + "x" + height + "x" + depth);
        }
        long bytes = (long) width * height * depth * type.bytes();
        return new Grid(arena.allocate(bytes, 64), type, width, height, depth);
    }

    /** A 2D uint8 grid holding a copy of {@code cells} (row-major, {@code width * height} entries). */
    public static Grid ofBytes(Arena arena, byte[] cells, int width, int height) {
        checkLength(cells.length, width, height, 1);
        Grid grid = allocate(arena, CellType.U8, width, height, 1);
        MemorySegment.copy(cells, 0, grid.cells, ValueLayout.JAVA_BYTE, 0, cells.length);
        return grid;
    }

    /** An int32 grid holding a copy of {@code cells} ({@code width * height * depth} entries, x fastest). */
    public static Grid ofInts(Arena arena, int[] cells, int width, int height, int depth) {
        checkLength(cells.length, width, height, depth);
        Grid grid = allocate(arena, CellType.I32, width, height, depth);
        MemorySegment.copy(cells, 0, grid.cells, ValueLayout.JAVA_INT, 0, cells.length);
        return grid;
    }

    private static void checkLength(int length, int width, int height, int depth) {
        if ((long) width * height * depth != length) {
            throw new IllegalArgumentException(length + " cells given for a " + width + "x" + height + "x" + depth + " grid");
        }
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** 1 for a 2D grid. */
    public int depth() {
        return depth;
    }

    public CellType type() {
        return type;
    }

    /** True when depth is greater than 1. */
    public boolean is3d() {
        return depth > 1;
    }

    public int cellCount() {
        return width * height * depth;
    }

    /** The cells, exactly {@code cellCount() * type().bytes()} bytes. */
    public MemorySegment cells() {
        return cells.asSlice(0, (long) cellCount() * type.bytes());
    }

    /** The linear index of cell (x, y, z). */
    public int index(int x, int y, int z) {
        Objects.checkIndex(x, width);
        Objects.checkIndex(y, height);
        Objects.checkIndex(z, depth);
        return x + width * (y + height * z);
    }

    /** The value of the cell at a linear index (uint8 cells read as 0..255). */
    public int get(int index) {
        Objects.checkIndex(index, cellCount());
        return type == CellType.U8 ? Byte.toUnsignedInt(cells.get(ValueLayout.JAVA_BYTE, index))
                : cells.getAtIndex(ValueLayout.JAVA_INT, index);
    }

    public int get(int x, int y, int z) {
        return get(index(x, y, z));
    }

    /** Sets the cell at a linear index; uint8 cells take 0..255. */
    public void set(int index, int value) {
        Objects.checkIndex(index, cellCount());
        if (type == CellType.U8) {
            if (value < 0 || value > 255) {
                throw new IllegalArgumentException("a uint8 cell takes 0..255, got " + value);
            }
            cells.set(ValueLayout.JAVA_BYTE, index, (byte) value);
        } else {
            cells.setAtIndex(ValueLayout.JAVA_INT, index, value);
        }
    }

    public void set(int x, int y, int z, int value) {
        set(index(x, y, z), value);
    }

    @Override
    public String toString() {
        return "Grid[" + width + "x" + height + (is3d() ? "x" + depth : "") + ", " + type + "]";
    }
}
