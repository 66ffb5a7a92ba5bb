package org.ccl4j.physics;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.ccl4j.Backend;
import org.ccl4j.GridDims;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.engine.spi.Progress;

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
     *
     * @param boundary the boundaries of every axis
     * @param kernel the GPU kernel
     * @param dt the time step (0: 0.01)
     * @param mobility the mobility m (0: 1)
     * @param gradient the gradient energy coefficient K (0: 1)
     * @param spacing the grid spacing h (0: 1)
     * @param cpuThreads the threads of the CPU backends (0: all available)
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

        /**
         * Periodic, the automatic kernel, every default.
         *
         * @return the default parameters
         */
        public static Parameters defaults() {
            return new Parameters(Boundary.PERIODIC, Kernel.AUTO, 0, 0, 0, 0, 0);
        }

        /**
         * With these boundaries.
         *
         * @param b the boundaries of every axis
         * @return these parameters with {@code b}
         */
        public Parameters withBoundary(Boundary b) {
            return new Parameters(b, kernel, dt, mobility, gradient, spacing, cpuThreads);
        }

        /**
         * With this GPU kernel.
         *
         * @param k the GPU kernel
         * @return these parameters with {@code k}
         */
        public Parameters withKernel(Kernel k) {
            return new Parameters(boundary, k, dt, mobility, gradient, spacing, cpuThreads);
        }

        /**
         * With time step {@code value} (0: the default).
         *
         * @param value the time step, or 0 for the default
         * @return these parameters with time step {@code value}
         */
        public Parameters withDt(double value) {
            return new Parameters(boundary, kernel, value, mobility, gradient, spacing, cpuThreads);
        }

        /**
         * With mobility {@code value} (0: the default).
         *
         * @param value the mobility, or 0 for the default
         * @return these parameters with mobility {@code value}
         */
        public Parameters withMobility(double value) {
            return new Parameters(boundary, kernel, dt, value, gradient, spacing, cpuThreads);
        }

        /**
         * With gradient energy coefficient K = {@code value} (0: the default).
         *
         * @param value the gradient energy coefficient, or 0 for the default
         * @return these parameters with K = {@code value}
         */
        public Parameters withGradient(double value) {
            return new Parameters(boundary, kernel, dt, mobility, value, spacing, cpuThreads);
        }

        /**
         * With grid spacing h = {@code value} (0: the default).
         *
         * @param value the grid spacing, or 0 for the default
         * @return these parameters with h = {@code value}
         */
        public Parameters withSpacing(double value) {
            return new Parameters(boundary, kernel, dt, mobility, gradient, value, cpuThreads);
        }

        /**
         * With {@code threads} CPU threads (0: all available).
         *
         * @param threads the number of CPU threads, or 0 for all available
         * @return these parameters with {@code threads} CPU threads
         */
        public Parameters withCpuThreads(int threads) {
            return new Parameters(boundary, kernel, dt, mobility, gradient, spacing, threads);
        }
    }

    /**
     * The domains of one labelling: their number, the cells above the threshold, the largest
     * domain, the mean domain size (cells), the labelling's time, and {@code length}, the mean
     * size's square root in 2D and cube root in 3D (cells).
     *
     * @param count the number of domains
     * @param foreground the number of cells above the threshold
     * @param largest the cells of the largest domain
     * @param meanSize the mean domain size, in cells
     * @param length the mean size's square root (2D) or cube root (3D), in cells
     * @param totalMs the labelling's time, in milliseconds
     */
    public record Domains(long count, long foreground, long largest, double meanSize, double length, double totalMs) {
    }

    private final Engine engine;
    private final Physics.CahnHilliard field;
    private final GridDims dims;
    private final Parameters parameters;

    private CahnHilliard(Engine engine, Physics.CahnHilliard field) {
        this.engine = engine;
        this.field = field;
        Physics.FieldParameters p = field.parameters();
        this.dims = new GridDims(p.width(), p.height(), p.depth());
        this.parameters = new Parameters(p.periodic() ? Boundary.PERIODIC : Boundary.NO_FLUX,
                Kernel.values()[p.kernel()], p.dt(), p.mobility(), p.gradient(), p.spacing(), p.cpuThreads());
    }

    /**
     * A {@code width × height × depth} field (depth 1: 2D) of concentration 0 on {@code backend};
     * call {@link #init} to quench it.
     *
     * @param width the extent along x
     * @param height the extent along y
     * @param depth the extent along z, 1 for a 2D field
     * @param parameters the equation's parameters
     * @param backend the backend the field lives on, a native one ({@link Backend#AUTO} resolved as by
     *                {@link org.ccl4j.ComponentLabeler#create()})
     * @return the new field; close it to free its memory
     * @throws IllegalArgumentException for extents below 1, more than 2^31 - 1 cells, or a dt beyond
     *         the stability limit of the explicit integration (the message names the limit)
     * @throws UnsupportedOperationException for {@link Backend#JAVA}, which has no such simulation
     * @throws org.ccl4j.Ccl4jException (OUT_OF_MEMORY) before anything is allocated when the host or
     *         the device has not the memory for the field and its working arrays, naming both figures
     */
    public static CahnHilliard create(int width, int height, int depth, Parameters parameters, Backend backend) {
        Objects.requireNonNull(parameters, "parameters");
        Engine engine = BondPercolation.open(backend);
        try {
            return new CahnHilliard(engine, engine.cahnHilliard(new Physics.FieldParameters(width, height, depth,
                    parameters.boundary() == Boundary.PERIODIC, parameters.kernel().ordinal(), parameters.dt(),
                    parameters.mobility(), parameters.gradient(), parameters.spacing(), parameters.cpuThreads())));
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /**
     * The backend the field lives on (AUTO resolved).
     *
     * @return the resolved backend
     */
    public Backend backend() {
        return Backend.valueOf(engine.backend());
    }

    /**
     * The extent along x.
     *
     * @return the width
     */
    public int width() {
        return dims.width();
    }

    /**
     * The extent along y.
     *
     * @return the height
     */
    public int height() {
        return dims.height();
    }

    /**
     * 1 for a 2D field.
     *
     * @return the depth
     */
    public int depth() {
        return dims.depth();
    }

    /**
     * The field's dimensions.
     *
     * @return the width, height and depth
     */
    public GridDims dims() {
        return dims;
    }

    /**
     * width × height × depth.
     *
     * @return the number of cells
     */
    public long cellCount() {
        return dims.cellCount();
    }

    /**
     * The parameters as resolved: defaults filled in, the kernel resolved on CUDA.
     *
     * @return the resolved parameters
     */
    public Parameters parameters() {
        return parameters;
    }

    /**
     * Steps since the last {@link #init} or {@link #setField}.
     *
     * @return the number of steps taken
     */
    public long steps() {
        return field.steps();
    }

    /**
     * The simulated time: steps × dt.
     *
     * @return the steps taken times dt
     */
    public double time() {
        return steps() * parameters.dt();
    }

    /**
     * The quench: {@code c = concentration + noise * (2u - 1)}, {@code u} uniform in [0, 1) from the
     * cell's Philox draw under {@code seed}; resets the step count.
     *
     * @param concentration the mean concentration c0, in [-1, 1]
     * @param noise the amplitude of the uniform noise around it, in [0, 1]
     * @param seed the generator's key
     * @throws IllegalArgumentException for a concentration outside [-1, 1] or noise outside [0, 1]
     */
    public void init(double concentration, double noise, long seed) {
        field.init(concentration, noise, seed);
    }

    /**
     * Sets the field ({@link #cellCount()} values, x fastest); resets the step count.
     *
     * @param values the concentrations, {@link #cellCount()} of them, x fastest
     * @throws IllegalArgumentException for a wrong length or a value that is not finite
     */
    public void setField(float[] values) {
        Objects.requireNonNull(values, "values");
        if (values.length != cellCount()) {
            throw new IllegalArgumentException("the field has " + cellCount() + " cells, got " + values.length
                    + " values");
        }
        try (Arena call = Arena.ofConfined()) {
            field.setField(call.allocateFrom(ValueLayout.JAVA_FLOAT, values));
        }
    }

    /**
     * Runs {@code steps} Runge-Kutta steps; returns their time in ms (CUDA events on the GPU).
     * Another thread's {@link #close()} waits for it.
     *
     * @param steps the number of steps to run
     * @return their time in milliseconds
     * @throws org.ccl4j.Ccl4jException with status {@code NOT_CONVERGED} when the field is no longer
     *         finite after these steps (it diverged: it was set far outside [-1, 1]); the message
     *         names the first such cell, the steps still count, and the field stays as it is until
     *         {@link #init} or {@link #setField}
     */
    public double step(long steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("steps must not be negative, got " + steps);
        }
        return field.step(steps);
    }

    /**
     * A copy of the field, x fastest (at most 2^31 - 9 cells: a Java array).
     *
     * @return the concentrations, x fastest
     */
    public float[] field() {
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

    /**
     * Copies the field into {@code values}: native memory of at least {@link #cellCount()} floats.
     *
     * @param values native memory for at least {@link #cellCount()} floats
     */
    public void copyField(MemorySegment values) {
        requireOutput(values, cellCount() * Float.BYTES, "values");
        field.copyField(values);
    }

    /**
     * Writes {@code 1} where {@code c > threshold}, else 0, into {@code cells} (native memory of at
     * least {@link #cellCount()} bytes, e.g. the cells of a uint8 {@code Grid}); computed on the backend.
     *
     * @param threshold the concentration above which a cell is 1
     * @param cells native memory for at least {@link #cellCount()} bytes
     */
    public void threshold(double threshold, MemorySegment cells) {
        requireOutput(cells, cellCount(), "cells");
        field.threshold(threshold, cells);
    }

    /**
     * The domains of cells with {@code c > threshold}, labelled where the field lies (on the GPU
     * without copying the field or the labels out), with face neighbours, periodic exactly when
     * the field is.
     *
     * @param threshold the concentration above which a cell belongs to a domain
     * @return the number of domains, their sizes and the labelling's time
     */
    public Domains label(double threshold) {
        return label(threshold, null, null);
    }

    /**
     * As {@link #label(double)} with {@code options} (their periodic flags as given; null for the
     * defaults above), and the labels written to {@code labels} unless it is null: native memory of
     * at least {@link #cellCount()} int32, canonical as {@code ComponentLabeler} writes them.
     *
     * @param threshold the concentration above which a cell belongs to a domain
     * @param options the mesh options (connectivity, algorithm, periodic flags as given), or null for
     *                face neighbours, periodic as the field is
     * @param labels native memory for at least {@link #cellCount()} int32 labels, or null
     * @return the number of domains, their sizes and the labelling's time
     * @throws IllegalArgumentException for options that do not fit the field (a 2D connectivity on
     *         a 3D field), or labels too small, read-only or on the heap
     * @throws UnsupportedOperationException for {@link MeshAlgorithm#JAVA} or an algorithm of another backend
     */
    public Domains label(double threshold, MeshOptions options, MemorySegment labels) {
        if (labels != null) {
            requireOutput(labels, cellCount() * Integer.BYTES, "labels");
        }
        if (options != null && options.algorithm() == MeshAlgorithm.JAVA) {
            throw new UnsupportedOperationException("the field is labelled natively; MeshAlgorithm.JAVA has no"
                    + " native version");
        }
        // the connectivity as given: the native library fits it to the field (0: face neighbours)
        MeshSettings settings = options == null ? null : new MeshSettings(options.algorithm().name(),
                options.connectivity(), options.periodicX(), options.periodicY(), options.periodicZ(),
                options.mode() == MeshMode.SAME_VALUE, options.delta(), options.cpuThreads(), options.blockSize(), options.tileSize(),
                options.maxIterations(), options.memoryBudget(), Progress.NONE);
        Physics.Domains d = field.label(threshold, settings, labels == null ? MemorySegment.NULL : labels);
        return new Domains(d.count(), d.foreground(), d.largest(), d.meanSize(),
                dims.is3d() ? Math.cbrt(d.meanSize()) : Math.sqrt(d.meanSize()), d.totalMs());
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

    /** Frees the field; waits for a step or labelling running on another thread. */
    @Override
    public void close() {
        field.close();
        engine.close();
    }
}
