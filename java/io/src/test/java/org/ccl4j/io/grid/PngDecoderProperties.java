package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;

/**
 * The PNG decoder on images of every colour type, bit depth and interlace, with every filter type:
 * the cells are the samples the file was built from, and the values {@code javax.imageio} (which
 * the reader used before it had its own decoder) gives for the same file.
 */
class PngDecoderProperties {
    /** Every colour type with every bit depth the specification allows for it. */
    private static final int[][] TYPES = {
        {0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {2, 8}, {2, 16}, {3, 1}, {3, 2}, {3, 4}, {3, 8},
        {4, 8}, {4, 16}, {6, 8}, {6, 16}};

    @Provide
    Arbitrary<int[]> types() {
        return Arbitraries.of(TYPES);
    }

    @Property(tries = 150)
    void cellsAreTheSamplesAndAgreeWithImageIo(@ForAll("types") int[] type, @ForAll @IntRange(min = 1, max = 19) int width,
            @ForAll @IntRange(min = 1, max = 19) int height, @ForAll boolean interlaced, @ForAll boolean packed,
            @ForAll long seed) throws IOException {
        int colorType = type[0];
        int bitDepth = type[1];
        SplittableRandom random = new SplittableRandom(seed);
        int channels = PngBytes.channels(colorType);
        int[] palette = null;
        int sampleBound = 1 << bitDepth;
        if (colorType == 3) {
            palette = random.ints(1 + random.nextInt(sampleBound), 0, 1 << 24).toArray();
            sampleBound = palette.length;
        }
        int[] samples = random.ints((long) width * height * channels, 0, sampleBound).toArray();
        byte[] data = PngBytes.zlib(PngBytes.imageData(width, height, bitDepth, colorType, interlaced, samples, random));
        byte[] header = PngBytes.ihdr(width, height, bitDepth, colorType, interlaced ? 1 : 0);
        byte[] png = palette == null ? PngBytes.png(header, PngBytes.chunk("IDAT", data), PngBytes.iend())
                : PngBytes.png(header, PngBytes.plte(palette), PngBytes.chunk("IDAT", data), PngBytes.iend());
        Path file = Files.createTempFile("decoder", ".png");
        try (Arena arena = Arena.ofConfined()) {
            Files.write(file, png);
            GridReadOptions options = GridReadOptions.defaults()
                    .withColor(packed ? GridReadOptions.ColorMode.RGB : GridReadOptions.ColorMode.LUMINANCE);
            Grid g = GridReader.read(file, options, arena);
            BufferedImage image = ImageIO.read(file.toFile());
            boolean grey = colorType == 0 || colorType == 4;
            assertEquals(new GridDims(width, height, 1), GridDims.of(g));
            assertEquals(grey ? (bitDepth == 16 ? Grid.CellType.U16 : Grid.CellType.U8)
                    : packed ? Grid.CellType.I32 : Grid.CellType.U8, g.type());
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    int at = (y * width + x) * channels;
                    int rgb = switch (colorType) {
                        case 3 -> palette[samples[at]];
                        case 2, 6 -> eightBits(samples[at], bitDepth) << 16 | eightBits(samples[at + 1], bitDepth) << 8
                                | eightBits(samples[at + 2], bitDepth);
                        default -> -1;
                    };
                    int expected = grey ? samples[at] : packed ? rgb : PngReader.luma(rgb);
                    int fromImageIo = grey ? image.getRaster().getSample(x, y, 0)
                            : packed ? image.getRGB(x, y) & 0xFFFFFF : PngReader.luma(image.getRGB(x, y));
                    String where = "pixel " + x + "," + y;
                    assertEquals(expected, g.get(x, y, 0), where);
                    assertEquals(expected, fromImageIo, where + " as ImageIO decodes it");
                }
            }
        } finally {
            Files.delete(file);
        }
    }

    /** A 16-bit channel to 8 bits, as ImageIO's colour model rounds it. */
    private static int eightBits(int value, int bitDepth) {
        return bitDepth == 8 ? value : (int) Math.round(value * 255.0 / 65535);
    }
}
