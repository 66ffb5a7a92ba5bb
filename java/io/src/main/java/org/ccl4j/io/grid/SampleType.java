package org.ccl4j.io.grid;

import org.ccl4j.Grid;

/**
 * The element types of the array formats (NumPy, NRRD, NIfTI, TIFF) that ccl4j reads or writes.
 * Grids hold uint8, uint16, int32 or float32 cells: {@link #U1}, {@link #U2} and {@link #F4} are
 * read as they are, the other integers are widened to int32 without loss ({@link #U4} only within
 * int32's range); {@link #I8} is written (int64 labels), never read.
 */
enum SampleType {
    U1(1, "uint8"),
    I1(1, "int8"),
    U2(2, "uint16"),
    I2(2, "int16"),
    U4(4, "uint32"),
    I4(4, "int32"),
    F4(4, "float32"),
    I8(8, "int64");

    private final int bytes;
    private final String title;

    SampleType(int bytes, String title) {
        this.bytes = bytes;
        this.title = title;
    }

    int bytes() {
        return bytes;
    }

    /** The name, as numpy spells its dtypes: {@code uint8}, {@code float32}. */
    String title() {
        return title;
    }

    /** The grid cell type that holds the values without loss. */
    Grid.CellType cellType() {
        return switch (this) {
            case U1 -> Grid.CellType.U8;
            case U2 -> Grid.CellType.U16;
            case F4 -> Grid.CellType.F32;
            default -> Grid.CellType.I32;
        };
    }

    /** The type a grid of {@code type} is written as. */
    static SampleType of(Grid.CellType type) {
        return switch (type) {
            case U8 -> U1;
            case U16 -> U2;
            case I32 -> I4;
            case F32 -> F4;
        };
    }
}
