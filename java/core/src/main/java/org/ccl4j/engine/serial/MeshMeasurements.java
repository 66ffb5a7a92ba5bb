package org.ccl4j.engine.serial;

import java.math.BigInteger;
import java.util.function.LongToIntFunction;

import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.engine.spi.StatisticsTable.Column;

/**
 * The measurement columns of a mesh table (the ABI's "Measurements", the same values bit for bit):
 * one pass over the labels in the table's numbering, each run of equal labels along a row adding
 * its exact coordinate sums (128-bit, as pairs of longs), its exposed faces and its border cells'
 * perimeter weights to its row; then the columns from those sums.
 */
public final class MeshMeasurements {
    private static final Column[] MOMENTS = {Column.MOMENT_XX, Column.MOMENT_YY, Column.MOMENT_ZZ, Column.MOMENT_XY,
        Column.MOMENT_XZ, Column.MOMENT_YZ};
    private static final int[] A = {0, 1, 2, 0, 0, 1};
    private static final int[] B = {0, 1, 2, 1, 2, 2};
    private static final Column[] FACES = {Column.FACES_X, Column.FACES_Y, Column.FACES_Z};

    private final int width;
    private final int height;
    private final int depth;
    private final LabelArray labels;
    private final long background;
    private final long[] size;
    private final long[][] first;   // [axis][2 * row + word]: high word, low word
    private final long[][] second;  // [product][2 * row + word]
    private final long[][] faces;
    private final long[][] perimeter;  // [neighbourhood * 3 + weight][row]

    private MeshMeasurements(int width, int height, int depth, LabelArray labels, long background, int rows) {
        this.width = width;
        this.height = height;
        this.depth = depth;
        this.labels = labels;
        this.background = background;
        size = new long[rows];
        first = new long[3][2 * rows];
        second = new long[6][2 * rows];
        faces = new long[3][rows];
        perimeter = new long[6][rows];
    }

    /**
     * Fills the measurement columns of {@code table} (made with them) from the labels of a
     * {@code width x height x depth} grid, background {@code background}, a label {@code l} being
     * the cells of row {@code rowOf(l)}.
     */
    public static void fill(StatisticsTable table, int width, int height, int depth, LabelArray labels,
                            long background, LongToIntFunction rowOf) {
        int rows = (int) table.rows();
        MeshMeasurements m = new MeshMeasurements(width, height, depth, labels, background, rows);
        for (long line = 0; line < (long) height * depth; line++) {
            int y = (int) (line % height);
            int z = (int) (line / height);
            long base = line * width;
            for (int x = 0; x < width; ) {
                long l = labels.get(base + x);
                int start = x;
                while (x < width && labels.get(base + x) == l) {
                    x++;
                }
                if (l != background) {
                    m.addRun(rowOf.applyAsInt(l), start, x, y, z, l);
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            for (int p = 0; p < 6; p++) {
                table.setDouble(MOMENTS[p], r, m.centralMoment(r, p));
            }
            table.setDouble(Column.PERIMETER, r, perimeterOf(m.perimeter[0][r], m.perimeter[1][r], m.perimeter[2][r]));
            table.setDouble(Column.PERIMETER_8, r,
                    perimeterOf(m.perimeter[3][r], m.perimeter[4][r], m.perimeter[5][r]));
            for (int a = 0; a < 3; a++) {
                table.setLong(FACES[a], r, m.faces[a][r]);
            }
        }
    }

    /** The perimeter of the counts of border cells of weight 1, sqrt(2) and (1 + sqrt(2)) / 2. */
    private static double perimeterOf(long straight, long diagonal, long bend) {
        double root2 = Math.sqrt(2.0);
        return (double) straight + (double) diagonal * root2 + (double) bend * ((1 + root2) / 2);
    }

    /** (size * sum ab - sum a * sum b) / size, the numerator exact and rounded once, as natively. */
    private double centralMoment(int r, int p) {
        long n = size[r];
        long[] ab = second[p];
        long[] a = first[A[p]];
        long[] b = first[B[p]];
        if (fitsLong(ab, r) && fitsLong(a, r) && fitsLong(b, r)) {  // the common case, without BigInteger
            long sab = ab[2 * r + 1];
            long sa = a[2 * r + 1];
            long sb = b[2 * r + 1];
            long low1 = n * sab;
            long low2 = sa * sb;
            long low = low1 - low2;
            long high = Math.multiplyHigh(n, sab) - Math.multiplyHigh(sa, sb)
                    - (Long.compareUnsigned(low1, low2) < 0 ? 1 : 0);
            if (high == low >> 63) {
                return (double) low / (double) n;
            }
        }
        BigInteger numerator = BigInteger.valueOf(n).multiply(wide(ab, r)).subtract(wide(a, r).multiply(wide(b, r)));
        return numerator.doubleValue() / (double) n;
    }

    /** Whether the 128-bit value of row r is a long: its high word the low one's sign. */
    private static boolean fitsLong(long[] words, int r) {
        return words[2 * r] == words[2 * r + 1] >> 63;
    }

    private static BigInteger wide(long[] words, int r) {
        long low = words[2 * r + 1];
        BigInteger unsignedLow = BigInteger.valueOf(low >>> 1).shiftLeft(1).or(BigInteger.valueOf(low & 1));
        return BigInteger.valueOf(words[2 * r]).shiftLeft(64).add(unsignedLow);
    }

    /** Adds the 128-bit value {@code high * 2^64 + low} (low unsigned) to row r of {@code words}. */
    private static void add(long[] words, int r, long high, long low) {
        long before = words[2 * r + 1];
        words[2 * r + 1] = before + low;
        words[2 * r] += high + (Long.compareUnsigned(before + low, before) < 0 ? 1 : 0);
    }

    /** Adds the product of two non-negative longs. */
    private static void addProduct(long[] words, int r, long a, long b) {
        add(words, r, Math.multiplyHigh(a, b), a * b);
    }

    private long at(long x, long y, long z) {
        if (x < 0 || y < 0 || z < 0 || x >= width || y >= height || z >= depth) {
            return background;
        }
        return labels.get(x + width * (y + (long) height * z));
    }

    /** Whether window cell (c, r) is set in {@code bits}, as 0 or 1 (bit 5 c + r: column c = dx + 2, row r = dy + 2). */
    private static int bit(int bits, int c, int r) {
        return (bits >>> (5 * c + r)) & 1;
    }

    /**
     * The weight class of the centre of a 5 x 5 window of the cells that are its label: -1 (none)
     * unless it is on the border; 0 (weight 1) for two or three edge neighbours (a) on the border
     * and at most two diagonal ones (b), 1 (sqrt 2) for a = 0, b = 2 or a = 1, b = 3, 2 ((1 + sqrt 2)
     * / 2) for a = 1 and b = 1 or 2. The border cells of the inner 3 x 3 come from shifted windows: a
     * neighbour (c + dc, r + dr) is 5 dc + dr bits away.
     */
    private static int weight(int same, boolean eight) {
        int inside = (same >>> 5) & (same << 5) & (same >>> 1) & (same << 1);
        if (eight) {
            inside &= (same >>> 6) & (same << 6) & (same >>> 4) & (same << 4);
        }
        int border = same & ~inside;
        if (bit(border, 2, 2) == 0) {
            return -1;
        }
        int a = bit(border, 1, 2) + bit(border, 3, 2) + bit(border, 2, 1) + bit(border, 2, 3);
        int b = bit(border, 1, 1) + bit(border, 1, 3) + bit(border, 3, 1) + bit(border, 3, 3);
        if ((a == 2 || a == 3) && b <= 2) {
            return 0;
        }
        if ((a == 0 && b == 2) || (a == 1 && b == 3)) {
            return 1;
        }
        return a == 1 && (b == 1 || b == 2) ? 2 : -1;
    }

    /** The column of the window at x: bit r set when cell (x, y + r - 2) is l. */
    private int column(long x, int y, long l) {
        int bits = 0;
        for (int r = 0; r < 5; r++) {
            bits |= (at(x, y + r - 2, 0) == l ? 1 : 0) << r;
        }
        return bits;
    }

    private void addRun(int r, int start, int end, int y, int z, long l) {
        long n = end - start;
        long sx = 0;
        long sxxHigh = 0;
        long sxxLow = 0;
        for (long x = start; x < end; x++) {
            sx += x;
            long before = sxxLow;
            sxxLow += x * x;
            sxxHigh += Long.compareUnsigned(sxxLow, before) < 0 ? 1 : 0;
        }
        size[r] += n;
        add(first[0], r, 0, sx);
        addProduct(first[1], r, y, n);
        addProduct(first[2], r, z, n);
        add(second[0], r, sxxHigh, sxxLow);
        addProduct(second[1], r, (long) y * y, n);
        addProduct(second[2], r, (long) z * z, n);
        addProduct(second[3], r, sx, y);
        addProduct(second[4], r, sx, z);
        addProduct(second[5], r, (long) y * z, n);
        faces[0][r] += 2;
        if (depth > 1) {
            for (int x = start; x < end; x++) {
                faces[1][r] += (at(x, y - 1, z) != l ? 1 : 0) + (at(x, y + 1, z) != l ? 1 : 0);
                faces[2][r] += (at(x, y, z - 1) != l ? 1 : 0) + (at(x, y, z + 1) != l ? 1 : 0);
            }
            return;
        }
        // 2D: the 5 x 5 window of the cells that are l, slid along the run a column at a time
        int same = 0;
        for (int c = 0; c < 5; c++) {
            same |= column(start + c - 2, y, l) << (5 * c);
        }
        for (int x = start; x < end; x++) {
            if (x > start) {
                same = (same >>> 5) | (column(x + 2, y, l) << 20);
            }
            faces[1][r] += (1 - bit(same, 2, 1)) + (1 - bit(same, 2, 3));
            for (int e = 0; e < 2; e++) {
                int w = weight(same, e == 1);
                if (w >= 0) {
                    perimeter[3 * e + w][r]++;
                }
            }
        }
    }
}
