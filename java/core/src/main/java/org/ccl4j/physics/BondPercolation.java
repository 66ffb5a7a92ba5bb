package org.ccl4j.physics;

import org.ccl4j.internal.Abi;
import org.ccl4j.Backend;
import org.ccl4j.Algorithm;
import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.internal.ffi.ccl4j_percolation_result;

/**
 * Bond percolation on a {@link Lattice}: every bond open with probability p, drawn from
 * Philox-4x32-10 keyed by the seed with counter (bond, realisation), so the bonds of a realisation
 * are the same on every backend and launch configuration; the masked lattice is labelled (Komura's
 * algorithm by default) and a realisation spans when one cluster touches both open sides.
 * Buffers are set up once by {@link #create} and reused by every realisation.
 */
public final class BondPercolation implements AutoCloseable {
    private final MemorySegment context;
    private final MemorySegment handle;
    private final Backend backend;
    private final int siteCount;
    private boolean closed;

    /** The outcome of a run of realisations. */
    public record Result(long realisations, long spanning, double totalMs, double labelMs) {
        /** The spanning probability R = spanning / realisations. */
        public double probability() {
            return realisations == 0 ? Double.NaN : (double) spanning / realisations;
        }

        /** The standard error of R, sqrt(R (1 - R) / realisations). */
        public double error() {
            double r = probability();
            return realisations == 0 ? Double.NaN : Math.sqrt(r * (1 - r) / realisations);
        }
    }

    private BondPercolation(MemorySegment context, MemorySegment handle, Backend backend, int siteCount) {
        this.context = context;
        this.handle = handle;
        this.backend = backend;
        this.siteCount = siteCount;
    }

    /**
     * Sets up bond percolation on {@code lattice} (which may be closed afterwards) on {@code backend},
     * labelled by {@code algorithm} ({@link Algorithm#AUTO}: Komura's).
     */
    public static BondPercolation create(Lattice lattice, Backend backend, Algorithm algorithm) {
        Objects.requireNonNull(lattice, "lattice");
        MemorySegment context = PhysicsCalls.createContext(backend, algorithm);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            MemorySegment options = PhysicsCalls.options(call, algorithm);
            PhysicsCalls.check(ccl4j_percolation_create(context, lattice.handle(), options, out), context);
            return new BondPercolation(context, Abi.pointer(out), resolved(context), lattice.siteCount());
        } catch (RuntimeException e) {
            ccl4j_context_destroy(context);
            throw e;
        }
    }

    /** The backend the realisations run on. */
    public Backend backend() {
        return backend;
    }

    /** Runs realisations {@code first ... first + count - 1} at probability {@code p}. */
    public Result run(double p, long seed, long first, int count) {
        return run(p, seed, first, count, null, null);
    }

    /**
     * As {@link #run(double, long, long, int)}, also filling {@code spanning} (count entries, 1
     * when that realisation spans) and {@code labels} (siteCount entries: the canonical labels of
     * the last realisation) unless they are null.
     */
    public Result run(double p, long seed, long first, int count, byte[] spanning, int[] labels) {
        check();
        if (spanning != null && spanning.length < count) {
            throw new IllegalArgumentException("spanning has " + spanning.length + " entries, needs " + count);
        }
        if (labels != null && labels.length < siteCount) {
            throw new IllegalArgumentException("labels has " + labels.length + " entries, needs " + siteCount);
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment flags = spanning == null ? MemorySegment.NULL : call.allocate(Math.max(1, count));
            MemorySegment ids = labels == null ? MemorySegment.NULL : call.allocate(ValueLayout.JAVA_INT, siteCount);
            MemorySegment out = ccl4j_percolation_result.allocate(call);
            PhysicsCalls.check(ccl4j_percolation_run(handle, p, seed, first, count, flags, ids, out), context);
            if (spanning != null) {
                MemorySegment.copy(flags, ValueLayout.JAVA_BYTE, 0, spanning, 0, count);
            }
            if (labels != null) {
                MemorySegment.copy(ids, ValueLayout.JAVA_INT, 0, labels, 0, siteCount);
            }
            return new Result(ccl4j_percolation_result.realisations(out), ccl4j_percolation_result.spanning(out),
                    ccl4j_percolation_result.total_ms(out), ccl4j_percolation_result.label_ms(out));
        }
    }

    /**
     * The bonds of one realisation as the percolation draws them: entry b is 1 when bond b is open.
     * Drawn on {@code backend}; every backend gives the same bits.
     */
    public static byte[] drawBonds(Backend backend, long bondCount, long seed, long realisation, double p) {
        MemorySegment context = PhysicsCalls.createContext(backend, Algorithm.AUTO);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment open = call.allocate(Math.max(1, bondCount));
            PhysicsCalls.check(ccl4j_draw_bonds(context, bondCount, seed, realisation, p, open), context);
            return open.asSlice(0, bondCount).toArray(ValueLayout.JAVA_BYTE);
        } finally {
            ccl4j_context_destroy(context);
        }
    }

    static Backend resolved(MemorySegment context) {
        return PhysicsCalls.resolvedBackend(context);
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("the percolation run is closed");
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ccl4j_percolation_destroy(handle);
            ccl4j_context_destroy(context);
        }
    }
}
