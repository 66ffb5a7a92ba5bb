package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import javax.imageio.IIOException;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.stream.ImageInputStream;
import org.ccl4j.io.GraphFormatException;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Reads PNG files through {@code javax.imageio}. Greyscale images (with or without alpha, 1 to 16
 * bits) give their grey samples: uint8 up to 8 bits, int32 for 16 bits. Palette and colour images
 * give, by {@link GridReadOptions.ColorMode}, the BT.601 luma of the 8-bit sRGB colour (uint8) or
 * the colour packed as {@code 0xRRGGBB} (int32); alpha is ignored.
 */
final class PngReader {
    /** Deflate cannot compress by more than about 1032:1; a larger claimed ratio means a damaged file. */
    private static final long MAX_DEFLATE_RATIO = 1100;

    private PngReader() {
    }

    static Grid read(Path file, GridReadOptions options, Arena arena) throws IOException {
        long size = Files.size(file);
        if (size == 0) {
            throw new GraphFormatException(file, -1, -1, "the file is empty");
        }
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
                throw new GraphFormatException(file, -1, 16, "the image is " + width + "x" + height
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
                throw new GraphFormatException(file, -1, size, "truncated or damaged: a " + width + "x" + height
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
            throw new GraphFormatException(file, -1, -1, "not a readable PNG file: " + describe(e), e);
        } catch (RuntimeException e) {
            if (e instanceof GraphFormatException g) {
                throw g;
            }
            // ImageIO's decoders report some kinds of damage as unchecked exceptions.
            throw new GraphFormatException(file, -1, -1, "damaged PNG file: " + describe(e), e);
        } finally {
            reader.dispose();
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
