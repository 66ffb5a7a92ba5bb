package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.ccl4j.engine.spi.GraphSettings;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.internal.ffi.ccl4j_cahn_hilliard_domains;
import org.ccl4j.internal.ffi.ccl4j_cahn_hilliard_info;
import org.ccl4j.internal.ffi.ccl4j_cahn_hilliard_params;
import org.ccl4j.internal.ffi.ccl4j_lattice_info;
import org.ccl4j.internal.ffi.ccl4j_percolation_result;
import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * The simulations of {@code ccl4j/physics.h}. A simulation lives on a native engine's context and
 * runs under the engine's lock, as the engine's own calls do; its {@code close} takes the lock too,
 * so closing it from another thread waits for a running step or sweep, and a call after that
 * throws {@link IllegalStateException} instead of reaching freed memory. The engine frees the
 * simulations still open before its context.
 */
final class NativePhysics {
    private NativePhysics() {
    }

    /** A simulation's native handle on an engine's context, freed once. */
    abstract static class Simulation implements AutoCloseable {
        private final String what;
        final NativeEngine engine;
        final MemorySegment handle;
        private boolean freed;

        Simulation(String what, NativeEngine engine, MemorySegment handle) {
            this.what = what;
            this.engine = engine;
            this.handle = handle;
            engine.adopt(this);
        }

        /** Runs {@code body} with the context and the handle under the engine's lock, refused once closed. */
        <T> T run(BiFunction<MemorySegment, MemorySegment, T> body) {
            ReentrantLock lock = engine.lock();
            lock.lock();
            try {
                if (freed) {
                    throw new IllegalStateException("the " + what + " is closed");
                }
                return body.apply(engine.openContext(), handle);
            } finally {
                lock.unlock();
            }
        }

        /** Frees the handle unless it is freed already; the caller holds the engine's lock. */
        void free() {
            if (!freed) {
                freed = true;
                destroy(handle);
            }
        }

        abstract void destroy(MemorySegment handle);

        @Override
        public void close() {
            engine.free(this);
        }
    }

    // ---- lattices --------------------------------------------------------------------------------------

    /** A lattice: it has no context, so a lock of its own. */
    static final class Lattice implements Physics.Lattice {
        private final ReentrantLock lock = new ReentrantLock();
        private final MemorySegment handle;
        private final Physics.Shape shape;
        private final NativeCalls calls;
        private boolean closed;

        private Lattice(MemorySegment handle, Physics.Shape shape, NativeCalls calls) {
            this.handle = handle;
            this.shape = shape;
            this.calls = calls;
        }

        @Override
        public Physics.Shape shape() {
            return shape;
        }

        /** Runs {@code body} with the handle, which {@link #close()} cannot free meanwhile. */
        <T> T with(Function<MemorySegment, T> body) {
            lock.lock();
            try {
                if (closed) {
                    throw new IllegalStateException("the lattice is closed");
                }
                return body.apply(handle);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void copy(int which, MemorySegment target) {
            with(h -> {
                MemorySegment[] targets = {MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL,
                        MemorySegment.NULL, MemorySegment.NULL};
                targets[which] = target;
                calls.check(ccl4j_lattice_copy(h, targets[0], targets[1], targets[2], targets[3], targets[4]),
                        MemorySegment.NULL);
                return null;
            });
        }

        @Override
        public void close() {
            lock.lock();
            try {
                if (!closed) {
                    closed = true;
                    ccl4j_lattice_destroy(handle);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Builds a lattice of {@code kind} (a {@code CCL4J_LATTICE_*} code). */
    static Physics.Lattice lattice(NativeCalls calls, int kind, int length, boolean periodic, long seed) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            calls.check(ccl4j_lattice_create(kind, length, periodic ? 1 : 0, seed, out), MemorySegment.NULL);
            MemorySegment handle = Abi.pointer(out);
            MemorySegment info = ccl4j_lattice_info.allocate(call);
            int status = ccl4j_lattice_get_info(handle, info);
            if (status != CCL4J_SUCCESS()) {
                ccl4j_lattice_destroy(handle);
                calls.check(status, MemorySegment.NULL);
            }
            return new Lattice(handle, new Physics.Shape(ccl4j_lattice_info.length(info),
                    ccl4j_lattice_info.periodic(info) != 0, ccl4j_lattice_info.vertex_count(info),
                    ccl4j_lattice_info.arc_count(info), ccl4j_lattice_info.bond_count(info),
                    ccl4j_lattice_info.side0_count(info), ccl4j_lattice_info.side1_count(info)), calls);
        }
    }

    // ---- percolation and Swendsen-Wang ------------------------------------------------------------------

    /** A native constructor of a lattice simulation: stores the new handle through {@code out}. */
    private interface Create {
        int run(MemorySegment context, MemorySegment lattice, MemorySegment options, MemorySegment out);
    }

    /** The handle {@code create} makes on the engine's context from {@code lattice}, both held meanwhile. */
    private static MemorySegment create(NativeEngine engine, Physics.Lattice lattice, GraphSettings settings,
                                        Create create) {
        if (!(lattice instanceof Lattice l)) {
            throw new IllegalArgumentException("the lattice was not made by the native library");
        }
        return engine.locked(context -> l.with(handle -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment out = call.allocate(ValueLayout.ADDRESS);
                engine.calls().check(create.run(context, handle, NativeCalls.options(call, settings, false), out),
                        context);
                return Abi.pointer(out);
            }
        }));
    }

    static Physics.Percolation percolation(NativeEngine engine, Physics.Lattice lattice, GraphSettings settings) {
        return new Percolation(engine, create(engine, lattice, settings, (context, l, options, out) ->
                ccl4j_percolation_create(context, l, options, out)));
    }

    private static final class Percolation extends Simulation implements Physics.Percolation {
        Percolation(NativeEngine engine, MemorySegment handle) {
            super("percolation run", engine, handle);
        }

        @Override
        public Physics.Outcome run(double p, long seed, long first, int count, MemorySegment spanning,
                                   MemorySegment labels) {
            return run((context, handle) -> {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment out = ccl4j_percolation_result.allocate(call);
                    engine.calls().check(ccl4j_percolation_run(handle, p, seed, first, count, spanning, labels, out),
                            context);
                    return new Physics.Outcome(ccl4j_percolation_result.realisations(out),
                            ccl4j_percolation_result.spanning(out), ccl4j_percolation_result.total_ms(out),
                            ccl4j_percolation_result.label_ms(out));
                }
            });
        }

        @Override
        void destroy(MemorySegment handle) {
            ccl4j_percolation_destroy(handle);
        }
    }

    static Physics.Ising ising(NativeEngine engine, Physics.Lattice lattice, GraphSettings settings, long seed) {
        return new Ising(engine, create(engine, lattice, settings, (context, l, options, out) ->
                ccl4j_ising_create(context, l, options, seed, out)));
    }

    private static final class Ising extends Simulation implements Physics.Ising {
        Ising(NativeEngine engine, MemorySegment handle) {
            super("Swendsen-Wang chain", engine, handle);
        }

        @Override
        public double sweep(double temperature, int sweeps, MemorySegment magnetisation, MemorySegment energy) {
            return run((context, handle) -> {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment ms = call.allocate(ValueLayout.JAVA_DOUBLE);
                    engine.calls().check(ccl4j_ising_sweep(handle, temperature, sweeps, magnetisation, energy, ms),
                            context);
                    return ms.get(ValueLayout.JAVA_DOUBLE, 0);
                }
            });
        }

        @Override
        void destroy(MemorySegment handle) {
            ccl4j_ising_destroy(handle);
        }
    }

    // ---- Cahn-Hilliard ------------------------------------------------------------------------------------

    static Physics.CahnHilliard cahnHilliard(NativeEngine engine, Physics.FieldParameters parameters) {
        MemorySegment handle = engine.locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment p = ccl4j_cahn_hilliard_params.allocate(call);
                ccl4j_cahn_hilliard_params.width(p, parameters.width());
                ccl4j_cahn_hilliard_params.height(p, parameters.height());
                ccl4j_cahn_hilliard_params.depth(p, parameters.depth());
                ccl4j_cahn_hilliard_params.boundary(p, parameters.periodic() ? CCL4J_CH_PERIODIC() : CCL4J_CH_NO_FLUX());
                ccl4j_cahn_hilliard_params.kernel(p, switch (parameters.kernel()) {
                    case 1 -> CCL4J_CH_KERNEL_GLOBAL();
                    case 2 -> CCL4J_CH_KERNEL_SHARED();
                    default -> CCL4J_CH_KERNEL_AUTO();
                });
                ccl4j_cahn_hilliard_params.cpu_threads(p, parameters.cpuThreads());
                ccl4j_cahn_hilliard_params.dt(p, parameters.dt());
                ccl4j_cahn_hilliard_params.mobility(p, parameters.mobility());
                ccl4j_cahn_hilliard_params.gradient(p, parameters.gradient());
                ccl4j_cahn_hilliard_params.spacing(p, parameters.spacing());
                MemorySegment out = call.allocate(ValueLayout.ADDRESS);
                engine.calls().check(ccl4j_cahn_hilliard_create(context, p, out), context);
                return Abi.pointer(out);
            }
        });
        CahnHilliard field = new CahnHilliard(engine, handle);
        try {
            field.resolved = field.run((context, h) -> {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment info = ccl4j_cahn_hilliard_info.allocate(call);
                    engine.calls().check(ccl4j_cahn_hilliard_get_info(h, info), context);
                    MemorySegment p = ccl4j_cahn_hilliard_info.params(info);
                    int kernel = ccl4j_cahn_hilliard_params.kernel(p);
                    return new Physics.FieldParameters(ccl4j_cahn_hilliard_params.width(p),
                            ccl4j_cahn_hilliard_params.height(p), ccl4j_cahn_hilliard_params.depth(p),
                            ccl4j_cahn_hilliard_params.boundary(p) == CCL4J_CH_PERIODIC(),
                            kernel == CCL4J_CH_KERNEL_GLOBAL() ? 1 : kernel == CCL4J_CH_KERNEL_SHARED() ? 2 : 0,
                            ccl4j_cahn_hilliard_params.dt(p), ccl4j_cahn_hilliard_params.mobility(p),
                            ccl4j_cahn_hilliard_params.gradient(p), ccl4j_cahn_hilliard_params.spacing(p),
                            ccl4j_cahn_hilliard_params.cpu_threads(p));
                }
            });
        } catch (RuntimeException e) {
            field.close();
            throw e;
        }
        return field;
    }

    private static final class CahnHilliard extends Simulation implements Physics.CahnHilliard {
        private Physics.FieldParameters resolved;

        CahnHilliard(NativeEngine engine, MemorySegment handle) {
            super("Cahn-Hilliard field", engine, handle);
        }

        @Override
        public Physics.FieldParameters parameters() {
            return resolved;
        }

        /** Runs one native call that only returns a status. */
        private void call(Function<MemorySegment, Integer> body) {
            run((context, handle) -> {
                engine.calls().check(body.apply(handle), context);
                return null;
            });
        }

        @Override
        public long steps() {
            return run((context, handle) -> {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment info = ccl4j_cahn_hilliard_info.allocate(call);
                    engine.calls().check(ccl4j_cahn_hilliard_get_info(handle, info), context);
                    return ccl4j_cahn_hilliard_info.steps(info);
                }
            });
        }

        @Override
        public void init(double concentration, double noise, long seed) {
            call(handle -> ccl4j_cahn_hilliard_init(handle, concentration, noise, seed));
        }

        @Override
        public void setField(MemorySegment values) {
            call(handle -> ccl4j_cahn_hilliard_set_field(handle, values));
        }

        @Override
        public double step(long steps) {
            return run((context, handle) -> {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment ms = call.allocate(ValueLayout.JAVA_DOUBLE);
                    engine.calls().check(ccl4j_cahn_hilliard_step(handle, steps, ms), context);
                    return ms.get(ValueLayout.JAVA_DOUBLE, 0);
                }
            });
        }

        @Override
        public void copyField(MemorySegment values) {
            call(handle -> ccl4j_cahn_hilliard_copy_field(handle, values));
        }

        @Override
        public void threshold(double threshold, MemorySegment cells) {
            call(handle -> ccl4j_cahn_hilliard_threshold(handle, threshold, cells));
        }

        @Override
        public Physics.Domains label(double threshold, MeshSettings settings, MemorySegment labels) {
            return run((context, handle) -> {
                try (Arena call = Arena.ofConfined()) {
                    MemorySegment options = settings == null ? MemorySegment.NULL
                            : NativeCalls.meshOptions(call, settings);
                    MemorySegment out = ccl4j_cahn_hilliard_domains.allocate(call);
                    MemorySegment timings = ccl4j_timings.allocate(call);
                    engine.calls().check(ccl4j_cahn_hilliard_label(handle, threshold, options, labels, out, timings),
                            context);
                    return new Physics.Domains(ccl4j_cahn_hilliard_domains.domains(out),
                            ccl4j_cahn_hilliard_domains.foreground(out), ccl4j_cahn_hilliard_domains.largest(out),
                            ccl4j_cahn_hilliard_domains.mean_size(out), ccl4j_timings.total_ms(timings));
                }
            });
        }

        @Override
        void destroy(MemorySegment handle) {
            ccl4j_cahn_hilliard_destroy(handle);
        }
    }
}
