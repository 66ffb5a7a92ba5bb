package org.ccl4j;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

import org.ccl4j.engine.spi.IntensityData;

/**
 * The values a mesh statistics table sums per component (sum, minimum, maximum, mean): a grid of
 * the labelled grid's extents, of unsigned bytes, ints or floats, dense or strided like a
 * {@link Grid}. {@link #of(Grid)} takes a grid's own cells; the labelled grid itself is the default.
 */
public final class Intensity {
    /** The type of a value. */
    public enum Type {
        /** Unsigned 8-bit values. */
        U8(1),
        /** Unsigned 16-bit values. */
        U16(2),
        /** Signed 32-bit values. */
        I32(4),
        /** 32-bit floats. */
        F32(4);

        private final int bytes;

        Type(int bytes) {
            this.bytes = bytes;
        }

        /**
         * The size of one value in bytes.
         *
         * @return 1 or 4
         */
        public int bytes() {
            return bytes;
        }

    }

    private final Grid shape;  // extents, strides and the segment, of the values' type
    private final Type type;

    private Intensity(Grid shape, Type type) {
        this.shape = shape;
        this.type = type;
    }

    /**
     * The cells of {@code grid} as intensity (u8 or i32).
     *
     * @param grid the grid whose cells are the values
     * @return the intensity over {@code grid}'s cells
     */
    public static Intensity of(Grid grid) {
        Objects.requireNonNull(grid, "grid");
        return new Intensity(grid, Type.valueOf(grid.type().name()));
    }

    /**
     * Dense floats over {@code values} (native-order, 4-byte aligned, not copied), x fastest.
     *
     * @param values the values, {@code width * height * depth} floats
     * @param width values per row
     * @param height rows per layer
     * @param depth layers, 1 in 2D
     * @return the intensity over {@code values}
     */
    public static Intensity ofFloats(MemorySegment values, int width, int height, int depth) {
        return wrap(values, Type.F32, width, height, depth, width, (long) width * height);
    }

    /**
     * Values of {@code type} over {@code values} (not copied): value (x, y, z) at value offset
     * {@code x + rowStride * y + layerStride * z}, as {@link Grid#wrapStrided} describes.
     *
     * @param values the values, from value (0, 0, 0) to the last
     * @param type the type of every value
     * @param width values per row
     * @param height rows per layer
     * @param depth layers, 1 in 2D
     * @param rowStride values from one row to the next, at least {@code width}
     * @param layerStride values from one layer to the next, at least {@code rowStride * height}
     * @return the intensity over {@code values}
     */
    public static Intensity wrap(MemorySegment values, Type type, int width, int height, int depth, long rowStride,
                                 long layerStride) {
        Objects.requireNonNull(type, "type");
        // a grid of the values' size checks the extents, strides, span and alignment
        Grid.CellType cells = Grid.CellType.valueOf(type.name());
        return new Intensity(Grid.wrapStrided(values, cells, width, height, depth, rowStride, layerStride), type);
    }

    /**
     * The type of every value.
     *
     * @return the type
     */
    public Type type() {
        return type;
    }

    /**
     * Values per row (along x).
     *
     * @return the width
     */
    public int width() {
        return shape.width();
    }

    /**
     * Rows per layer (along y).
     *
     * @return the height
     */
    public int height() {
        return shape.height();
    }

    /**
     * 1 in 2D.
     *
     * @return the depth
     */
    public int depth() {
        return shape.depth();
    }

    /**
     * Values from one row to the next.
     *
     * @return the row stride
     */
    public long rowStride() {
        return shape.rowStride();
    }

    /**
     * Values from one layer to the next.
     *
     * @return the layer stride
     */
    public long layerStride() {
        return shape.layerStride();
    }

    /**
     * The values, from value (0, 0, 0) to the last.
     *
     * @return the values
     */
    public MemorySegment values() {
        return shape.cells();
    }

    /**
     * Value (x, y, z), exactly, as a double.
     *
     * @param x the column
     * @param y the row
     * @param z the layer, 0 in 2D
     * @return the value
     */
    public double get(int x, int y, int z) {
        return shape.value(x, y, z);
    }

    /** The values as the engines take them. */
    IntensityData data() {
        return new IntensityData(IntensityData.ValueType.valueOf(type.name()), rowStride(), layerStride(), values());
    }

    /** Whether the extents are those of {@code grid}; otherwise an exception naming both. */
    void checkExtents(int width, int height, int depth) {
        if (width != width() || height != height() || depth != depth()) {
            throw new IllegalArgumentException("the intensity grid is " + width() + "x" + height() + "x" + depth()
                    + ", the labelled grid " + width + "x" + height + "x" + depth + ": they must match");
        }
    }

    @Override
    public String toString() {
        return "Intensity[" + width() + "x" + height() + (depth() > 1 ? "x" + depth() : "") + ", " + type + "]";
    }
}
