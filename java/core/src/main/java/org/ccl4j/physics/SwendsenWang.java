package org.ccl4j.physics;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.internal.HostMemory;

/**
 * Swendsen-Wang cluster updates of the Ising model (J = 1) on a {@link Lattice}, spins starting
 * all up: each sweep activates the bonds between equal spins with probability 1 - exp(-2 / T),
 * labels the clusters (Komura's algorithm by default) and flips each with probability 1/2, all
 * draws from Philox-4x32-10, so every backend follows the same chain.
 */
public final class SwendsenWang implements AutoCloseable {
    /** The most sweeps one call records: its results are Java arrays. */
    private static final int MAX_SWEEPS = Integer.MAX_VALUE - 8;

    private final Engine engine;
    private final Physics.Ising chain;
    private final int siteCount;

    /**
     * Per sweep, the magnetisation and the energy per spin after it, and the time of all sweeps.
     *
     * @param magnetisation the magnetisation per spin after each sweep (signed)
     * @param energy the energy per spin after each sweep
     * @param totalMs the time of all the sweeps, in milliseconds
     */
    public record Sweeps(double[] magnetisation, double[] energy, double totalMs) {
    }

    private SwendsenWang(Engine engine, Physics.Ising chain, int siteCount) {
        this.engine = engine;
        this.chain = chain;
        this.siteCount = siteCount;
    }

    /**
     * A chain on {@code lattice} (which may be closed afterwards).
     *
     * @param lattice the lattice, which may be closed afterwards
     * @param backend the backend to run on, a native one ({@link Backend#AUTO} resolved as by {@link
     *                org.ccl4j.ComponentLabeler#create()})
     * @param algorithm the graph algorithm that labels the clusters of each sweep
     * @param seed the generator's key
     * @return a new chain; close it to free its buffers
     * @throws UnsupportedOperationException for {@link Backend#JAVA} or {@link Algorithm#UNION_FIND},
     *                                       which have no native version
     */
    public static SwendsenWang create(Lattice lattice, Backend backend, Algorithm algorithm, long seed) {
        Objects.requireNonNull(lattice, "lattice");
        Objects.requireNonNull(algorithm, "algorithm");
        Engine engine = BondPercolation.open(backend);
        try {
            return new SwendsenWang(engine, engine.ising(lattice.engineLattice(), BondPercolation.settings(algorithm),
                    seed), lattice.siteCount());
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /**
     * The backend the chain runs on (AUTO resolved).
     *
     * @return the resolved backend
     */
    public Backend backend() {
        return Backend.valueOf(engine.backend());
    }

    /**
     * The number of spins: the lattice's sites.
     *
     * @return the lattice's site count
     */
    public int siteCount() {
        return siteCount;
    }

    /**
     * Runs {@code sweeps} sweeps at temperature {@code temperature}, continuing the chain. Another
     * thread's {@link #close()} waits for it.
     *
     * @param temperature the temperature T, in units of the coupling
     * @param sweeps the number of sweeps
     * @return the magnetisation and energy after each sweep, and their time
     * @throws IllegalArgumentException for a negative count, or more sweeps than a Java array holds
     * @throws org.ccl4j.Ccl4jException (OUT_OF_MEMORY) before anything is allocated when the host
     *                                  has not the memory for the results (16 bytes a sweep, twice)
     */
    public Sweeps sweep(double temperature, int sweeps) {
        if (sweeps < 0 || sweeps > MAX_SWEEPS) {
            throw new IllegalArgumentException("sweeps must be in 0.." + MAX_SWEEPS + ", got " + sweeps);
        }
        // the results off-heap for the call, then in two Java arrays
        HostMemory.require("recording " + sweeps + " sweeps", 32L * sweeps, Lattice.FAILURES);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment m = call.allocate(ValueLayout.JAVA_DOUBLE, Math.max(1, sweeps));
            MemorySegment e = call.allocate(ValueLayout.JAVA_DOUBLE, Math.max(1, sweeps));
            double ms = chain.sweep(temperature, sweeps, m, e);
            return new Sweeps(m.asSlice(0, sweeps * 8L).toArray(ValueLayout.JAVA_DOUBLE),
                    e.asSlice(0, sweeps * 8L).toArray(ValueLayout.JAVA_DOUBLE), ms);
        }
    }

    /** Frees the chain; waits for a sweep running on another thread. */
    @Override
    public void close() {
        chain.close();
        engine.close();
    }
}
