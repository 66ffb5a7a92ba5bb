package org.ccl4j;

import java.util.Arrays;

import org.ccl4j.engine.spi.SizeBinning;

/**
 * A histogram of component sizes. Bin {@code b} holds {@link #count(int) count(b)} components:
 * of size {@link #size(int) size(b)} exactly ({@link Binning#EXACT}: the sizes that occur,
 * ascending), or of sizes in {@code [size(b), 2 * size(b))} ({@link Binning#LOG2}: powers of two
 * from 1 up to the largest size's, empty bins included).
 */
public final class Histogram {
    /** How sizes are binned. */
    public enum Binning {
        /** One bin per size that occurs. */
        EXACT,
        /** Bins {@code [2^b, 2^(b+1))}. */
        LOG2;

        /** The engines' binning of the same name. */
        SizeBinning bins() {
            return SizeBinning.valueOf(name());
        }
    }

    private final Binning binning;
    private final int[] sizes;
    private final int[] counts;

    Histogram(Binning binning, int[] sizes, int[] counts) {
        this.binning = binning;
        this.sizes = sizes;
        this.counts = counts;
    }

    /**
     * How the sizes are binned.
     *
     * @return the binning
     */
    public Binning binning() {
        return binning;
    }

    /**
     * The number of bins.
     *
     * @return the number of bins
     */
    public int bins() {
        return sizes.length;
    }

    /**
     * The size (EXACT) or the smallest size (LOG2) of bin {@code b}.
     *
     * @param b the bin, below {@link #bins()}
     * @return the bin's size, or its smallest size
     */
    public int size(int b) {
        return sizes[b];
    }

    /**
     * The number of components in bin {@code b}.
     *
     * @param b the bin, below {@link #bins()}
     * @return the number of components in it
     */
    public int count(int b) {
        return counts[b];
    }

    /**
     * The sizes of all bins, a copy.
     *
     * @return one size per bin
     */
    public int[] sizes() {
        return sizes.clone();
    }

    /**
     * The counts of all bins, a copy.
     *
     * @return one count per bin
     */
    public int[] counts() {
        return counts.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Histogram h && h.binning == binning && Arrays.equals(h.sizes, sizes)
                && Arrays.equals(h.counts, counts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * binning.hashCode() + Arrays.hashCode(sizes)) + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Histogram[").append(binning);
        for (int b = 0; b < sizes.length; b++) {
            s.append(b == 0 ? ": " : ", ").append(sizes[b]).append('=').append(counts[b]);
        }
        return s.append(']').toString();
    }
}
