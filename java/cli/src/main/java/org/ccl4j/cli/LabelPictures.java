package org.ccl4j.cli;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import javax.imageio.ImageIO;

import org.ccl4j.Grid;
import org.ccl4j.MeshLabels;
import org.ccl4j.io.grid.LabelImageWriter;

/**
 * A volume's labels in one PNG, in the colours of the per-slice pictures
 * ({@link LabelImageWriter#color(long)}, background black):
 * <ul>
 * <li>a montage ({@code --montage}): chosen z-slices side by side, row by row in the order given,
 *     as Fiji's Make Montage lays them out, {@value #GAP} grey pixels between them;</li>
 * <li>a projection ({@code --projection}): the cells' maximum-intensity projection along z in grey
 *     (the projection's smallest value black, its largest white), each pixel tinted half-and-half
 *     with the colour of the label of the cell that holds the maximum (the first along z on ties),
 *     as a labels layer over a MIP in napari or Fiji: for a binary volume the clusters as seen from
 *     z = 0, for grey cells the cluster of the brightest cell of each column.</li>
 * </ul>
 */
final class LabelPictures {
    static final int GAP = 2;
    private static final int GAP_RGB = 0x404040;
    /** Slices of a montage when --montage names none. */
    static final int DEFAULT_SLICES = 16;

    private LabelPictures() {
    }

    /**
     * The z-slices of {@code --montage SLICES}: empty for up to {@value #DEFAULT_SLICES} slices
     * evenly spread from the first to the last, {@code FIRST:END[:STEP]} (END excluded, as Python's
     * slices), or a list {@code Z,Z,...}.
     */
    static int[] slices(String spec, int depth) {
        String s = spec.strip();
        int[] slices;
        try {
            if (s.isEmpty()) {
                int n = Math.min(DEFAULT_SLICES, depth);
                slices = new int[n];
                for (int i = 0; i < n; i++) {
                    slices[i] = n == 1 ? 0 : (int) Math.round(i * (depth - 1) / (double) (n - 1));
                }
            } else if (s.contains(":")) {
                String[] p = s.split(":", -1);
                if (p.length > 3) {
                    throw new UsageException("--montage " + spec + ": expected FIRST:END[:STEP] or Z,Z,...");
                }
                int first = Integer.parseInt(p[0].strip());
                int end = Integer.parseInt(p[1].strip());
                int step = p.length == 3 ? Integer.parseInt(p[2].strip()) : 1;
                if (step < 1 || end <= first) {
                    throw new UsageException("--montage " + spec + ": END must exceed FIRST and STEP be positive");
                }
                slices = java.util.stream.IntStream.iterate(first, z -> z < end, z -> z + step).toArray();
            } else {
                slices = Arrays.stream(s.split(",", -1)).mapToInt(z -> Integer.parseInt(z.strip())).toArray();
            }
        } catch (NumberFormatException e) {
            throw new UsageException("--montage " + spec + ": expected FIRST:END[:STEP] or Z,Z,... of whole numbers");
        }
        for (int z : slices) {
            if (z < 0 || z >= depth) {
                throw new UsageException("--montage " + spec + ": slice " + z + " is outside 0.." + (depth - 1));
            }
        }
        return slices;
    }

    /** Writes the montage of {@code slices} of the labels to {@code file}. */
    static void writeMontage(MeshLabels labels, int[] slices, Path file) throws IOException {
        int w = labels.width();
        int h = labels.height();
        int columns = (int) Math.ceil(Math.sqrt(slices.length));
        int rows = (slices.length + columns - 1) / columns;
        BufferedImage image = image((long) columns * w + (long) (columns - 1) * GAP,
                (long) rows * h + (long) (rows - 1) * GAP);
        int[] pixels = pixels(image);
        Arrays.fill(pixels, GAP_RGB);
        for (int t = 0; t < slices.length; t++) {
            int left = (t % columns) * (w + GAP);
            int top = (t / columns) * (h + GAP);
            for (int y = 0; y < h; y++) {
                int at = (top + y) * image.getWidth() + left;
                for (int x = 0; x < w; x++) {
                    pixels[at + x] = LabelImageWriter.color(labels.get(x, y, slices[t]));
                }
            }
        }
        write(image, file);
    }

    /** Writes the labels over the maximum-intensity projection of {@code grid} (the labelled cells) to {@code file}. */
    static void writeProjection(Grid grid, MeshLabels labels, Path file) throws IOException {
        int w = grid.width();
        int h = grid.height();
        int[] maximum = new int[w * h];
        long[] label = new long[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int best = grid.get(x, y, 0);
                int at = 0;
                for (int z = 1; z < grid.depth(); z++) {
                    int v = grid.get(x, y, z);
                    if (v > best) {
                        best = v;
                        at = z;
                    }
                }
                maximum[x + w * y] = best;
                label[x + w * y] = labels.get(x, y, at);
            }
        }
        long low = Arrays.stream(maximum).min().orElse(0);
        long high = Arrays.stream(maximum).max().orElse(0);
        BufferedImage image = image(w, h);
        int[] pixels = pixels(image);
        for (int i = 0; i < pixels.length; i++) {
            // a constant projection is black where it is 0, white elsewhere
            int grey = high == low ? (high == 0 ? 0 : 255) : (int) ((maximum[i] - low) * 255 / (high - low));
            int rgb = grey << 16 | grey << 8 | grey;
            pixels[i] = label[i] < 0 ? rgb : halfway(rgb, LabelImageWriter.color(label[i]));
        }
        write(image, file);
    }

    /** The mean of two colours, channel by channel. */
    private static int halfway(int a, int b) {
        int rgb = 0;
        for (int shift = 0; shift <= 16; shift += 8) {
            rgb |= (((a >>> shift & 0xFF) + (b >>> shift & 0xFF)) / 2) << shift;
        }
        return rgb;
    }

    private static BufferedImage image(long width, long height) {
        if (width * height > Integer.MAX_VALUE - 8) {
            throw new UsageException("a picture of " + width + "x" + height + " pixels is more than one PNG of Java's"
                    + " holds: choose fewer --montage slices");
        }
        return new BufferedImage((int) width, (int) height, BufferedImage.TYPE_INT_RGB);
    }

    private static int[] pixels(BufferedImage image) {
        return ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
    }

    private static void write(BufferedImage image, Path file) throws IOException {
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer in this Java runtime for " + file);
        }
    }
}
