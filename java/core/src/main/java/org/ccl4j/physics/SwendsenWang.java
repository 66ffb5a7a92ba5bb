package org.ccl4j.physics;

import org.ccl4j.internal.Abi;
import org.ccl4j.Backend;
import org.ccl4j.Algorithm;
import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Swendsen-Wang cluster updates of the Ising model (J = 1) on a {@link Lattice}, spins starting
 * all up: each sweep activates the bonds between equal spins with probability 1 - exp(-2 / T),
 * labels the clusters (Komura's algorithm by default) and flips each with probability 1/2, all
 * draws from Philox-4x32-10, so every backend follows the same chain.
 */
public final class SwendsenWang implements AutoCloseable {
    private final MemorySegment context;
    private final MemorySegment handle;
    private final Backend backend;
    private final int siteCount;
    private boolean closed;

    /** Per sweep, the magnetisation and the energy per spin after it, and the time of all sweeps. */
    public record Sweeps(double[] magnetisation, double[] energy, double totalMs) {
    }

    private SwendsenWang(MemorySegment context, MemorySegment handle, Backend backend, int siteCount) {
        this.context = context;
        this.handle = handle;
        this.backend = backend;
        this.siteCount = siteCount;
    }

    /** A chain on {@code lattice} (which may be closed afterwards). */
    public static SwendsenWang create(Lattice lattice, Backend backend, Algorithm algorithm, long seed) {
        Objects.requireNonNull(lattice, "lattice");
        MemorySegment context = PhysicsCalls.createContext(backend, algorithm);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            MemorySegment options = PhysicsCalls.options(call, algorithm);
            PhysicsCalls.check(ccl4j_ising_create(context, lattice.handle(), options, seed, out), context);
            return new SwendsenWang(context, Abi.pointer(out), BondPercolation.resolved(context),
                    lattice.siteCount());
        } catch (RuntimeException e) {
            ccl4j_context_destroy(context);
            throw e;
        }
    }

    /** The backend the chain runs on (AUTO resolved). */
    public Backend backend() {
        return backend;
    }

    /** The number of spins: the lattice's sites. */
    public int siteCount() {
        return siteCount;
    }

    /** Runs {@code sweeps} sweeps at temperature {@code temperature}, continuing the chain. */
    public Sweeps sweep(double temperature, int sweeps) {
        if (closed) {
            throw new IllegalStateException("the Swendsen-Wang chain is closed");
        }
        if (sweeps < 0) {
            throw new IllegalArgumentException("sweeps must not be negative, got " + sweeps);
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment m = call.allocate(ValueLayout.JAVA_DOUBLE, Math.max(1, sweeps));
            MemorySegment e = call.allocate(ValueLayout.JAVA_DOUBLE, Math.max(1, sweeps));
            MemorySegment ms = call.allocate(ValueLayout.JAVA_DOUBLE);
            PhysicsCalls.check(ccl4j_ising_sweep(handle, temperature, sweeps, m, e, ms), context);
            return new Sweeps(m.asSlice(0, sweeps * 8L).toArray(ValueLayout.JAVA_DOUBLE),
                    e.asSlice(0, sweeps * 8L).toArray(ValueLayout.JAVA_DOUBLE), ms.get(ValueLayout.JAVA_DOUBLE, 0));
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ccl4j_ising_destroy(handle);
            ccl4j_context_destroy(context);
        }
    }
}
