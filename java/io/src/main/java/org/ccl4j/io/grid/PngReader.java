package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads PNG files with a decoder of its own, written from the PNG specification (W3C, third
 * edition): every colour type and bit depth, interlaced or not. Greyscale images (with or without
 * alpha, 1 to 16 bits) give their grey samples: uint8 up to 8 bits, uint16 for 16 bits. Palette and
 * colour images give, by {@link GridReadOptions.ColorMode}, the BT.601 luma of the 8-bit colour
 * (uint8) or the colour packed as {@code 0xRRGGBB} (int32); 16-bit colour channels are scaled to 8
 * bits as {@code round(v * 255 / 65535)}. Alpha, transparency, gamma and colour profiles are
 * ignored: the values are the stored ones.
 *
 * <p>The reader is strict, and names the byte offset of every problem. A first pass over the
 * chunks checks their framing (lengths inside the file and at most 2^31-1, four-letter types), the
 * CRC of every critical chunk, their order (IHDR first and once, at most one PLTE and before the
 * image data, the IDAT chunks consecutive, IEND last and empty, no unknown critical chunk) and the
 * IHDR and PLTE fields. Only then, and only when the compressed data can hold the image (deflate
 * expands by at most 1032:1), is the grid allocated; the second pass inflates the IDAT data row by
 * row into it, and refuses corrupt or truncated zlib data, undefined filter types, palette indices
 * past the palette, and too little or too much image data; these are reported at the offset up to
 * which the compressed data had been read, so the damage lies at or before it. Ancillary chunks are
 * skipped unchecked (libpng only warns about their CRC) and bytes after IEND are ignored, as other
 * decoders do.
 */
final class PngReader {
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    /** A deflate stream expands by at most 1032:1: a 258-byte match in two bits. */
    private static final long MAX_DEFLATE_RATIO = 1032;
    private static final long MAX_CHUNK_LENGTH = Integer.MAX_VALUE;
    private static final int IHDR_LENGTH = 13;
    /** Length, type and CRC: the bytes of a chunk besides its data. */
    private static final int CHUNK_OVERHEAD = 12;
    private static final int IO_BYTES = 1 << 16;
    /** A row with its filter byte must fit a Java array, which a VM may keep a few entries short of 2^31-1. */
    private static final long MAX_ROW_BYTES = Integer.MAX_VALUE - 16;
    /** The Adam7 passes: first column, first row, column step, row step. */
    private static final int[][] ADAM7 = {
        {0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};

    private PngReader() {
    }

    /** The IHDR fields, already checked. */
    private record Header(int width, int height, int bitDepth, int colorType, boolean interlaced) {
        int channels() {
            return switch (colorType) {
                case 0, 3 -> 1;
                case 4 -> 2;
                case 2 -> 3;
                default -> 4;
            };
        }

        int bitsPerPixel() {
            return channels() * bitDepth;
        }

        /** The bytes of a row of {@code pixels} pixels, without its filter byte. */
        long rowBytes(long pixels) {
            return (pixels * bitsPerPixel() + 7) / 8;
        }

        /** The passes, {@code {x0, y0, dx, dy}} each: the seven of Adam7, or the whole image. */
        int[][] passes() {
            return interlaced ? ADAM7 : new int[][] {{0, 0, 1, 1}};
        }

        /** The bytes of the inflated image data: each row of each pass with its filter byte. */
        long imageBytes() {
            long total = 0;
            for (int[] p : passes()) {
                long pixels = span(width, p[0], p[2]);
                // An empty pass has no rows, not even filter bytes.
                total += pixels == 0 ? 0 : span(height, p[1], p[3]) * (1 + rowBytes(pixels));
            }
            return total;
        }
    }

    /** The number of positions {@code first, first + step, ...} below {@code size} ({@code first < step}). */
    private static long span(int size, int first, int step) {
        return ((long) size - first + step - 1) / step;
    }

    /** What the pass over the chunks found: the header, the palette (or null), the run of IDAT chunks. */
    private record Layout(Header header, int[] palette, long firstIdat, long idatEnd, long idatBytes) {
    }

    /**
     * Reads the PNG in {@code data}.
     *
     * @param content the file to read (a temporary copy for streams and compressed files)
     * @param file    how errors name it
     */
    static Grid read(Path content, Path file, GridReadOptions options, Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(content, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                throw new ImageFormatException(file, -1, -1, "the file is empty");
            }
            Layout layout = new ChunkWalk(file, channel, size).walk();
            Header h = layout.header();
            if ((long) h.width() * h.height() > Integer.MAX_VALUE) {
                throw new ImageFormatException(file, -1, 16, "the image is " + h.width() + "x" + h.height()
                        + ", more than the " + Integer.MAX_VALUE + " cells a PNG is read into; larger grids are read"
                        + " from raw files");
            }
            long imageBytes = h.imageBytes();
            if (imageBytes > MAX_DEFLATE_RATIO * layout.idatBytes()) {
                throw new ImageFormatException(file, -1, layout.firstIdat(), "truncated or damaged: a " + h.width()
                        + "x" + h.height() + " image needs " + imageBytes + " bytes of image data, more than the "
                        + layout.idatBytes() + " bytes of its IDAT chunks can hold");
            }
            if (h.rowBytes(h.width()) > MAX_ROW_BYTES) {
                throw new ImageFormatException(file, -1, 16, "rows of " + h.rowBytes(h.width())
                        + " bytes are beyond this reader (the most is " + MAX_ROW_BYTES + ")");
            }
            GridDims dims = new GridDims(h.width(), h.height(), 1);
            GridReader.checkDims(file, dims, options);
            boolean grey = h.colorType() == 0 || h.colorType() == 4;
            boolean packed = options.color() == GridReadOptions.ColorMode.RGB;
            Grid.CellType natural = grey ? (h.bitDepth() == 16 ? Grid.CellType.U16 : Grid.CellType.U8)
                    : packed ? Grid.CellType.I32 : Grid.CellType.U8;
            CellSink sink = new CellSink(arena, dims, natural, options.threshold());
            try (ImageData data = new ImageData(file, channel, layout, imageBytes)) {
                decode(data, layout, packed, sink);
                data.finish();
            }
            return sink.grid();
        }
    }

    // ---- the chunks ------------------------------------------------------------------------------

    /**
     * One pass over the chunks from the signature to IEND, checking their framing, the CRC of the
     * critical ones, their order and the IHDR and PLTE fields (see the class comment).
     */
    private static final class ChunkWalk {
        private final Path file;
        private final long size;
        private final InputStream in;
        private final byte[] chunkHeader = new byte[8];
        private final byte[] buffer = new byte[IO_BYTES];
        private final CRC32 crc = new CRC32();
        private Header header;
        private int[] palette;
        private long paletteAt = -1;
        private long firstIdat = -1;
        /** The offset of the first chunk after the IDAT run, once one follows it. */
        private long idatEnd = -1;
        private long idatBytes;
        /** The chunk before the current one, as in {@code chunk IDAT at byte 33}. */
        private String previous;

        ChunkWalk(Path file, FileChannel channel, long size) throws IOException {
            this.file = file;
            this.size = size;
            // Not closed here: closing it would close the channel, which the caller owns.
            this.in = new BufferedInputStream(Channels.newInputStream(channel.position(0)), IO_BYTES);
        }

        Layout walk() throws IOException {
            checkSignature();
            long at = SIGNATURE.length;
            while (true) {
                if (at == size) {
                    throw new ImageFormatException(file, -1, at, "truncated PNG file: it ends after " + previous
                            + ", before the IEND chunk");
                }
                if (size - at < chunkHeader.length) {
                    throw new ImageFormatException(file, -1, at, "truncated PNG file: it ends inside the header of the "
                            + "chunk at byte " + at);
                }
                readFully(chunkHeader, chunkHeader.length, at);
                long length = Integer.toUnsignedLong(ByteBuffer.wrap(chunkHeader).getInt(0));
                String type = new String(chunkHeader, 4, 4, StandardCharsets.ISO_8859_1);
                if (!type.chars().allMatch(c -> c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')) {
                    throw new ImageFormatException(file, -1, at + 4, "damaged PNG file: the chunk type at byte "
                            + (at + 4) + " is " + HexFormat.of().formatHex(chunkHeader, 4, 8) + " (hex), not four letters");
                }
                String chunk = "chunk " + type + " at byte " + at;
                if (length > MAX_CHUNK_LENGTH) {
                    throw new ImageFormatException(file, -1, at, chunk + ": length " + length
                            + " is more than PNG allows (2^31-1)");
                }
                if (at + CHUNK_OVERHEAD + length > size) {
                    throw new ImageFormatException(file, -1, at, "truncated PNG file: " + chunk + " declares " + length
                            + " data bytes, the file ends " + (size - at - chunkHeader.length) + " bytes after its header");
                }
                checkPlace(type, chunk, at, length);
                long dataAt = at + chunkHeader.length;
                byte[] fields = readData(type, chunk, dataAt, length);
                switch (type) {
                    case "IHDR" -> header = header(file, fields, dataAt);
                    case "PLTE" -> {
                        paletteAt = at;
                        palette = new int[fields.length / 3];
                        for (int i = 0; i < palette.length; i++) {
                            palette[i] = (fields[3 * i] & 0xFF) << 16 | (fields[3 * i + 1] & 0xFF) << 8
                                    | fields[3 * i + 2] & 0xFF;
                        }
                    }
                    case "IDAT" -> idatBytes += length;
                    case "IEND" -> {
                        // Colour images may carry a suggested palette: only palette images use one.
                        return new Layout(header, header.colorType() == 3 ? palette : null, firstIdat, idatEnd,
                                idatBytes);
                    }
                    default -> {
                        // an ancillary chunk: nothing in it changes the cells
                    }
                }
                previous = chunk;
                at = dataAt + length + 4;
            }
        }

        private void checkSignature() throws IOException {
            byte[] signature = in.readNBytes(SIGNATURE.length);
            for (int i = 0; i < signature.length; i++) {
                if (signature[i] != SIGNATURE[i]) {
                    throw new ImageFormatException(file, -1, i, i == 0 ? "not a PNG file: it does not start with the "
                            + "PNG signature" : String.format(Locale.ROOT, "damaged PNG signature: byte %d is 0x%02x, "
                            + "the signature has 0x%02x there", i, signature[i], SIGNATURE[i]));
                }
            }
            if (signature.length < SIGNATURE.length) {
                throw new ImageFormatException(file, -1, size, "truncated: the file is " + size
                        + " bytes, shorter than the 8-byte PNG signature");
            }
        }

        /** Checks, before its data is read, that chunk {@code type} may come where it is. */
        private void checkPlace(String type, String chunk, long at, long length) throws ImageFormatException {
            if (header == null && !type.equals("IHDR")) {
                throw new ImageFormatException(file, -1, at, "damaged PNG file: the first chunk is " + type
                        + ", not IHDR");
            }
            if (firstIdat >= 0 && idatEnd < 0 && !type.equals("IDAT")) {
                idatEnd = at;
            }
            String problem = switch (type) {
                case "IHDR" -> header != null ? "a second IHDR (the first is at byte 8)"
                        : length != IHDR_LENGTH ? length + " data bytes, IHDR has " + IHDR_LENGTH : null;
                case "PLTE" -> paletteAt >= 0 ? "a second PLTE (the first is at byte " + paletteAt + ")"
                        : firstIdat >= 0 ? "after the image data (IDAT at byte " + firstIdat + "): PLTE must come first"
                        : header.colorType() == 0 || header.colorType() == 4 ? "a palette in a greyscale image (colour "
                                + "type " + header.colorType() + ")"
                        : length % 3 != 0 || length == 0 || length > 3 * 256 ? length + " data bytes, not 1 to 256 "
                                + "RGB entries of 3 bytes"
                        : header.colorType() == 3 && length / 3 > 1 << header.bitDepth() ? length / 3 + " entries, more "
                                + "than the " + (1 << header.bitDepth()) + " that " + header.bitDepth()
                                + "-bit indices reach"
                        : null;
                case "IDAT" -> idatEnd >= 0 ? "after " + previous + ": the IDAT chunks must be consecutive (the first "
                                + "is at byte " + firstIdat + ")"
                        : header.colorType() == 3 && paletteAt < 0 ? "before any PLTE chunk: a palette image (colour "
                                + "type 3) needs its palette first"
                        : null;
                case "IEND" -> firstIdat < 0 ? "before any IDAT chunk: the image has no data"
                        : length != 0 ? length + " data bytes, IEND has none" : null;
                default -> Character.isUpperCase(type.charAt(0)) ? "an unknown critical chunk: the image cannot be "
                        + "decoded without it" : null;
            };
            if (problem != null) {
                throw new ImageFormatException(file, -1, at, chunk + ": " + problem);
            }
            if (type.equals("IDAT") && firstIdat < 0) {
                firstIdat = at;
            }
        }

        /**
         * Reads the data and the CRC of a chunk, checking the CRC when the chunk is critical;
         * returns the data of IHDR and PLTE, null for the others.
         */
        private byte[] readData(String type, String chunk, long dataAt, long length) throws IOException {
            boolean critical = Character.isUpperCase(type.charAt(0));
            byte[] fields = type.equals("IHDR") || type.equals("PLTE") ? new byte[(int) length] : null;
            crc.reset();
            crc.update(chunkHeader, 4, 4);
            if (fields != null) {
                readFully(fields, fields.length, dataAt);
                crc.update(fields);
            } else if (critical) {
                for (long left = length; left > 0; ) {
                    int n = (int) Math.min(buffer.length, left);
                    readFully(buffer, n, dataAt + length - left);
                    crc.update(buffer, 0, n);
                    left -= n;
                }
            } else {
                in.skipNBytes(length);
            }
            readFully(chunkHeader, 4, dataAt + length);
            long stored = Integer.toUnsignedLong(ByteBuffer.wrap(chunkHeader).getInt(0));
            if (critical && stored != crc.getValue()) {
                throw new ImageFormatException(file, -1, dataAt + length, String.format(Locale.ROOT,
                        "%s: CRC 0x%08x, computed 0x%08x: the chunk is damaged", chunk, stored, crc.getValue()));
            }
            return fields;
        }

        private void readFully(byte[] into, int n, long at) throws IOException {
            if (in.readNBytes(into, 0, n) < n) {
                throw new ImageFormatException(file, -1, at, "the file shrank while being read");
            }
        }
    }

    /** The IHDR fields, each checked against the specification, at {@code at} (the chunk's data). */
    private static Header header(Path file, byte[] fields, long at) throws ImageFormatException {
        ByteBuffer b = ByteBuffer.wrap(fields);
        long width = Integer.toUnsignedLong(b.getInt(0));
        long height = Integer.toUnsignedLong(b.getInt(4));
        int bitDepth = fields[8] & 0xFF;
        int colorType = fields[9] & 0xFF;
        String ihdr = "chunk IHDR at byte " + (at - 8) + ": ";
        if (width == 0 || width > Integer.MAX_VALUE) {
            throw new ImageFormatException(file, -1, at, ihdr + "width " + width + " is out of range 1..2^31-1");
        }
        if (height == 0 || height > Integer.MAX_VALUE) {
            throw new ImageFormatException(file, -1, at + 4, ihdr + "height " + height + " is out of range 1..2^31-1");
        }
        if (colorType > 6 || colorType == 1 || colorType == 5) {
            throw new ImageFormatException(file, -1, at + 9, ihdr + "colour type " + colorType
                    + " is not one of 0, 2, 3, 4, 6");
        }
        // Greyscale and palette pixels may be smaller than a byte, palette indices at most 8 bits.
        boolean small = bitDepth == 1 || bitDepth == 2 || bitDepth == 4;
        boolean allowed = switch (colorType) {
            case 0 -> small || bitDepth == 8 || bitDepth == 16;
            case 3 -> small || bitDepth == 8;
            default -> bitDepth == 8 || bitDepth == 16;
        };
        String depths = switch (colorType) {
            case 0 -> "1, 2, 4, 8, 16";
            case 3 -> "1, 2, 4, 8";
            default -> "8, 16";
        };
        if (!allowed) {
            throw new ImageFormatException(file, -1, at + 8, ihdr + "bit depth " + bitDepth + " is not allowed for "
                    + "colour type " + colorType + " (allowed: " + depths + ")");
        }
        String[] methods = {"compression", "filter", "interlace"};
        for (int i = 0; i < 3; i++) {
            int method = fields[10 + i] & 0xFF;
            if (method != 0 && !(i == 2 && method == 1)) {
                throw new ImageFormatException(file, -1, at + 10 + i, ihdr + methods[i] + " method " + method
                        + " is not defined (" + (i == 2 ? "0 or 1" : "0") + ")");
            }
        }
        return new Header((int) width, (int) height, bitDepth, colorType, fields[12] == 1);
    }

    // ---- the image data --------------------------------------------------------------------------

    /** Inflates the rows of every pass, undoes their filters and stores their pixels. */
    private static void decode(ImageData data, Layout layout, boolean packed, CellSink sink) throws IOException {
        Header h = layout.header();
        int bytesPerPixel = Math.max(1, h.bitsPerPixel() / 8);
        byte[] row = new byte[(int) h.rowBytes(h.width()) + 1];
        byte[] prior = new byte[row.length];
        int[][] passes = h.passes();
        for (int pass = 0; pass < passes.length; pass++) {
            int[] p = passes[pass];
            int pixels = (int) span(h.width(), p[0], p[2]);
            int length = (int) h.rowBytes(pixels);
            int rows = (int) span(h.height(), p[1], p[3]);
            if (pixels == 0) {
                continue;
            }
            // The row before a pass's first row counts as zeros.
            Arrays.fill(prior, 0, length + 1, (byte) 0);
            for (int r = 0; r < rows; r++) {
                data.readFully(row, length + 1);
                int filter = row[0];
                if (filter < 0 || filter > 4) {
                    throw data.error((h.interlaced() ? "pass " + (pass + 1) + ", " : "") + "row " + r
                            + " has filter type " + (filter & 0xFF) + " (0 to 4 are defined)");
                }
                unfilter(filter, row, prior, length, bytesPerPixel);
                int y = p[1] + r * p[3];
                for (int i = 0; i < pixels; i++) {
                    int x = p[0] + i * p[2];
                    sink.put(y * h.width() + x, pixel(data, layout, row, i, x, y, packed));
                }
                byte[] swap = prior;
                prior = row;
                row = swap;
            }
        }
    }

    /** Undoes filter {@code filter} on {@code row[1..length]}, given the unfiltered prior row. */
    private static void unfilter(int filter, byte[] row, byte[] prior, int length, int bpp) {
        switch (filter) {
            case 1 -> {
                for (int i = 1 + bpp; i <= length; i++) {
                    row[i] += row[i - bpp];
                }
            }
            case 2 -> {
                for (int i = 1; i <= length; i++) {
                    row[i] += prior[i];
                }
            }
            case 3 -> {
                for (int i = 1; i <= length; i++) {
                    int left = i > bpp ? row[i - bpp] & 0xFF : 0;
                    row[i] += (byte) ((left + (prior[i] & 0xFF)) >>> 1);
                }
            }
            case 4 -> {
                for (int i = 1; i <= length; i++) {
                    int a = i > bpp ? row[i - bpp] & 0xFF : 0;
                    int b = prior[i] & 0xFF;
                    int c = i > bpp ? prior[i - bpp] & 0xFF : 0;
                    row[i] += (byte) paeth(a, b, c);
                }
            }
            default -> {
                // filter type 0: the bytes are stored as they are
            }
        }
    }

    private static int paeth(int a, int b, int c) {
        int p = a + b - c;
        int pa = Math.abs(p - a);
        int pb = Math.abs(p - b);
        int pc = Math.abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }

    /** The cell value of pixel {@code i} of an unfiltered row (its data from {@code row[1]}). */
    private static int pixel(ImageData data, Layout layout, byte[] row, int i, int x, int y, boolean packed)
            throws ImageFormatException {
        Header h = layout.header();
        int depth = h.bitDepth();
        if (depth < 8) {
            // Only greyscale and palette images have pixels smaller than a byte: one sample each.
            int bit = i * depth;
            int value = (row[1 + (bit >>> 3)] & 0xFF) >>> (8 - depth - (bit & 7)) & (1 << depth) - 1;
            return h.colorType() == 0 ? value : colour(paletteEntry(data, layout, value, x, y), packed);
        }
        int first = 1 + i * h.channels() * (depth / 8);
        return switch (h.colorType()) {
            case 0, 4 -> sample(row, first, depth);
            case 3 -> colour(paletteEntry(data, layout, row[first] & 0xFF, x, y), packed);
            default -> colour(eightBits(sample(row, first, depth), depth) << 16
                    | eightBits(sample(row, first + depth / 8, depth), depth) << 8
                    | eightBits(sample(row, first + 2 * depth / 8, depth), depth), packed);
        };
    }

    private static int sample(byte[] row, int at, int depth) {
        return depth == 8 ? row[at] & 0xFF : (row[at] & 0xFF) << 8 | row[at + 1] & 0xFF;
    }

    /** A channel scaled to 8 bits, rounding: {@code round(v * 255 / 65535)} for 16-bit channels. */
    private static int eightBits(int value, int depth) {
        return depth == 8 ? value : (value * 255 + 32767) / 65535;
    }

    private static int paletteEntry(ImageData data, Layout layout, int index, int x, int y)
            throws ImageFormatException {
        int[] palette = layout.palette();
        if (index >= palette.length) {
            throw data.error("pixel (" + x + ", " + y + ") has palette index " + index + ", past the "
                    + palette.length + " entries of the palette");
        }
        return palette[index];
    }

    private static int colour(int rgb, boolean packed) {
        return packed ? rgb : luma(rgb);
    }

    /** BT.601 luma of an sRGB colour, 0..255, rounded as in common imaging libraries. */
    static int luma(int rgb) {
        int r = rgb >> 16 & 0xFF;
        int g = rgb >> 8 & 0xFF;
        int b = rgb & 0xFF;
        return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;
    }

    /**
     * The zlib stream in the data of the consecutive IDAT chunks, inflated. It knows the file offset
     * of the compressed byte it has read up to, which names problems found in the inflated data:
     * the damage lies at or before it.
     */
    private static final class ImageData implements AutoCloseable {
        private final Path file;
        private final FileChannel channel;
        private final long imageBytes;
        private final Inflater inflater = new Inflater();
        private final long idatEnd;
        private final long idatBytes;
        private final ByteBuffer chunkHeader = ByteBuffer.allocate(8);
        private final ByteBuffer input = ByteBuffer.allocateDirect(IO_BYTES);
        private final byte[] output = new byte[IO_BYTES];
        private int outputPosition;
        private int outputLimit;
        /** The file offset of the next chunk header, data byte or CRC to read. */
        private long position;
        /** Data bytes of the current IDAT chunk not read yet. */
        private long chunkLeft;
        /** The file offset of {@code input}'s first byte. */
        private long inputAt;

        ImageData(Path file, FileChannel channel, Layout layout, long imageBytes) {
            this.file = file;
            this.channel = channel;
            this.imageBytes = imageBytes;
            this.idatEnd = layout.idatEnd();
            this.idatBytes = layout.idatBytes();
            this.position = layout.firstIdat();
            this.inputAt = position;
            input.limit(0);
        }

        /** Reads the next {@code n} inflated bytes into {@code into}. */
        void readFully(byte[] into, int n) throws ImageFormatException, IOException {
            int done = 0;
            while (done < n) {
                if (outputPosition == outputLimit) {
                    outputLimit = inflate(output);
                    outputPosition = 0;
                    if (outputLimit == 0) {
                        throw error("too little image data: the zlib stream ends after " + inflater.getBytesWritten()
                                + " of the " + imageBytes + " bytes that the image needs");
                    }
                }
                int take = Math.min(n - done, outputLimit - outputPosition);
                System.arraycopy(output, outputPosition, into, done, take);
                outputPosition += take;
                done += take;
            }
        }

        /** Checks that the zlib stream ends with the image, checksum included, and no data follows it. */
        void finish() throws IOException {
            if (outputPosition < outputLimit || inflate(output) > 0) {
                throw error("too much image data: the zlib stream holds more than the " + imageBytes
                        + " bytes that the image needs");
            }
            long trailing = idatBytes - inflater.getBytesRead();
            if (trailing > 0) {
                throw error(trailing + " bytes of IDAT data follow the end of the zlib stream");
            }
        }

        /**
         * Inflates into {@code into}; 0 only at the end of the zlib stream (checksum checked).
         *
         * @throws ImageFormatException when the stream is corrupt or the IDAT data ends inside it
         */
        private int inflate(byte[] into) throws IOException {
            try {
                while (true) {
                    int n = inflater.inflate(into);
                    if (n > 0 || inflater.finished()) {
                        return n;
                    }
                    if (inflater.needsDictionary()) {
                        throw error("corrupt zlib data: the stream asks for a preset dictionary, which PNG forbids");
                    }
                    if (!refill()) {
                        long written = inflater.getBytesWritten();
                        throw error("truncated zlib data: the IDAT data ends inside the compressed stream, "
                                + (written < imageBytes ? "after " + written + " of the " + imageBytes + " image bytes"
                                : "before its end and checksum"));
                    }
                }
            } catch (DataFormatException e) {
                throw new ImageFormatException(file, -1, consumedUpTo(), "corrupt zlib data in the IDAT chunks: "
                        + (e.getMessage() == null ? "invalid deflate stream" : e.getMessage()), e);
            }
        }

        /** Gives the inflater the next bytes of IDAT data; false when there are none. */
        private boolean refill() throws IOException {
            while (chunkLeft == 0) {
                if (position == idatEnd) {
                    return false;
                }
                nextChunk();
            }
            input.clear().limit((int) Math.min(input.capacity(), chunkLeft));
            inputAt = position;
            while (input.hasRemaining()) {
                if (channel.read(input, inputAt + input.position()) < 0) {
                    throw new ImageFormatException(file, -1, inputAt + input.position(),
                            "the file shrank while being read");
                }
            }
            input.flip();
            position += input.remaining();
            chunkLeft -= input.remaining();
            if (chunkLeft == 0) {
                position += 4; // the CRC, checked in the first pass
            }
            inflater.setInput(input);
            return true;
        }

        /** Moves to the data of the IDAT chunk at {@code position} (the first pass vouched for it). */
        private void nextChunk() throws IOException {
            chunkHeader.clear();
            while (chunkHeader.hasRemaining()) {
                if (channel.read(chunkHeader, position + chunkHeader.position()) < 0) {
                    throw new ImageFormatException(file, -1, position, "the file shrank while being read");
                }
            }
            chunkLeft = Integer.toUnsignedLong(chunkHeader.getInt(0));
            position += chunkHeader.capacity();
            if (chunkLeft == 0) {
                position += 4;
            }
        }

        /** The file offset of the next compressed byte the inflater would read. */
        private long consumedUpTo() {
            return inputAt + input.limit() - inflater.getRemaining();
        }

        ImageFormatException error(String reason) {
            return new ImageFormatException(file, -1, consumedUpTo(), "IDAT data: " + reason);
        }

        @Override
        public void close() {
            inflater.end();
        }
    }
}
