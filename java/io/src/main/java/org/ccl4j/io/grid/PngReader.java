package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Locale;
import java.util.zip.CRC32;
import javax.imageio.IIOException;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.stream.ImageInputStream;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Reads PNG files through {@code javax.imageio}. Greyscale images (with or without alpha, 1 to 16
 * bits) give their grey samples: uint8 up to 8 bits, int32 for 16 bits. Palette and colour images
 * give, by {@link GridReadOptions.ColorMode}, the BT.601 luma of the 8-bit sRGB colour (uint8) or
 * the colour packed as {@code 0xRRGGBB} (int32); alpha is ignored.
 *
 * <p>Before decoding, one pass over the chunks ({@link #checkChunks}) finds truncation and damage
 * with its byte offset; what the decoder then refuses is reported with its message, naming the file.
 * Every problem is an {@link ImageFormatException}.
 */
final class PngReader {
    /** Deflate cannot compress by more than about 1032:1; a larger claimed ratio means a damaged file. */
    private static final long MAX_DEFLATE_RATIO = 1100;
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    private PngReader() {
    }

    static Grid read(Path file, GridReadOptions options, Arena arena) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            throw new ImageFormatException(file, -1, -1, "the file is empty");
        }
        checkChunks(file, size);
        Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("png");
        if (!readers.hasNext()) {
            throw new IllegalStateException("this Java runtime has no PNG reader (module java.desktop)");
        }
        ImageReader reader = readers.next();
        try (ImageInputStream stream = ImageIO.createImageInputStream(file.toFile())) {
            reader.setInput(stream, true, false);
            int width = reader.getWidth(0);
            int height = reader.getHeight(0);
            Node header = ihdr(reader.getImageMetadata(0));
            String colorType = attribute(header, "colorType");
            int bitDepth = Integer.parseInt(attribute(header, "bitDepth"));
            boolean grey = colorType.startsWith("Gray");
            if ((long) width * height > Integer.MAX_VALUE) {
                throw new ImageFormatException(file, -1, 16, "the image is " + width + "x" + height
                        + ", more than the " + Integer.MAX_VALUE + " cells a grid holds");
            }
            long channels = switch (colorType) {
                case "GrayAlpha" -> 2;
                case "RGB" -> 3;
                case "RGBAlpha" -> 4;
                default -> 1;
            };
            long rawBytes = height * (1 + (width * channels * bitDepth + 7) / 8);
            if (rawBytes > MAX_DEFLATE_RATIO * size) {
                throw new ImageFormatException(file, -1, size, "truncated or damaged: a " + width + "x" + height
                        + " image cannot be compressed into " + size + " bytes");
            }
            GridDims dims = new GridDims(width, height, 1);
            GridReader.checkDims(file, dims, options);
            BufferedImage image = reader.read(0);
            Grid.CellType natural = grey ? (bitDepth > 8 ? Grid.CellType.I32 : Grid.CellType.U8)
                    : options.color() == GridReadOptions.ColorMode.RGB ? Grid.CellType.I32 : Grid.CellType.U8;
            CellSink sink = new CellSink(arena, dims, natural, options.threshold());
            int[] row = new int[width];
            Raster raster = image.getRaster();
            for (int y = 0; y < height; y++) {
                if (grey) {
                    raster.getSamples(0, y, width, 1, 0, row);
                } else {
                    image.getRGB(0, y, width, 1, row, 0, width);
                    for (int x = 0; x < width; x++) {
                        row[x] = options.color() == GridReadOptions.ColorMode.RGB ? row[x] & 0xFFFFFF : luma(row[x]);
                    }
                }
                for (int x = 0; x < width; x++) {
                    sink.put(y * width + x, row[x]);
                }
            }
            return sink.grid();
        } catch (IIOException e) {
            throw new ImageFormatException(file, -1, -1, "not a readable PNG file: " + describe(e), e);
        } catch (RuntimeException e) {
            // ImageIO's decoders report some kinds of damage as unchecked exceptions.
            throw new ImageFormatException(file, -1, -1, "damaged PNG file: " + describe(e), e);
        } finally {
            reader.dispose();
        }
    }

    /**
     * Walks the chunks from the signature to {@code IEND} and checks what {@code javax.imageio} does
     * not: that every chunk lies inside the file and that the CRC of every critical chunk (IHDR,
     * PLTE, IDAT, IEND) matches its bytes, as libpng requires. A problem is reported with the byte
     * offset of its chunk, so a damaged or truncated file is named precisely instead of decoding to
     * wrong pixels. Bytes after {@code IEND} are ignored, as other decoders do.
     */
    static void checkChunks(Path file, long size) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            byte[] signature = in.readNBytes(SIGNATURE.length);
            if (!Arrays.equals(signature, 0, signature.length, SIGNATURE, 0, signature.length)) {
                throw new ImageFormatException(file, -1, 0, "not a PNG file: it does not start with the PNG signature");
            }
            if (signature.length < SIGNATURE.length) {
                throw new ImageFormatException(file, -1, size, "truncated: the file is " + size
                        + " bytes, shorter than the 8-byte PNG signature");
            }
            long at = SIGNATURE.length;
            byte[] header = new byte[8];
            byte[] data = new byte[1 << 16];
            CRC32 crc = new CRC32();
            String previous = null;
            while (true) {
                int got = in.readNBytes(header, 0, header.length);
                if (got == 0 && previous != null) {
                    throw new ImageFormatException(file, -1, at, "truncated PNG file: it ends after chunk " + previous
                            + ", before the IEND chunk");
                }
                if (got < header.length) {
                    throw new ImageFormatException(file, -1, at, "truncated PNG file: it ends inside the header of the "
                            + "chunk at byte " + at);
                }
                long length = Integer.toUnsignedLong(ByteBuffer.wrap(header).getInt(0));
                String type = new String(header, 4, 4, StandardCharsets.ISO_8859_1);
                if (!type.chars().allMatch(c -> c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')) {
                    throw new ImageFormatException(file, -1, at + 4, "damaged PNG file: chunk type "
                            + HexFormat.of().formatHex(header, 4, 8) + " (hex) is not four letters");
                }
                if (previous == null && !type.equals("IHDR")) {
                    throw new ImageFormatException(file, -1, at + 4, "damaged PNG file: the first chunk is "
                            + type + ", not IHDR");
                }
                if (length > Integer.MAX_VALUE) {
                    throw new ImageFormatException(file, -1, at, "damaged PNG file: chunk " + type + " declares "
                            + length + " data bytes, more than PNG allows (2^31 - 1)");
                }
                if (at + 12 + length > size) {
                    throw new ImageFormatException(file, -1, at, "truncated PNG file: chunk " + type + " at byte " + at
                            + " declares " + length + " data bytes, the file ends " + (size - at - 8)
                            + " bytes after its header");
                }
                boolean critical = Character.isUpperCase(type.charAt(0));
                crc.reset();
                crc.update(header, 4, 4);
                for (long left = length; left > 0; ) {
                    int n = in.readNBytes(data, 0, (int) Math.min(data.length, left));
                    if (n == 0) {
                        throw new ImageFormatException(file, -1, at, "the file shrank while being read");
                    }
                    if (critical) {
                        crc.update(data, 0, n);
                    }
                    left -= n;
                }
                byte[] stored = in.readNBytes(4);
                if (stored.length < 4) {
                    throw new ImageFormatException(file, -1, at, "the file shrank while being read");
                }
                long expected = Integer.toUnsignedLong(ByteBuffer.wrap(stored).getInt());
                if (critical && expected != crc.getValue()) {
                    throw new ImageFormatException(file, -1, at + 8 + length, String.format(Locale.ROOT,
                            "damaged PNG file: the CRC of chunk %s at byte %d is %08x, its bytes give %08x",
                            type, at, expected, crc.getValue()));
                }
                if (type.equals("IEND")) {
                    return;
                }
                previous = type + " (at byte " + at + ")";
                at += 12 + length;
            }
        }
    }

    /** BT.601 luma of an sRGB colour, 0..255, rounded as in common imaging libraries. */
    static int luma(int rgb) {
        int r = rgb >> 16 & 0xFF;
        int g = rgb >> 8 & 0xFF;
        int b = rgb & 0xFF;
        return (19595 * r + 38470 * g + 7471 * b + 32768) >> 16;
    }

    private static Node ihdr(IIOMetadata metadata) {
        for (Node n = metadata.getAsTree("javax_imageio_png_1.0").getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeName().equals("IHDR")) {
                return n;
            }
        }
        throw new IllegalStateException("the PNG reader gave no IHDR metadata");
    }

    private static String attribute(Node node, String name) {
        NamedNodeMap attributes = node.getAttributes();
        Node value = attributes.getNamedItem(name);
        if (value == null) {
            throw new IllegalStateException("the PNG reader's IHDR metadata has no " + name);
        }
        return value.getNodeValue();
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null) {
                text.append(text.isEmpty() ? "" : ": ").append(t.getMessage());
            }
        }
        return text.isEmpty() ? e.getClass().getSimpleName() : text.toString();
    }
}
