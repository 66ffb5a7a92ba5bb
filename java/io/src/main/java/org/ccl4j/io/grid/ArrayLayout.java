package org.ccl4j.io.grid;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalInt;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;

/**
 * Where the cells of a NumPy, NRRD or NIfTI file lie, as its header says: the data file, the
 * offset of the first cell, the element type and byte order, and whether the first axis varies
 * fastest in the file (NumPy's Fortran order) rather than x. Reads them into a grid in chunks, or
 * maps them where they are already a grid's cells.
 *
 * @param data    the file that holds the cells (an NRRD header's detached data file, else the file itself)
 * @param offset  the offset of the first cell in {@code data} (for gzip data: of the compressed stream)
 * @param skip    bytes of the decompressed stream before the first cell (NRRD's byte skip of gzip data)
 * @param type    the element type
 * @param order   the byte order of the elements
 * @param dims    the grid's dimensions, x fastest
 * @param fortran whether z (in 2D: y) varies fastest in the file, x slowest
 * @param gzip    whether the data is a gzip stream
 */
record ArrayLayout(Path data, long offset, long skip, ArrayLayout.Type type, ByteOrder order, GridDims dims,
        boolean fortran, boolean gzip) {
    /** The element type, and how messages name the header field that gave it. */
    record Type(SampleType sample, long line, long byteOffset, String field) {
    }

    private static final int CHUNK_BYTES = 1 << 20;

    long dataBytes() {
        return Math.multiplyExact(dims.cellCount(), type.sample().bytes());
    }

    /**
     * Whether the file's bytes are a grid's cells as they lie: uncompressed, x fastest, uint8, or
     * uint16, int32 and float32 in the host's byte order (aligned), with no threshold to apply.
     */
    boolean mappable(GridReadOptions options) {
        return !gzip && !fortran && options.threshold().isEmpty() && asStored() && offset % type.sample().bytes() == 0;
    }

    /** Whether the samples are grid cells as they are stored: a grid's type, in the host's byte order. */
    private boolean asStored() {
        return switch (type.sample()) {
            case U1 -> true;
            case U2, I4, F4 -> order == ByteOrder.nativeOrder();
            default -> false;
        };
    }

    /** A read-only grid over the mapped cells; {@link #mappable} must hold. */
    Grid map(Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(data, StandardOpenOption.READ)) {
            MemorySegment cells = channel.map(FileChannel.MapMode.READ_ONLY, offset, dataBytes(), arena);
            return Grid.wrap(cells, type.sample().cellType(), dims.width(), dims.height(), dims.depth());
        }
    }

    /** Reads the cells into a new grid, chunk by chunk: the file is never held whole beside the grid. */
    Grid read(GridReadOptions options, Arena arena) throws IOException {
        SampleType sample = type.sample();
        OptionalInt threshold = options.threshold();
        CellSink sink = new CellSink(arena, dims, sample.cellType(), threshold);
        long count = dims.cellCount();
        int size = sample.bytes();
        // the file's bytes are the cells: copied as they are
        boolean direct = !fortran && threshold.isEmpty() && asStored();
        byte[] chunk = new byte[CHUNK_BYTES];
        ByteBuffer buffer = ByteBuffer.wrap(chunk).order(order);
        MemorySegment cells = sink.grid().cells();
        long start = gzip ? skip : offset;
        try (InputStream in = open()) {
            for (long k = 0; k < count; ) {
                int n = (int) Math.min(CHUNK_BYTES / size, count - k);
                int got = in.readNBytes(chunk, 0, n * size);
                if (got < n * size) {
                    throw new ImageFormatException(data, -1, start + k * size + got, "the data ends after "
                            + (k * size + got) + " of the " + dataBytes() + " bytes of a " + dims + " grid of "
                            + sample.title() + " cells" + (gzip ? " (decompressed)" : "") + ": it is truncated");
                }
                if (direct) {
                    MemorySegment.copy(MemorySegment.ofArray(chunk), 0, cells, k * size, (long) n * size);
                } else {
                    decode(buffer, n, k, start, sink);
                }
                k += n;
            }
        } catch (ZipException | EOFException e) {
            throw new ImageFormatException(data, -1, -1, "the gzip-compressed data is "
                    + (e instanceof EOFException ? "truncated" : "damaged") + " (" + e.getMessage() + ")", e);
        }
        return sink.grid();
    }

    private void decode(ByteBuffer buffer, int n, long first, long start, CellSink sink)
            throws ImageFormatException {
        SampleType sample = type.sample();
        for (int j = 0; j < n; j++) {
            long k = first + j;
            long index = fortran ? cIndex(k) : k;
            int at = j * sample.bytes();
            switch (sample) {
                case U1 -> sink.put(index, buffer.get(at) & 0xFF);
                case I1 -> sink.put(index, buffer.get(at));
                case U2 -> sink.put(index, buffer.getShort(at) & 0xFFFF);
                case I2 -> sink.put(index, buffer.getShort(at));
                case I4 -> sink.put(index, buffer.getInt(at));
                case U4 -> {
                    int value = buffer.getInt(at);
                    if (value < 0) {
                        throw new ImageFormatException(data, -1, start + k * 4, "uint32 value "
                                + Integer.toUnsignedString(value) + " is out of the int32 range of grid cells (at most "
                                + Integer.MAX_VALUE + ")");
                    }
                    sink.put(index, value);
                }
                case F4 -> sink.putFloat(index, buffer.getFloat(at));
                case I8 -> throw new AssertionError("int64 cells are never read");
            }
        }
    }

    /** The x-fastest index of element {@code k} of a file in Fortran order (z fastest, then y, then x). */
    private long cIndex(long k) {
        long depth = dims.depth();
        long height = dims.height();
        long z = k % depth;
        long rest = k / depth;
        long y = rest % height;
        long x = rest / height;
        return x + dims.width() * (y + height * z);
    }

    /** The data from its first cell. */
    private InputStream open() throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(data), 1 << 16);
        try {
            in.skipNBytes(offset);
            if (gzip) {
                in = new GZIPInputStream(in, 1 << 16);
                in.skipNBytes(skip);
            }
            return in;
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** The bytes from {@code offset} to the end of {@code data} must be the cells exactly. */
    void checkSize() throws IOException {
        if (gzip) {
            return;
        }
        long size = Files.size(data);
        long need = dataBytes();
        if (size - offset != need) {
            throw new ImageFormatException(data, -1, Math.min(size, offset + need),
                    "the cells of a " + dims + " grid of " + type.sample().title() + " are " + need
                    + " bytes from byte " + offset + ", the file has " + Math.max(0, size - offset)
                    + (size - offset < need ? ": it is truncated" : ": it has bytes after them"));
        }
    }
}
