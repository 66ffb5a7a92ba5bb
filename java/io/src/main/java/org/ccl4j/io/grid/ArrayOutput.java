package org.ccl4j.io.grid;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.GZIPOutputStream;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;

/**
 * What the NumPy, NRRD, NIfTI and TIFF writers write: the cells of a grid (uint8 or int32, a view
 * read cell by cell), or labels (int32 or int64, native order, x fastest).
 *
 * @param dims  the dimensions
 * @param type  {@link SampleType#U1}, {@link SampleType#U2}, {@link SampleType#I4}, {@link SampleType#F4} or
 *              {@link SampleType#I8}
 * @param dense the values back to back in native order, or null for a grid view
 * @param grid  the grid view whose cells are read one by one, when {@code dense} is null
 */
record ArrayOutput(GridDims dims, SampleType type, MemorySegment dense, Grid grid) {
    private static final int CHUNK_CELLS = 1 << 16;

    static ArrayOutput of(Grid grid) {
        Objects.requireNonNull(grid, "grid");
        return new ArrayOutput(GridDims.of(grid), SampleType.of(grid.type()), grid.isDense() ? grid.cells() : null,
                grid);
    }

    /** Labels of {@code labelBytes} 4 (int32) or 8 (int64), {@code dims.cellCount()} of them. */
    static ArrayOutput labels(MemorySegment labels, int labelBytes, GridDims dims) {
        Objects.requireNonNull(labels, "labels");
        if (labelBytes != Integer.BYTES && labelBytes != Long.BYTES) {
            throw new IllegalArgumentException("labels are 4 or 8 bytes wide, not " + labelBytes);
        }
        if (labels.byteSize() / labelBytes < dims.cellCount()) {
            throw new IllegalArgumentException("labels segment of " + labels.byteSize() + " bytes does not hold the "
                    + dims.cellCount() + " labels of a " + dims + " grid");
        }
        return new ArrayOutput(dims, labelBytes == Long.BYTES ? SampleType.I8 : SampleType.I4, labels, null);
    }

    /** The value at a linear index of an integer type (an int64 label as a long). */
    long get(long index) {
        if (dense == null) {
            return grid.get(index);
        }
        return switch (type) {
            case U1 -> dense.get(ValueLayout.JAVA_BYTE, index) & 0xFF;
            case U2 -> dense.getAtIndex(ValueLayout.JAVA_SHORT, index) & 0xFFFF;
            case I4 -> dense.getAtIndex(ValueLayout.JAVA_INT, index);
            case F4 -> throw new IllegalStateException("float values are read with getFloat");
            default -> dense.getAtIndex(ValueLayout.JAVA_LONG, index);
        };
    }

    /** The value at a linear index of a float32 array. */
    float getFloat(long index) {
        return dense == null ? (float) grid.value(index) : dense.getAtIndex(ValueLayout.JAVA_FLOAT, index);
    }

    /** Writes the values, x fastest, in little-endian order. */
    void writeLittleEndian(OutputStream out) throws IOException {
        int size = type.bytes();
        byte[] chunk = new byte[CHUNK_CELLS * size];
        MemorySegment target = MemorySegment.ofArray(chunk);
        long count = dims.cellCount();
        for (long at = 0; at < count; at += CHUNK_CELLS) {
            int n = (int) Math.min(CHUNK_CELLS, count - at);
            if (dense != null) {  // the values' bytes, swapped where the host is big-endian
                switch (size) {
                    case 1 -> MemorySegment.copy(dense, ValueLayout.JAVA_BYTE, at, chunk, 0, n);
                    case 2 -> MemorySegment.copy(dense, ValueLayout.JAVA_SHORT, at * 2, target,
                            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, n);
                    case 4 -> MemorySegment.copy(dense, ValueLayout.JAVA_INT, at * 4, target,
                            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, n);
                    default -> MemorySegment.copy(dense, ValueLayout.JAVA_LONG, at * 8, target,
                            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, n);
                }
            } else {
                for (int k = 0; k < n; k++) {
                    switch (type) {
                        case U1 -> chunk[k] = (byte) grid.get(at + k);
                        case U2 -> target.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                                2L * k, (short) grid.get(at + k));
                        case F4 -> target.set(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                                4L * k, (float) grid.value(at + k));
                        default -> target.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                                4L * k, grid.get(at + k));
                    }
                }
            }
            out.write(chunk, 0, n * size);
        }
    }

    /** A buffered stream into {@code file}, gzip-compressed when its name ends in {@code .gz}. */
    static OutputStream open(Path file) throws IOException {
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".gz") ? new GZIPOutputStream(out, 1 << 16) : out;
    }
}
