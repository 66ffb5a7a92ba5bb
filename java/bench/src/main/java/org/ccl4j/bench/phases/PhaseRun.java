package org.ccl4j.bench.phases;

import static org.ccl4j.bench.ffi.ccl4j_bench_h.*;
import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.CsrGraph;
import org.ccl4j.Grid;
import org.ccl4j.MeshOptions;
import org.ccl4j.engine.nativelib.Abi;

/**
 * The phases of one algorithm on one graph, run one at a time so that each can be timed alone
 * (the per-phase runs of {@code ccl4j/bench.h}); for the benchmarks, not part of the API.
 *
 * <p>On CUDA the graph is uploaded once and the phases run on the device; on the CPU backends the
 * phases (ECL-CC's init, compute, finalize; Hawick's kernels, his CPU reference and Komura's
 * algorithm as {@code ccl4j/bench.h} lists them) run on the graph's own memory, which must stay open
 * while the run is. A phase mutates the state: run phase {@code i} right after
 * {@link #reset(int) reset(i)} or after phase {@code i - 1}; running every phase in order labels
 * the graph, as {@link #labels()} then shows. {@link #openMesh} does the same for a mesh algorithm
 * on a {@link Grid}.
 */
public final class PhaseRun implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment deviceGraph;
    private final MemorySegment run;
    private final int vertexCount;
    private final List<String> phases;
    private final MemorySegment msOut;
    private final MemorySegment iterationsOut;
    private boolean closed;

    private PhaseRun(MemorySegment context, MemorySegment deviceGraph, MemorySegment run, int vertexCount) {
        this.context = context;
        this.deviceGraph = deviceGraph;
        this.run = run;
        this.vertexCount = vertexCount;
        this.msOut = arena.allocate(ValueLayout.JAVA_DOUBLE);
        this.iterationsOut = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
        Native.check(ccl4j_phase_run_count(context, run, count), context);
        List<String> names = new ArrayList<>();
        MemorySegment name = arena.allocate(CCL4J_PHASE_NAME_SIZE());
        for (int i = 0; i < count.get(ValueLayout.JAVA_INT, 0); i++) {
            Native.check(ccl4j_phase_run_name(context, run, i, name), context);
            names.add(name.getString(0));
        }
        this.phases = List.copyOf(names);
    }

    /**
     * Prepares the phases of {@code algorithm} on {@code graph} for {@code backend} (CUDA, CPU_PARALLEL
     * or CPU_SERIAL; on CUDA, device {@code device}).
     *
     * @throws IllegalArgumentException for an empty graph or a backend without native phases
     * @throws UnsupportedOperationException for an algorithm without per-phase runs on the backend
     * @throws org.ccl4j.BackendUnavailableException when the backend cannot be used here
     */
    public static PhaseRun open(Backend backend, int device, CsrGraph graph, Algorithm algorithm) {
        int backendCode = Native.backendCode(backend);
        int algorithmCode = Native.algorithmCode(algorithm);
        MemorySegment context = Native.createContext(backendCode, device);
        MemorySegment deviceGraph = MemorySegment.NULL;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment csr = Native.csr(call, graph);
            MemorySegment offsets = graph.offsets();
            MemorySegment neighbors = graph.neighbors();
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            if (backend == Backend.CUDA) {
                Native.check(ccl4j_device_graph_create(context, csr, offsets, neighbors, out, MemorySegment.NULL),
                        context);
                deviceGraph = out.get(ValueLayout.ADDRESS, 0);
                csr = offsets = neighbors = MemorySegment.NULL;
            }
            // zeros: the library's defaults for every option but the algorithm
            MemorySegment options = Abi.labelOptions(call, algorithmCode, false, 0, 0, 0, 0, 0, 0, MemorySegment.NULL);
            Native.check(ccl4j_phase_run_create(context, deviceGraph, csr, offsets, neighbors, options, out), context);
            return new PhaseRun(context, deviceGraph, out.get(ValueLayout.ADDRESS, 0), graph.vertexCount());
        } catch (RuntimeException e) {
            ccl4j_device_graph_destroy(deviceGraph);
            ccl4j_context_destroy(context);
            throw e;
        }
    }

    /**
     * Prepares the phases of {@code options.algorithm()} (AUTO: the backend's default) on a mesh,
     * for {@code backend} (CUDA, CPU_PARALLEL or CPU_SERIAL; on CUDA, device {@code device}). On
     * CUDA the cells are copied to the device here; on the CPU backends the phases read the grid's
     * cells, which must stay open and unchanged while the run is (a strided grid's cells are packed
     * into a copy of the run's own). The labels have one entry per cell.
     *
     * @throws IllegalArgumentException for a bad grid or options, or the Java mesh algorithm
     * @throws UnsupportedOperationException for an algorithm that does not run on the backend
     * @throws org.ccl4j.BackendUnavailableException when the backend cannot be used here
     */
    public static PhaseRun openMesh(Backend backend, int device, Grid grid, MeshOptions options) {
        if (grid.cellCount() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("per-phase runs write int32 labels: at most " + Integer.MAX_VALUE
                    + " cells, " + grid + " has " + grid.cellCount());
        }
        int backendCode = Native.backendCode(backend);
        MemorySegment context = Native.createContext(backendCode, device);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            Native.check(ccl4j_phase_run_create_mesh(context, Native.mesh(call, grid), grid.cells(),
                    Native.meshOptions(call, options, options.algorithm()), out),
                    context);
            return new PhaseRun(context, MemorySegment.NULL, out.get(ValueLayout.ADDRESS, 0), (int) grid.cellCount());
        } catch (RuntimeException e) {
            ccl4j_context_destroy(context);
            throw e;
        }
    }

    /** The phase names, in order. */
    public List<String> phases() {
        return phases;
    }

    /** The index of the phase called {@code name}; the exception lists the names there are. */
    public int phase(String name) {
        int i = phases.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException("no phase '" + name + "'; the phases are " + phases);
        }
        return i;
    }

    /** Runs phases {@code 0..phase-1} (untimed): the state phase {@code phase} starts from. */
    public void reset(int phase) {
        ensureOpen();
        Native.check(ccl4j_phase_run_reset(context, run, phase), context);
    }

    /**
     * Runs phase {@code phase} once and waits for it; returns its time in ms as the native side
     * measured it (CUDA events on the GPU, a steady clock on the CPU).
     */
    public double run(int phase) {
        ensureOpen();
        Native.check(ccl4j_phase_run_phase(context, run, phase, msOut, iterationsOut), context);
        return msOut.get(ValueLayout.JAVA_DOUBLE, 0);
    }

    /** The launches of the fixpoint loop of the phase run last, 0 when it has none. */
    public int lastIterations() {
        return iterationsOut.get(ValueLayout.JAVA_INT, 0);
    }

    /** The labels as the phases left them: canonical after the last phase. */
    public int[] labels() {
        ensureOpen();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment labels = call.allocate(ValueLayout.JAVA_INT, vertexCount);
            Native.check(ccl4j_phase_run_labels(context, run, labels), context);
            return labels.toArray(ValueLayout.JAVA_INT);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the phase run is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ccl4j_phase_run_destroy(run);
        ccl4j_device_graph_destroy(deviceGraph);
        ccl4j_context_destroy(context);
        arena.close();
    }
}
