package org.ccl4j.physics;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.GraphSettings;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.engine.spi.Progress;
import org.ccl4j.internal.HostMemory;

/**
 * Bond percolation on a {@link Lattice}: every bond open with probability p, drawn from
 * Philox-4x32-10 keyed by the seed with counter (bond, realisation), so the bonds of a realisation
 * are the same on every backend and launch configuration; the masked lattice is labelled (Komura's
 * algorithm by default) and a realisation spans when one cluster touches both open sides.
 * Buffers are set up once by {@link #create} and reused by every realisation.
 */
public final class BondPercolation implements AutoCloseable {
    private final Engine engine;
    private final Physics.Percolation run;
    private final int siteCount;

    /**
     * The outcome of a run of realisations.
     *
     * @param realisations the number of realisations run
     * @param spanning how many of them spanned
     * @param totalMs the time of all of them, in milliseconds
     * @param labelMs the labelling's part of that time, in milliseconds
     */
    public record Result(long realisations, long spanning, double totalMs, double labelMs) {
        /**
         * The spanning probability R = spanning / realisations.
         *
         * @return the fraction of realisations that spanned; NaN for none
         */
        public double probability() {
            return realisations == 0 ? Double.NaN : (double) spanning / realisations;
        }

        /**
         * The standard error of R, sqrt(R (1 - R) / realisations).
         *
         * @return the standard error of {@link #probability()}; NaN for no realisation
         */
        public double error() {
            double r = probability();
            return realisations == 0 ? Double.NaN : Math.sqrt(r * (1 - r) / realisations);
        }
    }

    private BondPercolation(Engine engine, Physics.Percolation run, int siteCount) {
        this.engine = engine;
        this.run = run;
        this.siteCount = siteCount;
    }

    /**
     * Sets up bond percolation on {@code lattice} (which may be closed afterwards) on {@code backend},
     * labelled by {@code algorithm} ({@link Algorithm#AUTO}: Komura's).
     *
     * @param lattice the lattice, which may be closed afterwards
     * @param backend the backend to run on, a native one ({@link Backend#AUTO} resolved as by {@link
     *                org.ccl4j.ComponentLabeler#create()})
     * @param algorithm the graph algorithm that labels the masked lattice
     * @return the set-up percolation; close it to free its buffers
     * @throws UnsupportedOperationException for {@link Backend#JAVA} or {@link Algorithm#UNION_FIND},
     *                                       which have no native version
     */
    public static BondPercolation create(Lattice lattice, Backend backend, Algorithm algorithm) {
        Objects.requireNonNull(lattice, "lattice");
        Objects.requireNonNull(algorithm, "algorithm");
        Engine engine = open(backend);
        try {
            return new BondPercolation(engine, engine.percolation(lattice.engineLattice(), settings(algorithm)),
                    lattice.siteCount());
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /** An engine of its own on {@code backend}, for a simulation. */
    static Engine open(Backend backend) {
        Objects.requireNonNull(backend, "backend");
        return Engines.open(backend.name(), 0, Lattice.FAILURES);
    }

    /** Default labelling settings with {@code algorithm}, without input checks: lattices are built well-formed. */
    static GraphSettings settings(Algorithm algorithm) {
        return new GraphSettings(algorithm.name(), false, 0, 0, 0, 0, 0, 0, Progress.NONE);
    }

    /**
     * The backend the realisations run on.
     *
     * @return the resolved backend
     */
    public Backend backend() {
        return Backend.valueOf(engine.backend());
    }

    /**
     * Runs realisations {@code first ... first + count - 1} at probability {@code p}.
     *
     * @param p the probability that a bond is open
     * @param seed the generator's key
     * @param first the index of the first realisation (the generator's counter)
     * @param count the number of realisations
     * @return how many spanned, and the time they took
     */
    public Result run(double p, long seed, long first, int count) {
        return run(p, seed, first, count, null, null);
    }

    /**
     * As {@link #run(double, long, long, int)}, also filling {@code spanning} (count entries, 1
     * when that realisation spans) and {@code labels} (siteCount entries: the canonical labels of
     * the last realisation) unless they are null. Another thread's {@link #close()} waits for it.
     *
     * @param p the probability that a bond is open
     * @param seed the generator's key
     * @param first the index of the first realisation (the generator's counter)
     * @param count the number of realisations
     * @param spanning {@code count} bytes for whether each realisation spans, or null
     * @param labels {@code siteCount} ints for the last realisation's labels, or null
     * @return how many spanned, and the time they took
     */
    public Result run(double p, long seed, long first, int count, byte[] spanning, int[] labels) {
        if (spanning != null && spanning.length < count) {
            throw new IllegalArgumentException("spanning has " + spanning.length + " entries, needs " + count);
        }
        if (labels != null && labels.length < siteCount) {
            throw new IllegalArgumentException("labels has " + labels.length + " entries, needs " + siteCount);
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment flags = spanning == null ? MemorySegment.NULL : call.allocate(Math.max(1, count));
            MemorySegment ids = labels == null ? MemorySegment.NULL : call.allocate(ValueLayout.JAVA_INT, siteCount);
            Physics.Outcome out = run.run(p, seed, first, count, flags, ids);
            if (spanning != null) {
                MemorySegment.copy(flags, ValueLayout.JAVA_BYTE, 0, spanning, 0, count);
            }
            if (labels != null) {
                MemorySegment.copy(ids, ValueLayout.JAVA_INT, 0, labels, 0, siteCount);
            }
            return new Result(out.realisations(), out.spanning(), out.totalMs(), out.labelMs());
        }
    }

    /**
     * The bonds of one realisation as the percolation draws them: entry b is 1 when bond b is open.
     * Drawn on {@code backend}; every backend gives the same bits.
     *
     * @param backend the backend that draws the bonds
     * @param bondCount the number of bonds
     * @param seed the generator's key
     * @param realisation the realisation (the generator's counter)
     * @param p the probability that a bond is open
     * @return {@code bondCount} bytes, 1 for an open bond and 0 for a closed one
     * @throws IllegalArgumentException      for more bonds than a Java array holds
     * @throws org.ccl4j.Ccl4jException      (OUT_OF_MEMORY) when the host has not the memory for them
     */
    public static byte[] drawBonds(Backend backend, long bondCount, long seed, long realisation, double p) {
        if (bondCount > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(bondCount + " bonds do not fit a Java array");
        }
        HostMemory.require("drawing " + bondCount + " bonds", 2 * Math.max(0, bondCount), Lattice.FAILURES);
        try (Engine engine = open(backend); Arena call = Arena.ofConfined()) {
            MemorySegment open = call.allocate(Math.max(1, bondCount));
            engine.drawBonds(bondCount, seed, realisation, p, open);
            return open.asSlice(0, bondCount).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** Frees the run; waits for one running on another thread. */
    @Override
    public void close() {
        run.close();
        engine.close();
    }
}
