package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.ccl4j.io.internal.Source;

/**
 * Reads raw cells: {@code width * height * depth} uint8 bytes or little-endian int32s, x fastest,
 * nothing else. The file size must match exactly.
 */
final class RawReader {
    private static final int CHUNK_BYTES = 1 << 20;

    private RawReader() {
    }

    /**
     * Reads the cells of {@code source}'s content.
     *
     * @param file how errors name it
     */
    static Grid read(Source source, Path file, GridReadOptions options, Arena arena) throws IOException {
        GridDims dims = options.dims();
        if (dims == null) {
            throw new IllegalArgumentException(file + ": a raw grid file needs its dimensions (WxH or WxHxD) and cell type");
        }
        Grid.CellType type = options.rawType();
        long need = Math.multiplyExact(dims.cellCount(), type.bytes());
        try (FileChannel channel = FileChannel.open(source.contentFile(), StandardOpenOption.READ)) {
            checkSize(file, channel.size(), need, dims, type);
            CellSink sink = new CellSink(arena, dims, type, options.threshold());
            boolean direct = options.threshold().isEmpty()
                    && (type == Grid.CellType.U8 || ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN);
            if (direct) {
                MemorySegment cells = sink.grid().cells();
                for (long at = 0; at < need; at += CHUNK_BYTES) {
                    fill(file, channel, cells.asSlice(at, Math.min(CHUNK_BYTES, need - at)).asByteBuffer(), at);
                }
            } else {
                ByteBuffer chunk = ByteBuffer.allocate(CHUNK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
                long index = 0;
                for (long at = 0; at < need; at += CHUNK_BYTES) {
                    chunk.clear().limit((int) Math.min(CHUNK_BYTES, need - at));
                    fill(file, channel, chunk, at);
                    chunk.flip();
                    while (chunk.hasRemaining()) {
                        switch (type) {
                            case U8 -> sink.put(index++, chunk.get() & 0xFF);
                            case U16 -> sink.put(index++, chunk.getShort() & 0xFFFF);
                            case I32 -> sink.put(index++, chunk.getInt());
                            case F32 -> sink.putFloat(index++, chunk.getFloat());
                        }
                    }
                }
            }
            return sink.grid();
        }
    }

    /** A read-only grid over the mapped cells of the raw file {@code file} (see {@link GridReader#map}). */
    static Grid map(Path file, GridReadOptions options, Arena arena) throws IOException {
        GridDims dims = options.dims();
        if (dims == null) {
            throw new IllegalArgumentException(file + ": a raw grid file needs its dimensions (WxH or WxHxD) and cell type");
        }
        if (options.threshold().isPresent()) {
            throw new IllegalArgumentException(file + ": a mapped grid is the file's cells as they are; a threshold"
                    + " needs the file read");
        }
        Grid.CellType type = options.rawType();
        if (type != Grid.CellType.U8 && ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalArgumentException(file + ": little-endian " + type + " cells cannot be mapped on this"
                    + " big-endian host; read them instead");
        }
        long need = Math.multiplyExact(dims.cellCount(), type.bytes());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            checkSize(file, channel.size(), need, dims, type);
            MemorySegment cells = channel.map(FileChannel.MapMode.READ_ONLY, 0, need, arena);
            return Grid.wrap(cells, type, dims.width(), dims.height(), dims.depth());
        }
    }

    /** The file's size must be the dimensions' cells exactly. */
    private static void checkSize(Path file, long size, long need, GridDims dims, Grid.CellType type)
            throws ImageFormatException {
        if (size != need) {
            throw new ImageFormatException(file, -1, Math.min(size, need), "the file is " + size + " bytes but a "
                    + dims + " grid of " + type.name().toLowerCase(Locale.ROOT) + " cells is " + need
                    + " bytes" + (size < need ? ": it is truncated or the dimensions are wrong"
                    : ": the dimensions or the cell type are wrong"));
        }
    }

    private static void fill(Path file, FileChannel channel, ByteBuffer target, long at) throws IOException {
        long position = at;
        while (target.hasRemaining()) {
            int n = channel.read(target, position);
            if (n < 0) {
                throw new ImageFormatException(file, -1, position, "the file ended while being read (it shrank)");
            }
            position += n;
        }
    }
}
