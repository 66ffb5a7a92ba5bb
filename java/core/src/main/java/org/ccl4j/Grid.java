package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.internal.HostMemory;
import org.ccl4j.internal.Segments;

/**
 * A 2D or 3D mesh of cells over an off-heap segment: {@code width × height × depth} cells of one
 * {@link CellType}, x varying fastest. A 2D grid has depth 1.
 *
 * <p>Cell (x, y, z) has the linear index {@code x + width * (y + height * z)}, which is where its
 * label goes whatever the layout of the cells. The cells themselves may lie apart: cell (x, y, z)
 * is at cell offset {@code x + rowStride() * y + layerStride() * z} of {@link #cells()}. A dense
 * grid ({@link #isDense()}) has its cells back to back, so offset and linear index agree; a
 * strided one is a view of part of a larger buffer, such as a region of interest of an image
 * ({@link #region}), an image with padded rows, or a slice of a simulation field
 * ({@link #wrapStrided}). Views are not copies: they read and write the cells they view, and every
 * labeller honours their strides (periodic boundaries of a region wrap at the region's edges).
 *
 * <p>A grid holds as many cells as memory does: the cell count and linear indices are longs, and
 * past {@link Integer#MAX_VALUE} cells its labels are int64 ({@link MeshOptions#labelBytesFor}).
 */
public final class Grid {
    /** The type of a cell. */
    public enum CellType {
        /** Unsigned 8-bit cells (images, occupancy fields). */
        U8(IntensityData.ValueType.U8),
        /** Unsigned 16-bit cells (microscopy and CT images, label volumes), read as 0..65535. */
        U16(IntensityData.ValueType.U16),
        /** Signed 32-bit cells (spins, phases, decorated meshes). */
        I32(IntensityData.ValueType.I32),
        /**
         * 32-bit IEEE floats (simulation fields, probability maps): 0 and -0.0 are background in
         * foreground mode; in same-value mode a NaN connects to nothing (see {@link MeshOptions#delta()}).
         */
        F32(IntensityData.ValueType.F32);

        private final IntensityData.ValueType value;

        CellType(IntensityData.ValueType value) {
            this.value = value;
        }

        /**
         * The size of one cell in bytes.
         *
         * @return 1, 2 or 4
         */
        public int bytes() {
            return value.bytes();
        }

        /** The cell type as the engines take it. */
        IntensityData.ValueType value() {
            return value;
        }
    }

    private final MemorySegment cells;  // from cell (0, 0, 0) to the last cell
    private final CellType type;
    private final int width;
    private final int height;
    private final int depth;
    private final long rowStride;
    private final long layerStride;
    private final boolean dense;

    private Grid(MemorySegment cells, CellType type, int width, int height, int depth, long rowStride,
            long layerStride) {
        Objects.requireNonNull(cells, "cells");
        Objects.requireNonNull(type, "type");
        String dims = width + "x" + height + "x" + depth;
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("grid dimensions must be positive, got " + dims);
        }
        if (rowStride < width) {
            throw new IllegalArgumentException("row stride " + rowStride + " is less than the width " + width
                    + ": rows would overlap");
        }
        long layer = multiply(rowStride, height, "row stride " + rowStride + " times the height " + height
                + " does not fit a long");
        if (depth == 1) {
            layerStride = layer;  // never stepped over; one value for every 2D grid
        }
        if (layerStride < layer) {
            throw new IllegalArgumentException("layer stride " + layerStride + " is less than row stride " + rowStride
                    + " * height " + height + " = " + layer + ": layers would overlap");
        }
        String what = "a " + dims + " grid with row stride " + rowStride + " and layer stride " + layerStride;
        long span = spanCells(height, depth, width, rowStride, layerStride, what);
        long bytes = multiply(span, type.bytes(), what + " spans more than 2^63 bytes");
        if (cells.byteSize() < bytes) {
            throw new IllegalArgumentException("the segment holds " + cells.byteSize() + " bytes, " + what + " of " + type
                    + " needs " + bytes);
        }
        if (cells.isNative() && cells.address() % type.bytes() != 0) {
            throw new IllegalArgumentException(type + " cells must be " + type.bytes() + "-byte aligned");
        }
        this.cells = cells.asSlice(0, bytes);
        this.type = type;
        this.width = width;
        this.height = height;
        this.depth = depth;
        this.rowStride = rowStride;
        this.layerStride = layerStride;
        this.dense = (height == 1 || rowStride == width) && (depth == 1 || layerStride == (long) width * height);
    }

    /** Cells from the first to one past the last: {@code (depth-1)·layerStride + (height-1)·rowStride + width}. */
    private static long spanCells(int height, int depth, int width, long rowStride, long layerStride, String what) {
        try {
            return Math.addExact(Math.addExact(Math.multiplyExact(depth - 1, layerStride),
                    Math.multiplyExact(height - 1, rowStride)), width);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " spans more than 2^63 cells");
        }
    }

    private static long multiply(long a, long b, String message) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * A dense 2D grid over existing cells (not copied).
     *
     * @param cells the cells, {@code width * height} of {@code type}, row-major
     * @param type the type of every cell
     * @param width cells per row
     * @param height rows
     * @return a grid over {@code cells}
     */
    public static Grid wrap(MemorySegment cells, CellType type, int width, int height) {
        return new Grid(cells, type, width, height, 1, width, 0);
    }

    /**
     * A dense 3D grid over existing cells (not copied).
     *
     * @param cells the cells, {@code width * height * depth} of {@code type}, x fastest
     * @param type the type of every cell
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers
     * @return a grid over {@code cells}
     */
    public static Grid wrap(MemorySegment cells, CellType type, int width, int height, int depth) {
        return new Grid(cells, type, width, height, depth, width, (long) width * height);
    }

    /**
     * A 2D grid over existing cells (not copied) whose rows lie {@code rowStride} cells apart, as in
     * an image with padded rows: cell (x, y) is at cell offset {@code x + rowStride * y} of {@code cells}.
     *
     * @param cells the cells, from cell (0, 0) to the last
     * @param type the type of every cell
     * @param width cells per row
     * @param height rows
     * @param rowStride cells from one row to the next, at least {@code width}
     * @return a grid over {@code cells}
     * @throws IllegalArgumentException when rows would overlap ({@code rowStride < width}) or the
     *                                  segment is too small for the last cell
     */
    public static Grid wrapStrided(MemorySegment cells, CellType type, int width, int height, long rowStride) {
        return new Grid(cells, type, width, height, 1, rowStride, 0);
    }

    /**
     * A 3D grid over existing cells (not copied) whose rows lie {@code rowStride} and layers
     * {@code layerStride} cells apart: cell (x, y, z) is at cell offset
     * {@code x + rowStride * y + layerStride * z} of {@code cells}.
     *
     * @param cells the cells, from cell (0, 0, 0) to the last
     * @param type the type of every cell
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers
     * @param rowStride cells from one row to the next, at least {@code width}
     * @param layerStride cells from one layer to the next, at least {@code rowStride * height}
     * @return a grid over {@code cells}
     * @throws IllegalArgumentException when rows or layers would overlap ({@code rowStride < width},
     *                                  {@code layerStride < rowStride * height}) or the segment is
     *                                  too small for the last cell
     */
    public static Grid wrapStrided(MemorySegment cells, CellType type, int width, int height, int depth, long rowStride,
            long layerStride) {
        return new Grid(cells, type, width, height, depth, rowStride, layerStride);
    }

    /**
     * A zero-filled grid allocated in {@code arena}.
     *
     * @param arena where the cells are allocated
     * @param type the type of every cell
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers, 1 for a 2D grid
     * @return a dense grid of zero cells, in {@code arena}
     * @throws Ccl4jException (status {@link Ccl4jException.Status#OUT_OF_MEMORY}) before allocating
     *                        anything when the host has less memory available than the grid needs
     *                        (Linux's MemAvailable; not checked where it is unknown), naming both
     */
    public static Grid allocate(Arena arena, CellType type, int width, int height, int depth) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(type, "type");
        String dims = width + "x" + height + "x" + depth;
        if (width < 1 || height < 1 || depth < 1) {
            throw new IllegalArgumentException("grid dimensions must be positive, got " + dims);
        }
        // at most 2^93 bytes: checked, not wrapped
        long bytes = multiply(multiply(multiply(width, height, dims + " grid: too many cells"), depth,
                dims + " grid: too many cells"), type.bytes(), dims + " grid: too many bytes");
        HostMemory.require("allocating a " + dims + " grid of " + type + " cells", bytes, Ccl4jException.FAILURES);
        return wrap(arena.allocate(bytes, 64), type, width, height, depth);
    }

    /**
     * A 2D uint8 grid holding a copy of {@code cells} (row-major, {@code width * height} entries).
     *
     * @param arena where the cells are copied
     * @param cells the cells, row-major
     * @param width cells per row
     * @param height rows
     * @return a dense uint8 grid, in {@code arena}
     */
    public static Grid ofBytes(Arena arena, byte[] cells, int width, int height) {
        return ofBytes(arena, cells, width, height, 1);
    }

    /**
     * A uint8 grid holding a copy of {@code cells} ({@code width * height * depth} entries, x fastest).
     *
     * @param arena where the cells are copied
     * @param cells the cells, x fastest
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers, 1 for a 2D grid
     * @return a dense uint8 grid, in {@code arena}
     */
    public static Grid ofBytes(Arena arena, byte[] cells, int width, int height, int depth) {
        checkLength(cells.length, width, height, depth);
        Grid grid = allocate(arena, CellType.U8, width, height, depth);
        MemorySegment.copy(cells, 0, grid.cells, ValueLayout.JAVA_BYTE, 0, cells.length);
        return grid;
    }

    /**
     * A 2D int32 grid holding a copy of {@code cells} (row-major, {@code width * height} entries).
     *
     * @param arena where the cells are copied
     * @param cells the cells, row-major
     * @param width cells per row
     * @param height rows
     * @return a dense int32 grid, in {@code arena}
     */
    public static Grid ofInts(Arena arena, int[] cells, int width, int height) {
        return ofInts(arena, cells, width, height, 1);
    }

    /**
     * An int32 grid holding a copy of {@code cells} ({@code width * height * depth} entries, x fastest).
     *
     * @param arena where the cells are copied
     * @param cells the cells, x fastest
     * @param width cells per row
     * @param height rows per layer
     * @param depth layers, 1 for a 2D grid
     * @return a dense int32 grid, in {@code arena}
     */
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

    /**
     * Cells per row (along x).
     *
     * @return the width
     */
    public int width() {
        return width;
    }

    /**
     * Rows per layer (along y).
     *
     * @return the height
     */
    public int height() {
        return height;
    }

    /**
     * 1 for a 2D grid.
     *
     * @return the depth
     */
    public int depth() {
        return depth;
    }

    /**
     * The type of every cell.
     *
     * @return the cell type
     */
    public CellType type() {
        return type;
    }

    /**
     * True when depth is greater than 1.
     *
     * @return whether the grid is a volume
     */
    public boolean is3d() {
        return depth > 1;
    }

    /**
     * {@code width() * height() * depth()}: the number of cells and of labels. A grid holds any
     * number of cells that memory holds; past {@link Integer#MAX_VALUE} its labels are int64
     * ({@link MeshOptions#labelBytesFor(Grid)}).
     *
     * @return the number of cells
     */
    public long cellCount() {
        return (long) width * height * depth;
    }

    /**
     * Cells from one row to the next in {@link #cells()}: at least the width; the width in a grid made by {@link #wrap} or {@link #allocate}.
     *
     * @return the row stride, in cells
     */
    public long rowStride() {
        return rowStride;
    }

    /**
     * Cells from one layer to the next in {@link #cells()}: at least {@code rowStride() * height()}, which it is in a 2D grid.
     *
     * @return the layer stride, in cells
     */
    public long layerStride() {
        return layerStride;
    }

    /**
     * Whether the cells lie back to back, x fastest, so that {@link #cells()} holds exactly
     * {@link #cellCount()} cells in linear index order. A single row or layer is dense whatever
     * its stride.
     *
     * @return whether the cells are dense
     */
    public boolean isDense() {
        return dense;
    }

    /**
     * The cells, from cell (0, 0, 0) to the last one: exactly {@code cellCount() * type().bytes()}
     * bytes in linear index order when the grid {@link #isDense() is dense}; otherwise rows lie
     * {@link #rowStride()} and layers {@link #layerStride()} cells apart, with cells between them that
     * are not the grid's.
     *
     * @return the cells
     */
    public MemorySegment cells() {
        return cells;
    }

    /**
     * The {@code width()} cells of row y of layer z, back to back (a view of {@link #cells()}).
     *
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return the row's cells
     */
    public MemorySegment row(int y, int z) {
        Objects.checkIndex(y, height);
        Objects.checkIndex(z, depth);
        return cells.asSlice(offset(0, y, z) * type.bytes(), (long) width * type.bytes());
    }

    /**
     * The region of this 2D grid with corner (x, y) and the given extents: a view of the same
     * cells, not a copy (see {@link #region(int, int, int, int, int, int)}).
     *
     * @param x the region's first column
     * @param y the region's first row
     * @param width its cells per row
     * @param height its rows
     * @return the region, a view of this grid
     */
    public Grid region(int x, int y, int width, int height) {
        return region(x, y, 0, width, height, 1);
    }

    /**
     * The region with corner (x, y, z) and the given extents: a grid over the same cells, not a
     * copy, with this grid's strides. Its cell (0, 0, 0) is this grid's cell (x, y, z); its labels
     * are its own (linear indices of the region), and periodic boundaries wrap at its own edges.
     *
     * @param x the region's first column
     * @param y the region's first row
     * @param z the region's first layer
     * @param width its cells per row
     * @param height its rows per layer
     * @param depth its layers
     * @return the region, a view of this grid
     * @throws IllegalArgumentException when the region is empty or reaches outside this grid
     */
    public Grid region(int x, int y, int z, int width, int height, int depth) {
        int[] corner = {x, y, z};
        int[] extent = {width, height, depth};
        int[] limit = {this.width, this.height, this.depth};
        String region = "region " + x + "," + y + "," + z + ":" + width + "x" + height + "x" + depth;
        for (int a = 0; a < 3; a++) {
            if (extent[a] < 1) {
                throw new IllegalArgumentException(region + " is empty: its " + List.of("width", "height", "depth").get(a)
                        + " is " + extent[a]);
            }
            if (corner[a] < 0 || corner[a] > limit[a] - extent[a]) {
                throw new IllegalArgumentException(region + " does not lie inside the " + this.width + "x" + this.height
                        + "x" + this.depth + " grid: " + "xyz".charAt(a) + " " + corner[a] + ".."
                        + ((long) corner[a] + extent[a] - 1) + " is outside 0.." + (limit[a] - 1));
            }
        }
        MemorySegment view = cells.asSlice(offset(x, y, z) * type.bytes());
        return new Grid(view, type, width, height, depth, rowStride, layerStride);
    }

    /**
     * The linear index of cell (x, y, z): where its label goes.
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return {@code x + width * (y + height * z)}
     */
    public long index(int x, int y, int z) {
        checkCell(x, y, z);
        return x + (long) width * (y + (long) height * z);
    }

    /**
     * The value of the cell at a linear index, of any cell type, exactly.
     *
     * @param index a linear index, below {@link #cellCount()}
     * @return the cell's value (unsigned types as 0..255 and 0..65535)
     */
    public double value(long index) {
        Objects.checkIndex(index, cellCount());
        return type.value().read(cells, dense ? index : offsetOf(index));
    }

    /**
     * The value of cell (x, y, z), of any cell type, exactly.
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return the cell's value (unsigned types as 0..255 and 0..65535)
     */
    public double value(int x, int y, int z) {
        checkCell(x, y, z);
        return type.value().read(cells, offset(x, y, z));
    }

    /**
     * Sets the cell at a linear index to {@code value}, which its type must hold exactly (any
     * float for {@link CellType#F32}, which rounds it to the nearest float).
     *
     * @param index a linear index, below {@link #cellCount()}
     * @param value the new value
     * @throws IllegalArgumentException when an integer cell type cannot hold {@code value}
     */
    public void setValue(long index, double value) {
        Objects.checkIndex(index, cellCount());
        long offset = dense ? index : offsetOf(index);
        if (type == CellType.F32) {
            cells.setAtIndex(ValueLayout.JAVA_FLOAT, offset, (float) value);
        } else if (value != Math.rint(value) || value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a " + type + " cell takes integers, got " + value);
        } else {
            write(offset, (int) value);
        }
    }

    /**
     * The value of the cell at a linear index (uint8 cells read as 0..255, uint16 as 0..65535).
     *
     * @param index a linear index, below {@link #cellCount()}
     * @return the cell's value
     * @throws UnsupportedOperationException for float cells: {@link #value(long)} reads them
     */
    public int get(long index) {
        Objects.checkIndex(index, cellCount());
        return read(dense ? index : offsetOf(index));
    }

    /**
     * The value of cell (x, y, z) (uint8 cells read as 0..255, uint16 as 0..65535).
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return the cell's value
     * @throws UnsupportedOperationException for float cells: {@link #value(int, int, int)} reads them
     */
    public int get(int x, int y, int z) {
        checkCell(x, y, z);
        return read(offset(x, y, z));
    }

    /**
     * Sets the cell at a linear index; uint8 cells take 0..255.
     *
     * @param index a linear index, below {@link #cellCount()}
     * @param value the new value
     */
    public void set(long index, int value) {
        Objects.checkIndex(index, cellCount());
        write(dense ? index : offsetOf(index), value);
    }

    /**
     * Sets cell (x, y, z); uint8 cells take 0..255.
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @param value the new value
     */
    public void set(int x, int y, int z, int value) {
        checkCell(x, y, z);
        write(offset(x, y, z), value);
    }

    private void checkCell(int x, int y, int z) {
        Objects.checkIndex(x, width);
        Objects.checkIndex(y, height);
        Objects.checkIndex(z, depth);
    }

    /** The cell offset in {@link #cells()} of cell (x, y, z), which are in range. */
    private long offset(int x, int y, int z) {
        return x + rowStride * y + layerStride * z;
    }

    /** The cell offset in {@link #cells()} of a linear index in range. */
    private long offsetOf(long index) {
        long rowIndex = index / width;
        return offset((int) (index - rowIndex * width), (int) (rowIndex % height), (int) (rowIndex / height));
    }

    private int read(long offset) {
        if (type == CellType.F32) {
            throw new UnsupportedOperationException("float cells are read with value(...), not get(...)");
        }
        return (int) type.value().read(cells, offset);
    }

    private void write(long offset, int value) {
        switch (type) {
            case U8 -> {
                if (value < 0 || value > 255) {
                    throw new IllegalArgumentException("a uint8 cell takes 0..255, got " + value);
                }
                cells.set(ValueLayout.JAVA_BYTE, offset, (byte) value);
            }
            case U16 -> {
                if (value < 0 || value > 65535) {
                    throw new IllegalArgumentException("a uint16 cell takes 0..65535, got " + value);
                }
                cells.setAtIndex(ValueLayout.JAVA_SHORT, offset, (short) value);
            }
            case I32 -> cells.setAtIndex(ValueLayout.JAVA_INT, offset, value);
            case F32 -> cells.setAtIndex(ValueLayout.JAVA_FLOAT, offset, value);
        }
    }

    /** Checks {@code labels} for this grid's labels: room, writable, native, aligned, apart from the cells. */
    void checkLabels(MemorySegment labels, int labelBytes) {
        Segments.checkLabels(labels, cellCount(), labelBytes, this + " has " + cellCount() + " cells");
        Segments.checkDisjoint(labels, cellCount() * labelBytes, cells, "the cells of " + this);
    }

    /** The grid as the engines take it. */
    GridData data() {
        return new GridData(width, height, depth, type.value(), rowStride, layerStride, cells);
    }

    @Override
    public String toString() {
        return "Grid[" + width + "x" + height + (is3d() ? "x" + depth : "") + ", " + type
                + (dense ? "" : ", row stride " + rowStride + (is3d() ? ", layer stride " + layerStride : "")) + "]";
    }
}
