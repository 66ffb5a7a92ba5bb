package org.ccl4j;

import static org.ccl4j.internal.ffi.ccl4j_h.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import org.ccl4j.internal.ffi.ccl4j_timings;

/**
 * Labels the connected components of graphs, and the clusters of 2D and 3D meshes
 * ({@link Grid}), on one backend.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *      ComponentLabeler labeler = ComponentLabeler.create()) {
 *     CsrGraph graph = GraphReader.read(Path.of("graph.mtx"), GraphFormat.AUTO, ReadOptions.defaults(), arena).graph();
 *     Labels labels = labeler.label(graph);
 *     System.out.println(labels.count() + " components");
 * }
 * }</pre>
 *
 * <p>A labeler holds a native context (a CUDA stream and device buffers that are reused from call
 * to call) and must be closed. It may be shared between threads: calls are serialised, since a
 * native context serves one thread at a time.
 */
public final class ComponentLabeler implements AutoCloseable {
    private final Backend backend;
    private final int device;
    private final MemorySegment context;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<DeviceGraph> deviceGraphs = new ArrayList<>();
    private boolean closed;
    // Counts labellings of device-resident graphs, so that labels left on the device know when a
    // later labelling has replaced them; -1 vertices: none left there yet.
    private long deviceLabelling;
    private int deviceLabelCount = -1;

    private ComponentLabeler(Backend backend, int device, MemorySegment context) {
        this.backend = backend;
        this.device = device;
        this.context = context;
    }

    /**
     * A labeler on the best backend available: CUDA when a device is present, else CPU_PARALLEL,
     * and JAVA when the native library cannot be loaded or started here (or is turned off with
     * {@code -Dccl4j.native=false}), which is logged once as a warning.
     */
    public static ComponentLabeler create() {
        return create(Backend.AUTO, 0);
    }

    /** A labeler on {@code backend} (device 0 for CUDA). */
    public static ComponentLabeler create(Backend backend) {
        return create(backend, 0);
    }

    /**
     * A labeler on {@code backend}; {@code device} selects the CUDA device.
     *
     * @throws BackendUnavailableException when the backend cannot run here (no CUDA device or
     *                                     driver, or no native library for this platform)
     */
    public static ComponentLabeler create(Backend backend, int device) {
        Objects.requireNonNull(backend, "backend");
        if (device < 0) {
            throw new IllegalArgumentException("device index must not be negative, got " + device);
        }
        if (backend == Backend.JAVA) {
            return new ComponentLabeler(Backend.JAVA, -1, MemorySegment.NULL);
        }
        try {
            NativeCalls.requireLibrary();
            try (Arena call = Arena.ofConfined()) {
                MemorySegment out = call.allocate(ValueLayout.ADDRESS);
                NativeCalls.check(ccl4j_context_create(NativeCalls.code(backend), device, out), MemorySegment.NULL);
                MemorySegment context = NativeCalls.pointer(out);
                Backend resolved = NativeCalls.backend(ccl4j_context_backend(context));
                return new ComponentLabeler(resolved, resolved == Backend.CUDA ? device : -1, context);
            }
        } catch (Ccl4jException e) { // BackendUnavailableException among them
            if (backend != Backend.AUTO) {
                throw e;
            }
            warnOfFallback(e.getMessage());
            return new ComponentLabeler(Backend.JAVA, -1, MemorySegment.NULL);
        }
    }

    private static final AtomicBoolean WARNED_OF_FALLBACK = new AtomicBoolean();

    /** Says once per JVM that AUTO runs on the Java backend, and why. */
    private static void warnOfFallback(String reason) {
        if (WARNED_OF_FALLBACK.compareAndSet(false, true)) {
            System.getLogger("org.ccl4j").log(System.Logger.Level.WARNING,
                    "ccl4j labels on the JAVA backend: " + reason);
        }
    }

    /** What this installation can do: version, backends, CUDA devices. */
    public static Capabilities capabilities() {
        return NativeCalls.capabilities();
    }

    /** The backend this labeler runs on ({@link Backend#AUTO} resolved). */
    public Backend backend() {
        return backend;
    }

    /** The CUDA device index, or -1 for the CPU backends. */
    public int device() {
        return device;
    }

    /** Labels {@code graph} with the default options; the labels live until they are garbage. */
    public Labels label(CsrGraph graph) {
        return label(graph, LabelOptions.defaults());
    }

    /**
     * Labels {@code graph}; the labels are on the Java heap, freed by the garbage collector like
     * any array. The native memory the labelling needs is freed before this returns.
     */
    public Labels label(CsrGraph graph, LabelOptions options) {
        try (Arena call = Arena.ofConfined()) {
            return label(graph, options, call).copyToHeap();
        }
    }

    /**
     * Labels {@code graph}, allocating the labels in {@code arena} (page-locked memory on CUDA, so
     * the copy back is DMA).
     *
     * @throws IllegalArgumentException        when the graph is malformed (with input checks on)
     *                                         or the options do not fit the backend
     * @throws UnsupportedOperationException   when the algorithm does not run on this backend
     * @throws Ccl4jException                  on a native failure (device error, out of memory)
     */
    public Labels label(CsrGraph graph, LabelOptions options, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return label(graph, options, allocateLabels(arena, graph.vertexCount(), Integer.BYTES));
    }

    /**
     * Labels {@code graph} into a buffer of the caller's: {@code labels} must be a native segment
     * of at least {@code vertexCount} ints (page-locked memory from {@link PinnedMemory} makes the
     * copy back from the GPU a DMA). Reusing one buffer avoids an allocation per call.
     */
    public Labels label(CsrGraph graph, LabelOptions options, MemorySegment labels) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(options, "options");
        checkLabels(labels, graph.vertexCount(), Integer.BYTES, "the graph has " + graph.vertexCount() + " vertices");
        long bytes = (long) graph.vertexCount() * Integer.BYTES;
        checkDisjoint(labels, bytes, graph.offsets(), "the graph's offsets");
        checkDisjoint(labels, bytes, graph.neighbors(), "the graph's neighbours");
        Algorithm algorithm = resolve(options.algorithm());
        boolean check = graph.needsCheck(options);
        if (algorithm == Algorithm.UNION_FIND) {
            if (check) {
                graph.check();
            }
            return new Labels(labels, graph.vertexCount(),
                    ParallelUnionFind.label(graph, labels, options.cpuThreads()), this);
        }
        lock.lock();
        try (Arena call = Arena.ofConfined()) {
            ensureOpen();
            MemorySegment timings = ccl4j_timings.allocate(call);
            int status = ccl4j_label_graph(context, NativeCalls.csr(call, graph), graph.offsetsSegment(),
                    graph.neighborsSegment(), NativeCalls.options(call, options, algorithm, check), labels, timings);
            NativeCalls.check(status, context);
            if (check) {
                graph.checked();
            }
            return new Labels(labels, graph.vertexCount(), NativeCalls.timings(timings), this);
        } finally {
            lock.unlock();
        }
    }

    /** Labels the edge list {@code edges} with the default options; the labels live until they are garbage. */
    public Labels label(EdgeList edges) {
        return label(edges, LabelOptions.defaults());
    }

    /**
     * Labels the edge list {@code edges} without building a graph: one union-find over the edges,
     * each edge once (on this backend's threads or GPU), as {@link #label(EdgeList, LabelOptions,
     * MemorySegment)}. The labels are on the Java heap, freed by the garbage collector like any
     * array; the native memory the labelling needs is freed before this returns.
     */
    public Labels label(EdgeList edges, LabelOptions options) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(options, "options");
        if (javaEdgeUnionFind(options.algorithm())) {
            requireAlive(edges.sourcesSegment(), "the edge list's sources");
            requireAlive(edges.targetsSegment(), "the edge list's targets");
            EdgeUnionFind.Run run = EdgeUnionFind.label(edges, options.cpuThreads(), 0, null);
            return new Labels(MemorySegment.ofArray(run.labels()), edges.vertexCount(), run.timings(), this);
        }
        try (Arena call = Arena.ofConfined()) {
            return label(edges, options, call).copyToHeap();
        }
    }

    /**
     * Labels the edge list {@code edges}, allocating the labels in {@code arena} (page-locked
     * memory on CUDA, so the copy back is DMA); as {@link #label(EdgeList, LabelOptions, MemorySegment)}.
     */
    public Labels label(EdgeList edges, LabelOptions options, Arena arena) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(arena, "arena");
        return label(edges, options, allocateLabels(arena, edges.vertexCount(), Integer.BYTES));
    }

    /**
     * Labels the edge list {@code edges} into a buffer of the caller's: {@code labels} must be a
     * writable native segment of at least {@code vertexCount} ints, sharing no memory with the
     * edges. The labels are canonical, as for graphs: each vertex gets the smallest vertex id of
     * its component.
     *
     * <p>Edge lists have one algorithm, a union-find over the edges: {@link Algorithm#AUTO} runs
     * this backend's (the native library's on CUDA and the CPU backends, with the phases
     * {@code init}, {@code link}, {@code finalize}, and {@code h2d}, {@code d2h} on CUDA; its
     * {@link Timings#algorithm()} is {@code AUTO}), {@link Algorithm#UNION_FIND} the Java one on any
     * backend (as on the JAVA backend: ForkJoin threads, the same phases, timed as
     * {@code UNION_FIND}; it keeps its parents in an {@code int[]}, 4 bytes a vertex of the Java
     * heap, and copies them into the labels). {@link LabelOptions#cpuThreads()} and, on CUDA,
     * {@link LabelOptions#blockSize()} apply. The ids are checked as they are read (see
     * {@link EdgeList}); {@link LabelOptions#checkInput()} plays no part.
     *
     * @throws IllegalArgumentException when an id is outside {@code [0, vertexCount)}, naming the
     *                                  first such edge, when {@code labels} is too small, on the
     *                                  heap, misaligned or overlaps the edges, or when the options
     *                                  name an algorithm of CSR graphs (build one with
     *                                  {@link CsrGraph#fromEdges(Arena, EdgeList)} for those)
     * @throws IllegalStateException    when the memory of the edges or the labels was freed
     * @throws Ccl4jException           on a native failure (device error, out of memory)
     */
    public Labels label(EdgeList edges, LabelOptions options, MemorySegment labels) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(options, "options");
        int n = edges.vertexCount();
        checkLabels(labels, n, Integer.BYTES, "the edge list has " + n + " vertices");
        long bytes = (long) n * Integer.BYTES;
        checkDisjoint(labels, bytes, edges.sourcesSegment(), "the edge list's sources");
        checkDisjoint(labels, bytes, edges.targetsSegment(), "the edge list's targets");
        if (javaEdgeUnionFind(options.algorithm())) {
            return new Labels(labels, n, EdgeUnionFind.label(edges, options.cpuThreads(), 0, labels).timings(), this);
        }
        lock.lock();
        try (Arena call = Arena.ofConfined()) {
            ensureOpen();
            MemorySegment timings = ccl4j_timings.allocate(call);
            int status = ccl4j_label_edges(context, NativeCalls.edges(call, edges), edges.sourcesSegment(),
                    edges.targetsSegment(), NativeCalls.options(call, options, Algorithm.AUTO, options.checkInput()),
                    labels, timings);
            NativeCalls.check(status, context);
            return new Labels(labels, n, NativeCalls.timings(timings), this);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The canonical labels of the edges {@code sources[i]}–{@code targets[i]} over
     * {@code vertexCount} vertices, with the default options, in a Java array.
     */
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets) {
        return labelEdges(vertexCount, sources, targets, LabelOptions.defaults());
    }

    /**
     * The canonical labels of the edges {@code sources[i]}–{@code targets[i]} over
     * {@code vertexCount} vertices in a Java array: each vertex's label is the smallest vertex id
     * of its component. The shortest way from arrays to arrays: the Java union-find reads the
     * arrays where they are and returns the array it ran in; a native backend gets the ids copied
     * off-heap once (native code cannot read the Java heap) and the labels copied back once, in
     * memory freed before this returns. As {@link #label(EdgeList, LabelOptions, MemorySegment)}
     * otherwise; for the timings, label an {@link EdgeList}.
     *
     * @throws IllegalArgumentException when the arrays' lengths differ, {@code vertexCount} is
     *                                  negative or an id is outside {@code [0, vertexCount)}
     *                                  (naming the first such edge)
     */
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets, LabelOptions options) {
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(targets, "targets");
        Objects.requireNonNull(options, "options");
        if (javaEdgeUnionFind(options.algorithm())) {
            EdgeList.requireSameLength(sources.length, targets.length);
            EdgeList.requireVertexCount(vertexCount);
            return EdgeUnionFind.label(vertexCount, sources, targets, options.cpuThreads(), 0, null).labels();
        }
        try (Arena call = Arena.ofConfined()) {
            return label(EdgeList.fromArrays(call, vertexCount, sources, targets), options, call).toArray();
        }
    }

    /**
     * Copies {@code graph} to this labeler's GPU once, to label it many times with
     * {@link #label(DeviceGraph, LabelOptions, Arena)}. CUDA only. A graph the library cannot vouch
     * for is checked first, in full (see {@link CsrGraph}).
     *
     * @throws IllegalArgumentException when the graph is malformed or not symmetric
     */
    public DeviceGraph upload(CsrGraph graph) {
        Objects.requireNonNull(graph, "graph");
        if (backend != Backend.CUDA) {
            throw new UnsupportedOperationException("device-resident graphs need the CUDA backend; this labeler runs on "
                    + backend);
        }
        lock.lock();
        try (Arena call = Arena.ofConfined()) {
            ensureOpen();
            MemorySegment out = call.allocate(ValueLayout.ADDRESS);
            MemorySegment h2d = call.allocate(ValueLayout.JAVA_DOUBLE);
            MemorySegment csr = NativeCalls.csr(call, graph);
            if (!graph.verified()) {
                NativeCalls.check(ccl4j_check_graph(context, csr, graph.offsetsSegment(), graph.neighborsSegment()),
                        context);
                graph.checked();
            }
            NativeCalls.check(ccl4j_device_graph_create(context, csr, graph.offsetsSegment(), graph.neighborsSegment(),
                    out, h2d), context);
            DeviceGraph g = new DeviceGraph(this, NativeCalls.pointer(out), graph.vertexCount(), graph.arcCount(),
                    h2d.get(ValueLayout.JAVA_DOUBLE, 0));
            deviceGraphs.add(g);
            return g;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Labels a device-resident graph. With {@code arena} null the labels stay on the device and
     * the result holds only the timings (for kernel-only measurements); otherwise they are copied
     * into page-locked memory from {@code arena}.
     */
    public LabelRun label(DeviceGraph graph, LabelOptions options, Arena arena) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(options, "options");
        if (graph.owner() != this) {
            throw new IllegalArgumentException("the device graph belongs to another labeler");
        }
        Algorithm algorithm = resolve(options.algorithm());
        MemorySegment labels = arena == null ? MemorySegment.NULL
                : allocateLabels(arena, graph.vertexCount(), Integer.BYTES);
        lock.lock();
        try (Arena call = Arena.ofConfined()) {
            ensureOpen();
            MemorySegment timings = ccl4j_timings.allocate(call);
            // checked when it was uploaded; the device copy cannot change
            int status = ccl4j_label_device_graph(context, graph.handle(),
                    NativeCalls.options(call, options, algorithm, false), labels, timings);
            deviceLabelling++;
            deviceLabelCount = -1;
            NativeCalls.check(status, context);
            deviceLabelCount = graph.vertexCount();
            Timings t = NativeCalls.timings(timings);
            return new LabelRun(arena == null ? null : new Labels(labels, graph.vertexCount(), t, this), t);
        } finally {
            lock.unlock();
        }
    }

    /** Labels the clusters of {@code grid} with the default mesh options; the labels live until they are garbage. */
    public MeshLabels label(Grid grid) {
        return label(grid, MeshOptions.defaults());
    }

    /**
     * Labels the clusters of {@code grid}; the labels are freed by the garbage collector: int32
     * labels are on the Java heap, like any array; int64 labels ({@link MeshOptions#labelBytesFor})
     * are in native memory of an automatic arena, since past 2^31 entries they fit no Java array and
     * a copy would double the largest allocation of the call. The native memory the labelling needs
     * besides is freed before this returns. (The JAVA backend writes labels that other threads could
     * reach, as those of an automatic arena are, into memory of its own first and copies them: for a
     * grid near the size of memory, pass an arena of the calling thread.)
     *
     * @throws Ccl4jException as {@link #label(Grid, MeshOptions, Arena)}, when the memory is not there
     */
    public MeshLabels label(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        if (options.labelBytesFor(grid) == Long.BYTES) {
            return label(grid, options, Arena.ofAuto());
        }
        try (Arena call = Arena.ofConfined()) {
            return label(grid, options, call).copyToHeap();
        }
    }

    /**
     * Labels the clusters of {@code grid}, allocating the labels in {@code arena} (page-locked
     * memory on CUDA, so the copy back is DMA): int32 labels, or int64 ones past
     * {@link Integer#MAX_VALUE} cells or with {@link MeshOptions#wideLabels()}. Before it allocates
     * them, the memory the call needs is checked against what there is ({@link #memoryNeeds}).
     *
     * @throws IllegalArgumentException      when the options do not fit the grid (connectivity
     *                                       4/8 on a 3D grid) or the grid's cells are on the
     *                                       Java heap and the backend is native
     * @throws UnsupportedOperationException when the algorithm does not run on this backend, or
     *                                       does not write int64 labels and they are needed
     * @throws Ccl4jException                on a native failure (device error, iteration limit
     *                                       reached), or with status
     *                                       {@link Ccl4jException.Status#OUT_OF_MEMORY} before
     *                                       anything is allocated when the labels or the call's
     *                                       working memory exceed the host's or the device's
     *                                       available memory, naming the figures
     */
    public MeshLabels label(Grid grid, MeshOptions options, Arena arena) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(arena, "arena");
        int labelBytes = options.labelBytesFor(grid);
        memoryNeeds(grid, options).require(describe(grid));
        return label(grid, options, allocateLabels(arena, grid.cellCount(), labelBytes));
    }

    /**
     * Labels the clusters of {@code grid} into a buffer of the caller's: {@code labels} must be a
     * writable native segment of at least {@code grid.cellCount()} labels of
     * {@code options.labelBytesFor(grid)} bytes (ints, or longs past {@link Integer#MAX_VALUE} cells
     * or with {@link MeshOptions#wideLabels()}), aligned to a label.
     */
    public MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        int labelBytes = options.labelBytesFor(grid);
        checkLabels(labels, grid.cellCount(), labelBytes, grid + " has " + grid.cellCount() + " cells");
        checkDisjoint(labels, grid.cellCount() * labelBytes, grid.cells(), "the cells of " + grid);
        MeshAlgorithm algorithm = resolve(grid, options);
        if (algorithm == MeshAlgorithm.JAVA) {
            return MeshParallelUnionFind.label(grid, options, labels);
        }
        if (!grid.cells().isNative()) {
            throw new IllegalArgumentException("the cells of " + grid + " are on the Java heap; the " + backend
                    + " backend needs them off-heap (Grid.allocate, Grid.ofBytes, Grid.ofInts)");
        }
        lock.lock();
        try (Arena call = Arena.ofConfined()) {
            ensureOpen();
            MemorySegment timings = ccl4j_timings.allocate(call);
            MemorySegment mesh = NativeCalls.mesh(call, grid);
            MemorySegment meshOptions = NativeCalls.meshOptions(call, options, algorithm);
            int status = labelBytes == Long.BYTES
                    ? ccl4j_label_mesh64(context, mesh, grid.cells(), meshOptions, labels, timings)
                    : ccl4j_label_mesh(context, mesh, grid.cells(), meshOptions, labels, timings);
            NativeCalls.check(status, context);
            return new MeshLabels(grid.width(), grid.height(), grid.depth(), labelBytes, labels,
                    NativeCalls.meshTimings(timings), this);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The memory that labelling {@code grid} with {@code options} on this labeler needs besides the
     * grid's cells, and what there is now: the labels (host memory), the call's own host memory,
     * and device memory on CUDA. The native backends answer for themselves; the JAVA backend counts
     * the labels and a copy of cells that another thread could free during the call (see
     * {@link MemoryNeeds}). Nothing is allocated and the cells are not read.
     *
     * @throws IllegalArgumentException      when the options do not fit the grid
     * @throws UnsupportedOperationException when the algorithm does not run on this backend, or
     *                                       does not write int64 labels and they are needed
     */
    public MemoryNeeds memoryNeeds(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        int labelBytes = options.labelBytesFor(grid);
        MeshAlgorithm algorithm = resolve(grid, options);
        long labelsBytes = Math.multiplyExact(grid.cellCount(), labelBytes);
        if (algorithm == MeshAlgorithm.JAVA) {
            long copies;
            try (RawMemory memory = new RawMemory()) {
                copies = RawMemory.available() && !memory.readsInPlace(grid.cells()) ? grid.cells().byteSize() : 0;
            }
            return new MemoryNeeds(labelBytes, labelsBytes, copies, 0, HostMemory.available(), 0);
        }
        lock.lock();
        try {
            ensureOpen();
            return NativeCalls.meshMemoryNeeds(context, grid, options, algorithm, labelBytes);
        } finally {
            lock.unlock();
        }
    }

    /** "a WxHxD grid", as the memory messages name it. */
    private static String describe(Grid grid) {
        return "a " + grid.width() + "x" + grid.height() + "x" + grid.depth() + " grid";
    }

    /**
     * Labels the clusters of {@code grid} and computes their statistics in the same call (on CUDA
     * on the device, in the pass that writes the final labels, without copying the labels to the
     * host for it): one row per cluster in the numbering of {@code statistics}, and the cells'
     * labels in that numbering. The table owns its memory: close it to free it.
     *
     * <p>Int64 labels ({@link MeshOptions#labelBytesFor(Grid)}: grids past 2^31-1 cells) are labelled
     * on the backend as {@link #label(Grid, MeshOptions, Arena)} does and their table is summed on
     * the host on all cores, whatever the backend: CUDA's int64 labelling leaves its labels there.
     * A table holds at most {@link Integer#MAX_VALUE} rows.
     *
     * @throws IllegalArgumentException      as {@link #label(Grid, MeshOptions, Arena)}, or when the
     *                                       intensity's extents are not the grid's
     * @throws UnsupportedOperationException when the algorithm does not run on this backend
     */
    public MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics) {
        return OwnedArena.make(owned -> labelWithStatistics(grid, options, statistics, owned, owned));
    }

    /** As {@link #labelWithStatistics(Grid, MeshOptions, StatisticsOptions)}, with the table and labels in {@code arena}. */
    public MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics,
                                              Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return labelWithStatistics(grid, options, statistics, arena, null);
    }

    private MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics, Arena arena,
                                               Arena owned) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(statistics, "statistics");
        Intensity intensity = statistics.intensityFor(grid);
        MeshAlgorithm algorithm = resolve(grid, options);
        memoryNeeds(grid, options).require(describe(grid));
        int labelBytes = options.labelBytesFor(grid);
        boolean wide = labelBytes == Long.BYTES;
        MemorySegment labels = allocateLabels(arena, grid.cellCount(), labelBytes);
        if (algorithm == MeshAlgorithm.JAVA) {
            long start = System.nanoTime();
            Timings labelling = MeshParallelUnionFind.label(grid, options, labels).timings();
            long pass = System.nanoTime();
            StatisticsColumns columns = JavaStatistics.mesh(grid, options, labels, wide, intensity,
                    statistics.numbering(), labels, arena);
            long end = System.nanoTime();
            java.util.Map<String, Double> phases = new java.util.LinkedHashMap<>(labelling.phasesMs());
            phases.put("statistics", (end - pass) / 1e6);
            Timings t = new Timings((end - start) / 1e6, phases, 0, Backend.JAVA, MeshAlgorithm.JAVA);
            return new MeshStatistics(grid.width(), grid.height(), grid.depth(), statistics.numbering(), labelBytes,
                    labels, columns, t, owned, this);
        }
        if (!grid.cells().isNative()) {
            throw new IllegalArgumentException("the cells of " + grid + " are on the Java heap; the " + backend
                    + " backend needs them off-heap (Grid.allocate, Grid.ofBytes, Grid.ofInts)");
        }
        if (statistics.intensity() != null && !statistics.intensity().values().isNative()) {
            throw new IllegalArgumentException("the values of " + statistics.intensity() + " are on the Java heap; the "
                    + backend + " backend needs them off-heap");
        }
        lock.lock();
        try (Arena call = Arena.ofConfined()) {
            ensureOpen();
            MemorySegment timings = ccl4j_timings.allocate(call);
            MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
            MemorySegment mesh = NativeCalls.mesh(call, grid);
            MemorySegment meshOptions = NativeCalls.meshOptions(call, options, algorithm);
            MemorySegment statisticsOptions = NativeStatistics.options(call, statistics.numbering(), statistics.intensity());
            MemorySegment values = statistics.intensity() == null ? MemorySegment.NULL : statistics.intensity().values();
            int status = wide
                    ? ccl4j_label_mesh64_statistics(context, mesh, grid.cells(), meshOptions, statisticsOptions, values,
                            labels, count, timings)
                    : ccl4j_label_mesh_statistics(context, mesh, grid.cells(), meshOptions, statisticsOptions, values,
                            labels, count, timings);
            NativeCalls.check(status, context);
            StatisticsColumns columns = NativeStatistics.columns(context, count.get(ValueLayout.JAVA_LONG, 0), true, arena);
            return new MeshStatistics(grid.width(), grid.height(), grid.depth(), statistics.numbering(), labelBytes,
                    labels, columns, NativeCalls.meshTimings(timings), owned, this);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Labels the components of {@code graph} and computes their statistics: one row per component
     * in {@code numbering}, and the vertices' labels in it. The table owns its memory: close it to
     * free it.
     */
    public GraphStatistics labelWithStatistics(CsrGraph graph, LabelOptions options, Numbering numbering) {
        Objects.requireNonNull(numbering, "numbering");
        return OwnedArena.make(owned -> {
            Labels labels = label(graph, options, owned);
            long start = System.nanoTime();
            GraphStatistics table = labels.statistics(graph, numbering, owned, owned);
            java.util.Map<String, Double> phases = new java.util.LinkedHashMap<>(labels.timings().phasesMs());
            phases.put("statistics", (System.nanoTime() - start) / 1e6);
            Timings t = labels.timings();
            return table.withTimings(new Timings(t.totalMs() + phases.get("statistics"), phases, t.iterations(),
                    t.backend(), t.algorithm()));
        });
    }

    /** {@link #distances(CsrGraph, DistanceAlgorithm)} with {@link DistanceAlgorithm#AUTO}. */
    public Distances distances(CsrGraph graph) {
        return distances(graph, DistanceAlgorithm.AUTO);
    }

    /**
     * Shortest-path distances within every component of {@code graph} (unweighted): a row per
     * component in canonical order with its vertex count, the exact sum of d(u, v) over ordered
     * pairs of distinct vertices, the mean of those distances and the diameter. The graph is
     * checked in full first (ids in range, symmetry). It costs a search from every vertex,
     * O(n (n + m)); {@link DistanceAlgorithm#FLOYD_WARSHALL} costs O(n^3) and runs on the CPU and
     * JAVA backends only.
     *
     * @throws IllegalArgumentException      when the graph is malformed or asymmetric, or too large
     *                                       for Floyd-Warshall ({@link DistanceMatrix#MAX_VERTICES})
     * @throws UnsupportedOperationException for Floyd-Warshall on CUDA
     */
    public Distances distances(CsrGraph graph, DistanceAlgorithm algorithm) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(algorithm, "algorithm");
        if (backend == Backend.JAVA) {
            withContext(context -> { });  // refuses a closed labeler, as the native path does
            return JavaDistances.rows(graph, algorithm);
        }
        return NativeDistances.rows(this, graph, algorithm);
    }

    /** {@link #distanceMatrix(CsrGraph, DistanceAlgorithm)} with {@link DistanceAlgorithm#AUTO}. */
    public DistanceMatrix distanceMatrix(CsrGraph graph) {
        return distanceMatrix(graph, DistanceAlgorithm.AUTO);
    }

    /**
     * All shortest-path distances of a graph of at most {@link DistanceMatrix#MAX_VERTICES}
     * vertices, -1 between components; checked as {@link #distances(CsrGraph, DistanceAlgorithm)}.
     *
     * @throws IllegalArgumentException when the graph is malformed or has too many vertices
     */
    public DistanceMatrix distanceMatrix(CsrGraph graph, DistanceAlgorithm algorithm) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(algorithm, "algorithm");
        if (backend == Backend.JAVA) {
            withContext(context -> { });
            return JavaDistances.matrix(graph, algorithm);
        }
        return NativeDistances.matrix(this, graph, algorithm);
    }

    /**
     * The labels the last {@link #label(DeviceGraph, LabelOptions, Arena)} left on the device, for
     * statistics without copying them to the host: {@link Labels#summary()}, {@link Labels#sizes()},
     * {@link Labels#histogram()}, {@link Labels#largest(int)} and the rest run on the GPU; only
     * their results are copied. Reading single labels ({@link Labels#get(int)}) is not possible.
     * The result is usable until the next labelling of a device-resident graph by this labeler.
     *
     * @throws IllegalStateException when no device-resident graph has been labelled
     */
    public Labels deviceLabels() {
        lock.lock();
        try {
            ensureOpen();
            if (deviceLabelCount < 0) {
                throw new IllegalStateException("no labels on the device: label a device-resident graph first");
            }
            return Labels.onDevice(this, deviceLabelCount, deviceLabelling);
        } finally {
            lock.unlock();
        }
    }

    /** Whether the labels of device labelling number {@code labelling} are still on the device. */
    boolean deviceLabelsCurrent(long labelling) {
        lock.lock();
        try {
            return !closed && labelling == deviceLabelling && deviceLabelCount >= 0;
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code body} with this labeler's native context, serialised with its other calls. */
    void withContext(java.util.function.Consumer<MemorySegment> body) {
        lock.lock();
        try {
            ensureOpen();
            body.accept(context);
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** A CPU_PARALLEL labeler for the statistics of labels that no open native labeler owns. */
    static ComponentLabeler statisticsLabeler() {
        return SharedCpu.LABELER;
    }

    private static final class SharedCpu {
        static final ComponentLabeler LABELER = create(Backend.CPU_PARALLEL);
    }

    void release(DeviceGraph graph) {
        lock.lock();
        try {
            if (deviceGraphs.remove(graph)) {
                ccl4j_device_graph_destroy(graph.handle());
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The algorithm a graph labelling asks the backend for. AUTO stays AUTO on CUDA, where the
     * native library picks by the graph's average degree (the timings name what ran).
     */
    private Algorithm resolve(Algorithm requested) {
        if (requested == Algorithm.AUTO) {
            return switch (backend) {
                case JAVA -> Algorithm.UNION_FIND;
                case CUDA -> Algorithm.AUTO;
                default -> Algorithm.AFFOREST;
            };
        }
        if (backend == Backend.JAVA && requested != Algorithm.UNION_FIND) {
            throw new UnsupportedOperationException("the JAVA backend runs union-find only, not " + requested);
        }
        if (backend == Backend.CUDA && requested == Algorithm.CPU_REFERENCE) {
            throw new UnsupportedOperationException(requested + " runs on the CPU backends, not on CUDA");
        }
        return requested;
    }

    /**
     * Whether an edge list is labelled by the Java union-find ({@link Algorithm#UNION_FIND}, or
     * AUTO on the JAVA backend) rather than the native one; the CSR algorithms are refused.
     */
    private boolean javaEdgeUnionFind(Algorithm requested) {
        return switch (requested) {
            case AUTO -> backend == Backend.JAVA;
            case UNION_FIND -> true;
            default -> throw new IllegalArgumentException(requested + " labels CSR graphs; an edge list is labelled by "
                    + "a union-find over its edges: pass AUTO (this backend's) or UNION_FIND (the Java one), or build "
                    + "the graph with CsrGraph.fromEdges(arena, edges) to label it with " + requested);
        };
    }

    /**
     * The algorithm that labels {@code grid} with {@code options} here, checked to fit: the
     * connectivity the grid, the algorithm this backend, and int64 labels (past
     * {@link Integer#MAX_VALUE} cells, or asked for) an algorithm that writes them.
     */
    private MeshAlgorithm resolve(Grid grid, MeshOptions options) {
        options.connectivityFor(grid);
        MeshAlgorithm requested = options.algorithm();
        MeshAlgorithm algorithm;
        if (requested == MeshAlgorithm.AUTO) {
            algorithm = switch (backend) {
                case JAVA -> MeshAlgorithm.JAVA;
                case CUDA -> MeshAlgorithm.UNION_FIND;
                default -> MeshAlgorithm.CPU_PARALLEL;
            };
        } else if (!requested.runsOn(backend)) {
            throw new UnsupportedOperationException("the mesh algorithm " + requested + " runs on "
                    + requested.backends() + ", not on " + backend);
        } else {
            algorithm = requested;
        }
        if (options.labelBytesFor(grid) == Long.BYTES && !WIDE_LABELLERS.contains(algorithm)) {
            throw new UnsupportedOperationException("int64 labels (" + (options.wideLabels() ? "MeshOptions.wideLabels"
                    : grid + " has " + grid.cellCount() + " cells, more than int32 labels number") + ") are written by "
                    + WIDE_LABELLERS + " (which AUTO picks), not by " + algorithm);
        }
        return algorithm;
    }

    /** The mesh algorithms that write int64 labels: one a backend, those that AUTO picks. */
    private static final java.util.Set<MeshAlgorithm> WIDE_LABELLERS =
            java.util.EnumSet.of(MeshAlgorithm.UNION_FIND, MeshAlgorithm.CPU_PARALLEL, MeshAlgorithm.JAVA);

    /**
     * Labels written over the input they are computed from would change it under the algorithm,
     * which would then answer wrongly: an output sharing memory with an input is refused.
     */
    private static void checkDisjoint(MemorySegment labels, long bytes, MemorySegment input, String what) {
        // freed memory first: a new segment may lie where a freed one was
        requireAlive(labels, "the labels segment");
        requireAlive(input, what);
        if (labels.asSlice(0, bytes).asOverlappingSlice(input).isPresent()) {
            throw new IllegalArgumentException("the labels segment overlaps " + what
                    + ": labels must not share memory with the input");
        }
    }

    private static void requireAlive(MemorySegment segment, String what) {
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the memory of " + what + " was freed (its arena is closed)");
        }
    }

    /** Labels of {@code labelBytes} (4: ints, 8: longs) for {@code count} entries. */
    private static void checkLabels(MemorySegment labels, long count, int labelBytes, String needed) {
        Objects.requireNonNull(labels, "labels");
        if (!labels.isNative() || labels.isReadOnly()) {
            throw new IllegalArgumentException("labels must be a writable native (off-heap) segment");
        }
        if (labels.byteSize() / labelBytes < count) {
            throw new IllegalArgumentException("labels segment holds " + labels.byteSize() / labelBytes + " "
                    + (labelBytes == Long.BYTES ? "longs (int64 labels)" : "ints") + " but " + needed);
        }
        if (labels.address() % labelBytes != 0) {
            throw new IllegalArgumentException("labels segment is not aligned to " + labelBytes + " bytes");
        }
    }

    /** Labels, not zeroed: every labelling writes them all (page-locked on CUDA, so the copy back is DMA). */
    private MemorySegment allocateLabels(Arena arena, long count, int labelBytes) {
        long bytes = Math.max(1L, count) * labelBytes;
        return backend == Backend.CUDA ? PinnedMemory.allocate(arena, bytes)
                : UninitializedMemory.allocate(arena, bytes, labelBytes);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this ComponentLabeler is closed");
        }
    }

    /** Frees the native context and every device graph uploaded through it. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (DeviceGraph g : deviceGraphs) {
                ccl4j_device_graph_destroy(g.handle());
            }
            deviceGraphs.clear();
            if (!context.equals(MemorySegment.NULL)) {
                ccl4j_context_destroy(context);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The result of labelling a device-resident graph.
     *
     * @param labels  the labels, or null when they were left on the device
     * @param timings what the call measured
     */
    public record LabelRun(Labels labels, Timings timings) {
    }
}
