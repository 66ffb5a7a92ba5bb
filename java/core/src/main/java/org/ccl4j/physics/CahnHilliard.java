package org.ccl4j.physics;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.internal.Abi;
import org.ccl4j.internal.ffi.ccl4j_cahn_hilliard_domains;
import org.ccl4j.internal.ffi.ccl4j_cahn_hilliard_info;
import org.ccl4j.internal.ffi.ccl4j_cahn_hilliard_params;
import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * Phase separation of a binary alloy by the Cahn-Hilliard equation
 * {@code dc/dt = m lap(-c + c^3 - K lap(c))}, integrated as Leist, Playne &amp; Hawick 2009 (§3) do:
 * finite differences on a 2D or 3D field of float concentrations, second-order Runge-Kutta steps.
 * The field lives on the backend (on the GPU for CUDA) and its domains, the clusters of cells with
 * {@code c} above a threshold, are labelled there; the CPU and the GPU compute the same bits from the
 * same quench (Philox-4x32-10), so every backend follows the same run. The sum of {@code c} is
 * conserved, with periodic boundaries and with no-flux walls alike.
 */
public final class CahnHilliard implements AutoCloseable {
    /** The boundaries of every axis. */
    public enum Boundary {
        /** Wrap-around. */
        PERIODIC,
        /** Closed walls: no flux of material crosses them (zero normal gradient of c and of the potential). */
        NO_FLUX
    }

    /** The GPU kernel (the CPU backends ignore it). */
    public enum Kernel {
        /** {@link #GLOBAL}, the faster on current GPUs. */
        AUTO,
        /** The paper's kernel A: every thread reads its 13 (25) cells through the read-only cache. */
        GLOBAL,
        /** The paper's kernel B: a tile with a two-cell halo in shared memory, the potential once per cell. */
        SHARED
    }

    /**
     * The equation's parameters; a zero double means its default (dt 0.01, mobility, gradient
     * coefficient K and grid spacing h 1). {@code cpuThreads} 0 means all available.
     */
    public record Parameters(Boundary boundary, Kernel kernel, double dt, double mobility, double gradient,
            double spacing, int cpuThreads) {
        /**
         * Checks the values that do not depend on the field (the stability limit of dt does, and
         * is checked by {@link CahnHilliard#create}).
         *
         * @throws IllegalArgumentException for a negative or non-finite double or a negative thread count
         */
        public Parameters {
            Objects.requireNonNull(boundary, "boundary");
            Objects.requireNonNull(kernel, "kernel");
            check(dt, "dt");
            check(mobility, "mobility");
            check(gradient, "gradient");
            check(spacing, "spacing");
            if (cpuThreads < 0) {
                throw new IllegalArgumentException("cpuThreads must not be negative, got " + cpuThreads);
            }
        }

        private static void check(double value, String name) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(name + " must be finite and not negative (0 for its default), got "
                        + value);
            }
        }

        /** Periodic, the automatic kernel, every default. */
        public static Parameters defaults() {
            return new Parameters(Boundary.PERIODIC, Kernel.AUTO, 0, 0, 0, 0, 0);
        }

        /** With these boundaries. */
        public Parameters withBoundary(Boundary b) {
            return new Parameters(b, kernel, dt, mobility, gradient, spacing, cpuThreads);
        }

        /** With this GPU kernel. */
        public Parameters withKernel(Kernel k) {
            return new Parameters(boundary, k, dt, mobility, gradient, spacing, cpuThreads);
        }

        /** With time step {@code value} (0: the default). */
        public Parameters withDt(double value) {
            return new Parameters(boundary, kernel, value, mobility, gradient, spacing, cpuThreads);
        }

        /** With mobility {@code value} (0: the default). */
        public Parameters withMobility(double value) {
            return new Parameters(boundary, kernel, dt, value, gradient, spacing, cpuThreads);
        }

        /** With gradient energy coefficient K = {@code value} (0: the default). */
        public Parameters withGradient(double value) {
            return new Parameters(boundary, kernel, dt, mobility, value, spacing, cpuThreads);
        }

        /** With grid spacing h = {@code value} (0: the default). */
        public Parameters withSpacing(double value) {
            return new Parameters(boundary, kernel, dt, mobility, gradient, value, cpuThreads);
        }

        /** With {@code threads} CPU threads (0: all available). */
        public Parameters withCpuThreads(int threads) {
            return new Parameters(boundary, kernel, dt, mobility, gradient, spacing, threads);
        }
    }

    /**
     * The domains of one labelling: their number, the cells above the threshold, the largest
     * domain, the mean domain size (cells), the labelling's time, and {@code length}, the mean
     * size's square root in 2D and cube root in 3D (cells).
     */
    public record Domains(long count, long foreground, long largest, double meanSize, double length, double totalMs) {
    }

    private final MemorySegment context;
    private final MemorySegment handle;
    private final Backend backend;
    private final int width;
    private final int height;
    private final int depth;
    private final Parameters parameters;
    private boolean closed;

    private CahnHilliard(MemorySegment context, MemorySegment handle, MemorySegment info) {
        this.context = context;
        this.handle = handle;
        this.backend = PhysicsCalls.resolvedBackend(context);
        MemorySegment p = ccl4j_cahn_hilliard_info.params(info);
        this.width = ccl4j_cahn_hilliard_params.width(p);
        this.height = ccl4j_cahn_hilliard_params.height(p);
        this.depth = ccl4j_cahn_hilliard_params.depth(p);
        this.parameters = new Parameters(
                ccl4j_cahn_hilliard_params.boundary(p) == CCL4J_CH_PERIODIC() ? Boundary.PERIODIC : Boundary.NO_FLUX,
                kernel(ccl4j_cahn_hilliard_params.kernel(p)), ccl4j_cahn_hilliard_params.dt(p),
                ccl4j_cahn_hilliard_params.mobility(p), ccl4j_cahn_hilliard_params.gradient(p),
                ccl4j_cahn_hilliard_params.spacing(p), ccl4j_cahn_hilliard_params.cpu_threads(p));
    }

    /**
     * A {@code width × height × depth} field (depth 1: 2D) of concentration 0 on {@code backend};
     * call {@link #init} to quench it.
     *
     * @throws IllegalArgumentException for extents below 1, more than 2^31 - 1 cells, or a dt beyond
     *         the stability limit of the explicit integration (the message names the limit)
     * @throws UnsupportedOperationException for {@link Backend#JAVA}, which has no such simulation
     */
    public static CahnHilliard create(int width, int height, int depth, Parameters parameters, Backend backend) {
        Objects.requireNonNull(parameters, "parameters");
        MemorySegment context = PhysicsCalls.createContext(backend, Algorithm.AUTO);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment p = ccl4j_cahn_hilliard_params.allocate(call);
            ccl4j_cahn_hilliard_params.width(p, width);
            ccl4j_cahn_hilliard_params.height(p, height);
            ccl4j_cahn_hilliard_params.depth(p, depth);
            ccl4j_cahn_hilliard_params.boundary(p,
                    parameters.boundary() == Boundary.PERIODIC ? CCL4J_CH_PERIODIC() : CCL4J_CH_NO_FLUX());
            ccl4j_cahn_hilliard_params.kernel(p, switch (parameters.kernel()) {
                case AUTO -> CCL4J_CH_KERNEL_AUTO();
                case GLOBAL -> CCL4J_CH_KERNEL_GLOBAL();
                case SHARED -> CCL4J_CH_KERNEL_SHARED();
            });
            ccl4j_cahn_hilliard_params.cpu_threads(p, parameters.cpuThreads());
            ccl4j_cahn_hilliard_params.dt(p, parameters.dt());
            ccl4j_cahn_hilliard_params.mobility(p, parameters.mobility());
            ccl4j_cahn_hilliard_params.gradient(p, parameters.gradient());
            ccl4j_cahn_hilliard_params.spacing(p, parameters.spacing());
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            PhysicsCalls.check(ccl4j_cahn_hilliard_create(context, p, out), context);
            MemorySegment handle = Abi.pointer(out);
            MemorySegment info = ccl4j_cahn_hilliard_info.allocate(call);
            int status = ccl4j_cahn_hilliard_get_info(handle, info);
            if (status != CCL4J_SUCCESS()) {
                ccl4j_cahn_hilliard_destroy(handle);
                PhysicsCalls.check(status, context);
            }
            return new CahnHilliard(context, handle, info);
        } catch (RuntimeException e) {
            ccl4j_context_destroy(context);
            throw e;
        }
    }

    /** The backend the field lives on (AUTO resolved). */
    public Backend backend() {
        return backend;
    }

    /** The extent along x. */
    public int width() {
        return width;
    }

    /** The extent along y. */
    public int height() {
        return height;
    }

    /** 1 for a 2D field. */
    public int depth() {
        return depth;
    }

    /** width × height × depth. */
    public long cellCount() {
        return (long) width * height * depth;
    }

    /** The parameters as resolved: defaults filled in, the kernel resolved on CUDA. */
    public Parameters parameters() {
        return parameters;
    }

    /** Steps since the last {@link #init} or {@link #setField}. */
    public long steps() {
        check();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment info = ccl4j_cahn_hilliard_info.allocate(call);
            PhysicsCalls.check(ccl4j_cahn_hilliard_get_info(handle, info), context);
            return ccl4j_cahn_hilliard_info.steps(info);
        }
    }

    /** The simulated time: steps × dt. */
    public double time() {
        return steps() * parameters.dt();
    }

    /**
     * The quench: {@code c = concentration + noise * (2u - 1)}, {@code u} uniform in [0, 1) from the
     * cell's Philox draw under {@code seed}; resets the step count.
     *
     * @throws IllegalArgumentException for a concentration outside [-1, 1] or noise outside [0, 1]
     */
    public void init(double concentration, double noise, long seed) {
        check();
        PhysicsCalls.check(ccl4j_cahn_hilliard_init(handle, concentration, noise, seed), context);
    }

    /**
     * Sets the field ({@link #cellCount()} values, x fastest); resets the step count.
     *
     * @throws IllegalArgumentException for a wrong length or a value that is not finite
     */
    public void setField(float[] values) {
        Objects.requireNonNull(values, "values");
        check();
        if (values.length != cellCount()) {
            throw new IllegalArgumentException("the field has " + cellCount() + " cells, got " + values.length
                    + " values");
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment copy = call.allocateFrom(ValueLayout.JAVA_FLOAT, values);
            PhysicsCalls.check(ccl4j_cahn_hilliard_set_field(handle, copy), context);
        }
    }

    /** Runs {@code steps} Runge-Kutta steps; returns their time in ms (CUDA events on the GPU). */
    public double step(long steps) {
        check();
        if (steps < 0) {
            throw new IllegalArgumentException("steps must not be negative, got " + steps);
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment ms = call.allocate(ValueLayout.JAVA_DOUBLE);
            PhysicsCalls.check(ccl4j_cahn_hilliard_step(handle, steps, ms), context);
            return ms.get(ValueLayout.JAVA_DOUBLE, 0);
        }
    }

    /** A copy of the field, x fastest (at most 2^31 - 9 cells: a Java array). */
    public float[] field() {
        check();
        if (cellCount() > Integer.MAX_VALUE - 8) {
            throw new UnsupportedOperationException("a field of " + cellCount() + " cells does not fit a Java array;"
                    + " use copyField(MemorySegment)");
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment values = call.allocate(ValueLayout.JAVA_FLOAT, cellCount());
            copyField(values);
            return values.toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    /** Copies the field into {@code values}: native memory of at least {@link #cellCount()} floats. */
    public void copyField(MemorySegment values) {
        check();
        requireOutput(values, cellCount() * Float.BYTES, "values");
        PhysicsCalls.check(ccl4j_cahn_hilliard_copy_field(handle, values), context);
    }

    /**
     * Writes {@code 1} where {@code c > threshold}, else 0, into {@code cells} (native memory of at
     * least {@link #cellCount()} bytes, e.g. the cells of a uint8 {@code Grid}); computed on the backend.
     */
    public void threshold(double threshold, MemorySegment cells) {
        check();
        requireOutput(cells, cellCount(), "cells");
        PhysicsCalls.check(ccl4j_cahn_hilliard_threshold(handle, threshold, cells), context);
    }

    /**
     * The domains of cells with {@code c > threshold}, labelled where the field lies (on the GPU
     * without copying the field or the labels out), with face neighbours, periodic exactly when
     * the field is.
     */
    public Domains label(double threshold) {
        return label(threshold, null, null);
    }

    /**
     * As {@link #label(double)} with {@code options} (their periodic flags as given; null for the
     * defaults above), and the labels written to {@code labels} unless it is null: native memory of
     * at least {@link #cellCount()} int32, canonical as {@code ComponentLabeler} writes them.
     *
     * @throws IllegalArgumentException for options that do not fit the field (a 2D connectivity on
     *         a 3D field), or labels too small, read-only or on the heap
     * @throws UnsupportedOperationException for {@link MeshAlgorithm#JAVA} or an algorithm of another backend
     */
    public Domains label(double threshold, MeshOptions options, MemorySegment labels) {
        check();
        if (labels != null) {
            requireOutput(labels, cellCount() * Integer.BYTES, "labels");
        }
        if (options != null && options.algorithm() == MeshAlgorithm.JAVA) {
            throw new UnsupportedOperationException("the field is labelled natively; MeshAlgorithm.JAVA has no"
                    + " native version");
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment o = options == null ? MemorySegment.NULL
                    : Abi.meshOptions(call, Abi.meshAlgorithmCode(options.algorithm().name()), options.connectivity(),
                            options.periodicX(), options.periodicY(), options.periodicZ(),
                            options.mode() == MeshMode.SAME_VALUE, options.cpuThreads(), options.blockSize(),
                            options.tileSize(), options.maxIterations());
            MemorySegment out = ccl4j_cahn_hilliard_domains.allocate(call);
            MemorySegment timings = ccl4j_timings.allocate(call);
            PhysicsCalls.check(ccl4j_cahn_hilliard_label(handle, threshold, o,
                    labels == null ? MemorySegment.NULL : labels, out, timings), context);
            double mean = ccl4j_cahn_hilliard_domains.mean_size(out);
            return new Domains(ccl4j_cahn_hilliard_domains.domains(out), ccl4j_cahn_hilliard_domains.foreground(out),
                    ccl4j_cahn_hilliard_domains.largest(out), mean, depth > 1 ? Math.cbrt(mean) : Math.sqrt(mean),
                    ccl4j_timings.total_ms(timings));
        }
    }

    private static Kernel kernel(int code) {
        if (code == CCL4J_CH_KERNEL_GLOBAL()) {
            return Kernel.GLOBAL;
        }
        return code == CCL4J_CH_KERNEL_SHARED() ? Kernel.SHARED : Kernel.AUTO;
    }

    private static void requireOutput(MemorySegment segment, long bytes, String name) {
        Objects.requireNonNull(segment, name);
        if (!segment.isNative() || segment.isReadOnly()) {
            throw new IllegalArgumentException(name + " must be writable native memory");
        }
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException(name + " holds " + segment.byteSize() + " bytes, the field needs "
                    + bytes);
        }
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("the Cahn-Hilliard field is closed");
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ccl4j_cahn_hilliard_destroy(handle);
            ccl4j_context_destroy(context);
        }
    }
}
