package org.ccl4j.engine.nativelib;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import org.ccl4j.engine.spi.AlgorithmInfo;
import org.ccl4j.engine.spi.AlgorithmTable;
import org.ccl4j.engine.spi.ComponentOrder;
import org.ccl4j.engine.spi.ContactRows;
import org.ccl4j.engine.spi.ContactSettings;
import org.ccl4j.engine.spi.DeviceGraphRef;
import org.ccl4j.engine.spi.DistanceMethod;
import org.ccl4j.engine.spi.DistanceRows;
import org.ccl4j.engine.spi.EdgeData;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GraphSettings;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.LabelCounts;
import org.ccl4j.engine.spi.LabelsRef;
import org.ccl4j.engine.spi.MemoryFigures;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.engine.spi.Progress;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.engine.spi.SizeBinning;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.engine.spi.WideCounts;
import org.ccl4j.internal.Failures;
import org.ccl4j.internal.UninitializedMemory;
import org.ccl4j.internal.ffi.ccl4j_csr;
import org.ccl4j.internal.ffi.ccl4j_label_array;
import org.ccl4j.internal.ffi.ccl4j_label_summary;
import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * The engine of the native library (CUDA, CPU_PARALLEL, CPU_SERIAL): the owner of a native context,
 * of the lock that serialises its calls (a context serves one thread at a time), and of the graphs
 * uploaded through it. The algorithms the JVM runs (the union-finds of the {@link AlgorithmTable}
 * marked {@code jvm}) it hands to the JVM engine, and so the int64 book-keeping, which the native
 * library does not have.
 */
public final class NativeEngine implements Engine {
    private final MemorySegment context;
    private final String backend;
    /** Whether the context has a GPU: device memory, page-locked labels, device-resident graphs. */
    private final boolean gpu;
    private final int[] devices;
    private final Engine jvm;
    private final AlgorithmTable algorithms;
    private final NativeCalls calls;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<DeviceGraph> deviceGraphs = new ArrayList<>();
    private final List<NativePhysics.Simulation> simulations = new ArrayList<>();
    private boolean closed;
    // Counts labellings of device graphs, so that labels left on the device know when a later
    // labelling has replaced them; -1 entries: none left there yet.
    private long deviceRun;
    private int deviceLabelCount = -1;

    /**
     * Opens a context on {@code backend} (an API name; AUTO resolved by the library) and the CUDA
     * {@code devices} (one or more, repeats allowed; the other backends ignore them); {@code jvm}
     * runs the table's JVM algorithms.
     *
     * @throws RuntimeException what {@code failures} make of BACKEND_UNAVAILABLE and other failures
     */
    public NativeEngine(String backend, int[] devices, Engine jvm, AlgorithmTable algorithms, Failures failures) {
        this.calls = new NativeCalls(failures);
        this.context = calls.createContext(backend, devices);
        this.backend = Abi.backendName(ccl4j_context_backend(context));
        this.gpu = ccl4j_context_backend(context) == CCL4J_BACKEND_CUDA();
        this.devices = calls.contextDevices(context);
        this.jvm = jvm;
        this.algorithms = algorithms;
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public int[] devices() {
        return devices.clone();
    }

    @Override
    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code body} with the context, serialised with the engine's other calls, refused once closed. */
    <T> T locked(Function<MemorySegment, T> body) {
        lock.lock();
        try {
            return body.apply(openContext());
        } finally {
            lock.unlock();
        }
    }

    ReentrantLock lock() {
        return lock;
    }

    /** The context, for a caller that holds the lock; refused once closed. */
    MemorySegment openContext() {
        if (closed) {
            throw new IllegalStateException("this ComponentLabeler is closed");
        }
        return context;
    }

    /** Takes a simulation made on this context, to be freed before the context. */
    void adopt(NativePhysics.Simulation simulation) {
        lock.lock();
        try {
            simulations.add(simulation);
        } finally {
            lock.unlock();
        }
    }

    /** Frees a simulation of this context (waiting for a running call); nothing when it is freed already. */
    void free(NativePhysics.Simulation simulation) {
        lock.lock();
        try {
            if (simulations.remove(simulation)) {
                simulation.free();
            }
        } finally {
            lock.unlock();
        }
    }

    NativeCalls calls() {
        return calls;
    }

    @Override
    public MemorySegment allocateLabels(Arena arena, long count, int labelBytes) {
        long bytes = Math.max(1L, count) * labelBytes;
        return gpu ? HostAllocation.pinned(arena, bytes, calls)
                : UninitializedMemory.allocate(arena, bytes, labelBytes);
    }

    @Override
    public MemorySegment scratchInts(Arena scratch, long count) {
        return scratch.allocate(ValueLayout.JAVA_INT, Math.max(1, count));
    }

    // ---- graphs and edge lists --------------------------------------------------------------------

    /** Whether the JVM engine runs {@code algorithm} of {@code kind}; else checked to run on this backend. */
    private boolean onJvm(AlgorithmInfo.Kind kind, String algorithm) {
        return !algorithm.equals("AUTO") && algorithms.require(kind, algorithm, backend).jvm();
    }

    @Override
    public RunTimings labelGraph(GraphData graph, GraphSettings settings, MemorySegment labels) {
        if (onJvm(AlgorithmInfo.Kind.GRAPH, settings.algorithm())) {
            return jvm.labelGraph(graph, settings, labels);
        }
        // no listener, no stub: the library reports to none
        ProgressUpcall progress = settings.progress() == Progress.NONE ? null
                : new ProgressUpcall(settings.progress());
        return locked(context -> {
            try (Arena call = Arena.ofConfined(); Arena upcall = progress == null ? null : Arena.ofShared()) {
                MemorySegment timings = ccl4j_timings.allocate(call);
                MemorySegment options = NativeCalls.options(call, settings, settings.checkInput(),
                        progress == null ? MemorySegment.NULL : progress.stub(upcall));
                int status = ccl4j_label_graph(context, NativeCalls.csr(call, graph), graph.offsets(), graph.neighbors(),
                        options, labels, timings);
                if (progress == null) {
                    calls.check(status, context);
                } else {
                    progress.afterCall(() -> calls.check(status, context));
                }
                return NativeCalls.timings(timings);
            }
        });
    }

    @Override
    public void checkGraph(GraphData graph, boolean symmetry) {
        if (!symmetry) {
            jvm.checkGraph(graph, false);
            return;
        }
        locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                calls.check(ccl4j_check_graph(context, NativeCalls.csr(call, graph), graph.offsets(),
                        graph.neighbors()), context);
                return null;
            }
        });
    }

    @Override
    public RunTimings labelEdges(EdgeData edges, GraphSettings settings, MemorySegment labels) {
        if (algorithms.runsEdgesOnJvm(settings.algorithm())) {
            return jvm.labelEdges(edges, settings, labels);
        }
        return locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment timings = ccl4j_timings.allocate(call);
                calls.check(ccl4j_label_edges(context, NativeCalls.edges(call, edges), edges.sources(),
                        edges.targets(), NativeCalls.options(call, settings, settings.checkInput()), labels, timings),
                        context);
                return NativeCalls.timings(timings);
            }
        });
    }

    @Override
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets, GraphSettings settings) {
        if (algorithms.runsEdgesOnJvm(settings.algorithm())) {
            return jvm.labelEdges(vertexCount, sources, targets, settings);
        }
        // native code cannot read the Java heap: the ids go off-heap once, the labels come back once
        try (Arena call = Arena.ofConfined()) {
            EdgeData edges = new EdgeData(vertexCount, sources.length, 1, call.allocateFrom(ValueLayout.JAVA_INT,
                    sources), call.allocateFrom(ValueLayout.JAVA_INT, targets));
            MemorySegment labels = call.allocate(ValueLayout.JAVA_INT, Math.max(1, vertexCount));
            labelEdges(edges, settings, labels);
            return labels.asSlice(0, (long) vertexCount * Integer.BYTES).toArray(ValueLayout.JAVA_INT);
        }
    }

    @Override
    public GraphData buildGraph(EdgeData edges, Arena arena) {
        return locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment shape = ccl4j_csr.allocate(call);
                MemorySegment buildOut = call.allocate(ValueLayout.ADDRESS);  // zeroed: NULL unless made
                int status = ccl4j_csr_build_create(context, NativeCalls.edges(call, edges), edges.sources(),
                        edges.targets(), buildOut, shape);
                MemorySegment build = Abi.pointer(buildOut);
                try {
                    calls.check(status, context);
                    int n = (int) ccl4j_csr.vertex_count(shape);
                    long arcs = ccl4j_csr.arc_count(shape);
                    int width = ccl4j_csr.offset_width(shape);
                    // not zeroed: the build writes every entry; at least a byte, as malloc(0) may be NULL
                    MemorySegment offsets = UninitializedMemory.allocate(arena, (n + 1L) * width, width);
                    MemorySegment neighbors = UninitializedMemory.allocate(arena, Math.max(1, arcs) * Integer.BYTES,
                            Integer.BYTES).asSlice(0, arcs * Integer.BYTES);
                    calls.check(ccl4j_csr_build_write(context, build, offsets, neighbors), context);
                    return new GraphData(n, arcs, width, offsets, neighbors);
                } finally {
                    ccl4j_csr_build_destroy(build);
                }
            }
        });
    }

    @Override
    public GraphData inducedSubgraph(GraphData graph, MemorySegment vertices, int count, Arena target) {
        return locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment csr = NativeCalls.csr(call, graph);
                MemorySegment arcs = call.allocate(ValueLayout.JAVA_LONG);
                calls.check(ccl4j_induced_subgraph(context, csr, graph.offsets(), graph.neighbors(), vertices, count, 4,
                        MemorySegment.NULL, MemorySegment.NULL, 0, arcs), context);
                long arcCount = arcs.get(ValueLayout.JAVA_LONG, 0);
                int width = arcCount < Integer.MAX_VALUE ? Integer.BYTES : Long.BYTES;
                MemorySegment offsets = target.allocate((long) (count + 1) * width, width);
                MemorySegment neighbors = target.allocate(ValueLayout.JAVA_INT, Math.max(1, arcCount));
                calls.check(ccl4j_induced_subgraph(context, csr, graph.offsets(), graph.neighbors(), vertices, count,
                        width, offsets, neighbors, arcCount, arcs), context);
                return new GraphData(count, arcCount, width, offsets, neighbors.asSlice(0, arcCount * Integer.BYTES));
            }
        });
    }

    /** A graph in this engine's GPU memory: its handle, freed at most once. */
    private static final class DeviceGraph implements DeviceGraphRef {
        final MemorySegment handle;
        final int vertexCount;
        final long arcCount;
        final double uploadMs;

        DeviceGraph(MemorySegment handle, int vertexCount, long arcCount, double uploadMs) {
            this.handle = handle;
            this.vertexCount = vertexCount;
            this.arcCount = arcCount;
            this.uploadMs = uploadMs;
        }

        @Override
        public int vertexCount() {
            return vertexCount;
        }

        @Override
        public long arcCount() {
            return arcCount;
        }

        @Override
        public double uploadMs() {
            return uploadMs;
        }
    }

    @Override
    public DeviceGraphRef upload(GraphData graph, boolean checked) {
        if (!gpu) {
            throw new UnsupportedOperationException("device-resident graphs need the CUDA backend; this labeler runs on "
                    + backend);
        }
        return locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment out = call.allocate(ValueLayout.ADDRESS);
                MemorySegment h2d = call.allocate(ValueLayout.JAVA_DOUBLE);
                MemorySegment csr = NativeCalls.csr(call, graph);
                if (!checked) {
                    calls.check(ccl4j_check_graph(context, csr, graph.offsets(), graph.neighbors()), context);
                }
                calls.check(ccl4j_device_graph_create(context, csr, graph.offsets(), graph.neighbors(), out, h2d),
                        context);
                DeviceGraph g = new DeviceGraph(Abi.pointer(out), graph.vertexCount(), graph.arcCount(),
                        h2d.get(ValueLayout.JAVA_DOUBLE, 0));
                deviceGraphs.add(g);
                return g;
            }
        });
    }

    /** The device graph {@code graph}, checked to be one of this engine's that is not freed. */
    private DeviceGraph own(DeviceGraphRef graph) {
        if (!(graph instanceof DeviceGraph g) || !deviceGraphs.contains(g)) {
            throw new IllegalArgumentException("the device graph belongs to another labeler, or was closed");
        }
        return g;
    }

    @Override
    public RunTimings labelDeviceGraph(DeviceGraphRef graph, GraphSettings settings, MemorySegment labels) {
        if (onJvm(AlgorithmInfo.Kind.GRAPH, settings.algorithm())) {
            throw new UnsupportedOperationException("a device-resident graph is labelled on the GPU; "
                    + settings.algorithm() + " runs in the JVM");
        }
        return locked(context -> {
            DeviceGraph g = own(graph);
            try (Arena call = Arena.ofConfined()) {
                MemorySegment timings = ccl4j_timings.allocate(call);
                // checked when it was uploaded; the device copy cannot change
                int status = ccl4j_label_device_graph(context, g.handle, NativeCalls.options(call, settings, false),
                        labels, timings);
                deviceRun++;
                deviceLabelCount = -1;
                calls.check(status, context);
                deviceLabelCount = g.vertexCount;
                return NativeCalls.timings(timings);
            }
        });
    }

    @Override
    public void release(DeviceGraphRef graph) {
        lock.lock();
        try {
            if (graph instanceof DeviceGraph g && deviceGraphs.remove(g)) {
                ccl4j_device_graph_destroy(g.handle);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public LabelsRef deviceLabels() {
        return locked(context -> {
            if (deviceLabelCount < 0) {
                throw new IllegalStateException("no labels on the device: label a device-resident graph first");
            }
            return new LabelsRef(null, deviceLabelCount, deviceRun);
        });
    }

    @Override
    public boolean deviceLabelsCurrent(long run) {
        lock.lock();
        try {
            return !closed && run == deviceRun && deviceLabelCount >= 0;
        } finally {
            lock.unlock();
        }
    }

    // ---- meshes -------------------------------------------------------------------------------------

    /** The mesh algorithm's entry, checked to run here with labels of {@code labelBytes}; null for AUTO. */
    private AlgorithmInfo meshAlgorithm(GridData grid, MeshSettings settings, int labelBytes) {
        if (settings.algorithm().equals("AUTO")) {
            return null;  // the registry's choice, which writes either width
        }
        AlgorithmInfo a = algorithms.require(AlgorithmInfo.Kind.MESH, settings.algorithm(), backend);
        if (labelBytes == Long.BYTES) {
            algorithms.requireWide(a.name(), backend, grid.cellCount() > Integer.MAX_VALUE
                    ? grid.describe() + " has " + grid.cellCount() + " cells, more than int32 labels number"
                    : "asked for");
        }
        return a;
    }

    private void requireOffHeap(MemorySegment segment, String what) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException(what + " on the Java heap; the " + backend
                    + " backend needs them off-heap (Grid.allocate, Grid.ofBytes, Grid.ofInts)");
        }
    }

    @Override
    public MemoryFigures meshMemory(GridData grid, MeshSettings settings, int labelBytes) {
        AlgorithmInfo a = meshAlgorithm(grid, settings, labelBytes);
        if (a != null && a.jvm()) {
            return jvm.meshMemory(grid, settings, labelBytes);
        }
        return locked(context -> calls.meshMemory(context, grid, settings, labelBytes));
    }

    @Override
    public RunTimings labelMesh(GridData grid, MeshSettings settings, int labelBytes, MemorySegment labels) {
        AlgorithmInfo a = meshAlgorithm(grid, settings, labelBytes);
        if (a != null && a.jvm()) {
            return jvm.labelMesh(grid, settings, labelBytes, labels);
        }
        requireOffHeap(grid.cells(), "the cells of " + grid.describe() + " are");
        return locked(context -> {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment timings = ccl4j_timings.allocate(call);
                MemorySegment mesh = NativeCalls.mesh(call, grid);
                MemorySegment options = NativeCalls.meshOptions(call, settings);
                calls.check(labelBytes == Long.BYTES
                        ? ccl4j_label_mesh64(context, mesh, grid.cells(), options, labels, timings)
                        : ccl4j_label_mesh(context, mesh, grid.cells(), options, labels, timings), context);
                return NativeCalls.meshTimings(timings);
            }
        });
    }

    @Override
    public StatisticsRun labelMeshWithStatistics(GridData grid, MeshSettings settings, int labelBytes,
                                                 RowNumbering numbering, IntensityData intensity, boolean measures,
                                                 MemorySegment labels, Arena arena) {
        AlgorithmInfo a = meshAlgorithm(grid, settings, labelBytes);
        if (a != null && a.jvm()) {
            return jvm.labelMeshWithStatistics(grid, settings, labelBytes, numbering, intensity, measures, labels, arena);
        }
        requireOffHeap(grid.cells(), "the cells of " + grid.describe() + " are");
        if (intensity != null) {
            requireOffHeap(intensity.values(), "the intensity values are");
        }
        return locked(context -> NativeStatistics.labelMesh(calls, context, grid, settings, labelBytes, numbering,
                intensity, measures, labels, arena));
    }

    @Override
    public StatisticsTable meshStatistics(GridData grid, MeshSettings settings, MemorySegment labels, int labelBytes,
                                          RowNumbering numbering, IntensityData intensity, boolean measures,
                                          MemorySegment out, Arena arena) {
        requireOffHeap(grid.cells(), "the cells of " + grid.describe() + " are");
        if (intensity != null) {
            requireOffHeap(intensity.values(), "the intensity values are");
        }
        return locked(context -> NativeStatistics.mesh(calls, context, grid, settings, labels, labelBytes, numbering,
                intensity, measures, out, arena));
    }

    @Override
    public StatisticsTable graphStatistics(GraphData graph, MemorySegment labels, RowNumbering numbering,
                                           MemorySegment out, Arena arena) {
        return locked(context -> NativeStatistics.graph(calls, context, graph, labels, numbering, out, arena));
    }

    @Override
    public WideCounts wideCounts(MemorySegment labels, long cells) {
        return jvm.wideCounts(labels, cells);
    }

    /** Int64 labels go to the JVM engine: the library's contacts take int32 labels. */
    @Override
    public ContactRows contacts(MemorySegment labels, int labelBytes, ContactSettings settings) {
        if (labelBytes == Long.BYTES) {
            return jvm.contacts(labels, labelBytes, settings);
        }
        return locked(context -> NativeContacts.of(calls, context, labels, settings));
    }

    // ---- distances ------------------------------------------------------------------------------------

    @Override
    public DistanceRows distances(GraphData graph, DistanceMethod method) {
        return locked(context -> NativeDistances.rows(calls, context, graph, method));
    }

    @Override
    public int[] distanceMatrix(GraphData graph, DistanceMethod method) {
        return locked(context -> NativeDistances.matrix(calls, context, graph, method));
    }

    // ---- book-keeping ------------------------------------------------------------------------------------

    /** A native call on a label array: its shape ({@code array}) and its labels (NULL on the device). */
    private interface LabelsCall {
        int run(MemorySegment context, MemorySegment array, MemorySegment labels, MemorySegment count);
    }

    /**
     * Runs one book-keeping call on the labels, under the lock; returns the 64-bit count it reports.
     * Labels on the Java heap are copied into scratch memory first: native code cannot read the heap.
     */
    private long call(LabelsRef labels, LabelsCall body) {
        return locked(context -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment array = ccl4j_label_array.allocate(arena);
                ccl4j_label_array.count(array, labels.count());
                MemorySegment host = MemorySegment.NULL;
                if (labels.onDevice()) {
                    if (labels.deviceRun() != deviceRun || deviceLabelCount < 0) {
                        throw new IllegalStateException("the labels on the device were replaced by a later labelling,"
                                + " or their labeler was closed");
                    }
                    ccl4j_label_array.location(array, CCL4J_LABELS_DEVICE());
                } else {
                    host = labels.alive();
                    if (!host.isNative()) {
                        host = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, labels.count()))
                                .copyFrom(host.asSlice(0, (long) labels.count() * Integer.BYTES));
                    }
                    ccl4j_label_array.location(array, CCL4J_LABELS_HOST());
                }
                MemorySegment count = arena.allocate(ValueLayout.JAVA_LONG);
                calls.check(body.run(context, array, host, count), context);
                return count.get(ValueLayout.JAVA_LONG, 0);
            }
        });
    }

    @Override
    public LabelCounts summary(LabelsRef labels) {
        LabelCounts[] result = new LabelCounts[1];
        call(labels, (context, array, host, count) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment s = ccl4j_label_summary.allocate(arena);
                int status = ccl4j_labels_summary(context, array, host, s);
                if (status == CCL4J_SUCCESS()) {
                    result[0] = new LabelCounts(ccl4j_label_summary.count(s), ccl4j_label_summary.labelled(s),
                            ccl4j_label_summary.components(s), ccl4j_label_summary.largest_size(s),
                            ccl4j_label_summary.largest_label(s), ccl4j_label_summary.smallest_size(s));
                }
                return status;
            }
        });
        return result[0];
    }

    @Override
    public long components(LabelsRef labels, ComponentOrder order, long capacity, MemorySegment componentLabels,
                           MemorySegment sizes) {
        return call(labels, (context, array, host, count) -> ccl4j_labels_components(context, array, host,
                order.code(), capacity, componentLabels, sizes, count));
    }

    @Override
    public long compact(LabelsRef labels, ComponentOrder order, MemorySegment out) {
        return call(labels, (context, array, host, count) -> ccl4j_labels_compact(context, array, host, order.code(),
                out, count));
    }

    @Override
    public long histogram(LabelsRef labels, SizeBinning binning, long capacity, MemorySegment binSizes,
                          MemorySegment binCounts) {
        return call(labels, (context, array, host, count) -> ccl4j_labels_histogram(context, array, host,
                binning.code(), capacity, binSizes, binCounts, count));
    }

    @Override
    public void members(LabelsRef labels, ComponentOrder order, MemorySegment offsets, MemorySegment members) {
        call(labels, (context, array, host, count) -> ccl4j_labels_members(context, array, host, order.code(),
                offsets.byteSize() / Integer.BYTES, offsets, members.byteSize() / Integer.BYTES, members));
    }

    @Override
    public long componentMembers(LabelsRef labels, int label, long capacity, MemorySegment out) {
        return call(labels, (context, array, host, count) -> ccl4j_labels_component_members(context, array, host,
                label, capacity, out, count));
    }

    @Override
    public long filter(LabelsRef labels, int minSize, int maxSize, MemorySegment out) {
        return call(labels, (context, array, host, count) -> ccl4j_labels_filter(context, array, host, minSize,
                maxSize, out, count));
    }

    // ---- physics --------------------------------------------------------------------------------------------

    /** The settings' algorithm, checked to be a native one that runs here (AUTO: the library's choice). */
    private GraphSettings nativeAlgorithm(GraphSettings settings) {
        if (onJvm(AlgorithmInfo.Kind.GRAPH, settings.algorithm())) {
            throw new UnsupportedOperationException("lattice runs need a native algorithm; "
                    + settings.algorithm() + " runs in the JVM");
        }
        return settings;
    }

    @Override
    public Physics.Percolation percolation(Physics.Lattice lattice, GraphSettings settings) {
        return NativePhysics.percolation(this, lattice, nativeAlgorithm(settings));
    }

    @Override
    public Physics.Ising ising(Physics.Lattice lattice, GraphSettings settings, long seed) {
        return NativePhysics.ising(this, lattice, nativeAlgorithm(settings), seed);
    }

    @Override
    public Physics.CahnHilliard cahnHilliard(Physics.FieldParameters parameters) {
        return NativePhysics.cahnHilliard(this, parameters);
    }

    @Override
    public void drawBonds(long bondCount, long seed, long realisation, double p, MemorySegment open) {
        locked(context -> {
            calls.check(ccl4j_draw_bonds(context, bondCount, seed, realisation, p, open), context);
            return null;
        });
    }

    /** Frees the context and every device graph uploaded through it; waits for a running call. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            simulations.forEach(NativePhysics.Simulation::free);
            simulations.clear();
            for (DeviceGraph g : deviceGraphs) {
                ccl4j_device_graph_destroy(g.handle);
            }
            deviceGraphs.clear();
            ccl4j_context_destroy(context);
            jvm.close();
        } finally {
            lock.unlock();
        }
    }
}
