package org.ccl4j.io.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ccl4j.Grid;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabelImageWriterTest {
    @TempDir
    Path dir;

    @Test
    void backgroundIsBlackAndClustersAreBright() {
        assertEquals(0, LabelImageWriter.color(-1));
        assertEquals(0, LabelImageWriter.color(Integer.MIN_VALUE));
        Set<Integer> colours = new HashSet<>();
        for (int label = 0; label < 100_000; label++) {
            int rgb = LabelImageWriter.color(label);
            int brightest = Math.max(rgb >> 16 & 0xFF, Math.max(rgb >> 8 & 0xFF, rgb & 0xFF));
            assertTrue(brightest >= 191, "label " + label + " has the dim colour " + Integer.toHexString(rgb));
            assertEquals(rgb, LabelImageWriter.color(label), "deterministic");
            colours.add(rgb);
            if (label > 0) {
                assertNotEquals(LabelImageWriter.color(label - 1), rgb, "consecutive labels " + (label - 1) + ", " + label);
            }
        }
        // hashing to a few million bright colours: some exact repeats among 100000 labels are expected
        assertTrue(colours.size() > 95_000, colours.size() + " distinct colours for 100000 labels");
    }

    @Test
    void a2dPngShowsEveryLabelInItsColour() throws IOException {
        int[] labels = {-1, 0, 0, 3, -1, 5, 5, 3, 8, 8, -1, -1};
        Path file = dir.resolve("labels.png");
        assertEquals(List.of(file), LabelImageWriter.writePng(labels, 4, 3, 1, file));
        BufferedImage image = ImageIO.read(file.toFile());
        assertEquals(4, image.getWidth());
        assertEquals(3, image.getHeight());
        for (int i = 0; i < labels.length; i++) {
            assertEquals(LabelImageWriter.color(labels[i]), image.getRGB(i % 4, i / 4) & 0xFFFFFF, "cell " + i);
        }
        // 8-bit RGB by the specification, not interlaced, readable without javax.imageio
        PngSpec.Image png = PngSpec.decode(file);
        assertEquals(2, png.colorType());
        assertEquals(8, png.bitDepth());
        for (int i = 0; i < labels.length; i++) {
            int rgb = LabelImageWriter.color(labels[i]);
            for (int c = 0; c < 3; c++) {
                assertEquals(rgb >> (16 - 8 * c) & 0xFF, png.sample(i % 4, i / 4, c), "cell " + i + ", channel " + c);
            }
        }
        // and by the library's own reader, as packed colours
        try (Arena arena = Arena.ofConfined()) {
            Grid back = GridReader.read(file, GridReadOptions.defaults().withColor(GridReadOptions.ColorMode.RGB), arena);
            for (int i = 0; i < labels.length; i++) {
                assertEquals(LabelImageWriter.color(labels[i]), back.get(i), "cell " + i);
            }
        }
    }

    @Test
    void volumesGiveOnePngPerSlice() throws IOException {
        int w = 5;
        int h = 3;
        int d = 12;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment labels = arena.allocate(ValueLayout.JAVA_INT, (long) w * h * d);
            for (int i = 0; i < w * h * d; i++) {
                labels.setAtIndex(ValueLayout.JAVA_INT, i, i % 7 == 0 ? -1 : i / 4);
            }
            Path file = dir.resolve("vol.png");
            List<Path> slices = LabelImageWriter.writePng(labels, w, h, d, file);
            assertEquals(d, slices.size());
            assertEquals(dir.resolve("vol-z00.png"), slices.get(0));
            assertEquals(dir.resolve("vol-z11.png"), slices.get(11));
            for (int z = 0; z < d; z++) {
                BufferedImage image = ImageIO.read(slices.get(z).toFile());
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        int label = labels.getAtIndex(ValueLayout.JAVA_INT, x + w * (y + h * z));
                        assertEquals(LabelImageWriter.color(label), image.getRGB(x, y) & 0xFFFFFF);
                    }
                }
            }
            Path one = dir.resolve("slice7.png");
            LabelImageWriter.writePngSlice(labels, w, h, d, 7, one);
            assertEquals(-1, Files.mismatch(one, slices.get(7)));
            assertThrows(IndexOutOfBoundsException.class, () -> LabelImageWriter.writePngSlice(labels, w, h, d, 12, one));
            assertThrows(IllegalArgumentException.class, () -> LabelImageWriter.writePng(labels, w, h, d + 1, file));
        }
        assertEquals(Path.of("out-z000.png"), LabelImageWriter.slicePath(Path.of("out.png"), 0, 1000));
        assertEquals(Path.of("out-z0000.png"), LabelImageWriter.slicePath(Path.of("out.png"), 0, 1001));
        assertEquals(Path.of("a/out-z7.png"), LabelImageWriter.slicePath(Path.of("a/out"), 7, 8));
    }

    @Test
    void rawLabelsAreLittleEndianInt32() throws IOException {
        int[] labels = {-1, 0, 7, 7, 123456789, -1};
        Path file = dir.resolve("labels.bin");
        LabelImageWriter.writeRaw(labels, 3, 2, 1, file);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(4 * labels.length, bytes.capacity());
        for (int label : labels) {
            assertEquals(label, bytes.getInt());
        }
        assertThrows(IllegalArgumentException.class, () -> LabelImageWriter.writeRaw(labels, 4, 2, 1, file));
    }
}
