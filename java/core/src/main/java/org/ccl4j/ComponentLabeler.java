package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.internal.OwnedArena;
import org.ccl4j.internal.Segments;

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
 * native context serves one thread at a time. Once closed, every call throws
 * {@link IllegalStateException}.
 *
 * <p>Labelling methods throw {@link IllegalArgumentException} when the input is malformed (with
 * input checks on) or the options do not fit it, {@link UnsupportedOperationException} when the
 * algorithm does not run on this backend, {@link IllegalStateException} when the memory of an
 * argument was freed, and {@link Ccl4jException} on a native failure (device error, out of memory,
 * iteration limit reached).
 */
public final class ComponentLabeler implements AutoCloseable {
    private final Engine engine;

    private ComponentLabeler(Engine engine) {
        this.engine = engine;
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
        return new ComponentLabeler(Engines.open(backend.name(), device, Ccl4jException.FAILURES));
    }

    /** What this installation can do: version, backends, CUDA devices. */
    public static Capabilities capabilities() {
        return Capabilities.of(Engines.library(Ccl4jException.FAILURES));
    }

    /** The backend this labeler runs on ({@link Backend#AUTO} resolved). */
    public Backend backend() {
        return Backend.valueOf(engine.backend());
    }

    /** The CUDA device index, or -1 for the CPU backends. */
    public int device() {
        return engine.device();
    }

    Engine engine() {
        return engine;
    }

    // ---- graphs -----------------------------------------------------------------------------------

    /** Labels {@code graph} with the default options; the labels live until they are garbage. */
    public Labels label(CsrGraph graph) {
        return label(graph, LabelOptions.defaults());
    }

    /** Labels {@code graph}; the labels are on the Java heap, the call's native memory freed before this returns. */
    public Labels label(CsrGraph graph, LabelOptions options) {
        try (Arena call = Arena.ofConfined()) {
            return label(graph, options, call).copyToHeap();
        }
    }

    /** Labels {@code graph}, allocating the labels in {@code arena} (page-locked on CUDA, so the copy back is DMA). */
    public Labels label(CsrGraph graph, LabelOptions options, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return label(graph, options, engine.allocateLabels(arena, graph.vertexCount(), Integer.BYTES));
    }

    /**
     * Labels {@code graph} into a buffer of the caller's: a writable native segment of at least
     * {@code vertexCount} ints (page-locked memory from {@link PinnedMemory} makes the copy back
     * from the GPU a DMA), sharing no memory with the graph. Reusing one buffer saves an allocation.
     */
    public Labels label(CsrGraph graph, LabelOptions options, MemorySegment labels) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(options, "options");
        int n = graph.vertexCount();
        Segments.checkLabels(labels, n, Integer.BYTES, "the graph has " + n + " vertices");
        Segments.checkDisjoint(labels, n * 4L, graph.offsetsSegment(), "the graph's offsets");
        Segments.checkDisjoint(labels, n * 4L, graph.neighborsSegment(), "the graph's neighbours");
        boolean check = graph.needsCheck(options);
        RunTimings t = engine.labelGraph(graph.data(), options.settings(check), labels);
        if (check) {
            graph.checked();
        }
        return new Labels(labels, n, Timings.of(t), engine);
    }

    // ---- edge lists -------------------------------------------------------------------------------

    /** Labels the edge list {@code edges} with the default options; the labels live until they are garbage. */
    public Labels label(EdgeList edges) {
        return label(edges, LabelOptions.defaults());
    }

    /** As {@link #label(EdgeList, LabelOptions, MemorySegment)}, the labels on the Java heap. */
    public Labels label(EdgeList edges, LabelOptions options) {
        try (Arena call = Arena.ofConfined()) {
            return label(edges, options, call).copyToHeap();
        }
    }

    /** As {@link #label(EdgeList, LabelOptions, MemorySegment)}, the labels in {@code arena}. */
    public Labels label(EdgeList edges, LabelOptions options, Arena arena) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(arena, "arena");
        return label(edges, options, engine.allocateLabels(arena, edges.vertexCount(), Integer.BYTES));
    }

    /**
     * Labels the edge list {@code edges} without building a graph, into a writable native segment
     * of at least {@code vertexCount} ints sharing no memory with the edges: canonical labels, as
     * for graphs. Edge lists have one algorithm, a union-find over the edges: {@link Algorithm#AUTO}
     * runs this backend's (phases {@code init}, {@code link}, {@code finalize}, and {@code h2d},
     * {@code d2h} on CUDA), {@link Algorithm#UNION_FIND} the Java one on any backend (4 bytes a vertex
     * of the Java heap). The ids are checked as they are read (see {@link EdgeList}).
     *
     * @throws IllegalArgumentException when an id is outside {@code [0, vertexCount)}, naming the
     *                                  first such edge, or the options name an algorithm of CSR
     *                                  graphs (build one with {@link CsrGraph#fromEdges(Arena, EdgeList)})
     */
    public Labels label(EdgeList edges, LabelOptions options, MemorySegment labels) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(options, "options");
        int n = edges.vertexCount();
        Segments.checkLabels(labels, n, Integer.BYTES, "the edge list has " + n + " vertices");
        Segments.checkDisjoint(labels, n * 4L, edges.sourcesSegment(), "the edge list's sources");
        Segments.checkDisjoint(labels, n * 4L, edges.targetsSegment(), "the edge list's targets");
        RunTimings t = engine.labelEdges(edges.data(), options.settings(options.checkInput()), labels);
        return new Labels(labels, n, Timings.of(t), engine);
    }

    /** {@link #labelEdges(int, int[], int[], LabelOptions)} with the default options. */
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets) {
        return labelEdges(vertexCount, sources, targets, LabelOptions.defaults());
    }

    /**
     * The canonical labels of the edges {@code sources[i]}–{@code targets[i]} over
     * {@code vertexCount} vertices, arrays in, array out: the Java union-find runs in the arrays; a
     * native backend gets the ids copied off-heap once and the labels copied back once.
     *
     * @throws IllegalArgumentException when the lengths differ, {@code vertexCount} is negative or
     *                                  an id is outside {@code [0, vertexCount)}
     */
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets, LabelOptions options) {
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(targets, "targets");
        Objects.requireNonNull(options, "options");
        EdgeList.requireSameLength(sources.length, targets.length);
        EdgeList.requireVertexCount(vertexCount);
        return engine.labelEdges(vertexCount, sources, targets, options.settings(options.checkInput()));
    }

    // ---- device-resident graphs (CUDA) ------------------------------------------------------------

    /**
     * Copies {@code graph} to this labeler's GPU once, to label it many times. CUDA only. A graph
     * the library cannot vouch for is checked first, in full (see {@link CsrGraph}).
     *
     * @throws IllegalArgumentException when the graph is malformed or not symmetric
     */
    public DeviceGraph upload(CsrGraph graph) {
        Objects.requireNonNull(graph, "graph");
        DeviceGraph uploaded = new DeviceGraph(engine, engine.upload(graph.data(), graph.verified()));
        graph.checked();
        return uploaded;
    }

    /**
     * Labels a device-resident graph: with {@code arena} null the labels stay on the device (see
     * {@link #deviceLabels()}) and the result holds only the timings; otherwise they are copied into
     * page-locked memory from {@code arena}.
     */
    public LabelRun label(DeviceGraph graph, LabelOptions options, Arena arena) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(options, "options");
        if (graph.engine() != engine) {
            throw new IllegalArgumentException("the device graph belongs to another labeler");
        }
        MemorySegment labels = arena == null ? MemorySegment.NULL
                : engine.allocateLabels(arena, graph.vertexCount(), Integer.BYTES);
        Timings t = Timings.of(engine.labelDeviceGraph(graph.ref(), options.settings(false), labels));
        return new LabelRun(arena == null ? null : new Labels(labels, graph.vertexCount(), t, engine), t);
    }

    /**
     * The labels the last {@link #label(DeviceGraph, LabelOptions, Arena)} left on the device: the
     * book-keeping of {@link Labels} ({@link Labels#summary()}, {@link Labels#sizes()},
     * {@link Labels#largest(int)}, ...) runs on the GPU and copies only its results; single labels
     * cannot be read. Usable until the next labelling of a device-resident graph by this labeler.
     *
     * @throws IllegalStateException when no device-resident graph has been labelled
     */
    public Labels deviceLabels() {
        return Labels.onDevice(engine.deviceLabels(), engine);
    }

    // ---- meshes -----------------------------------------------------------------------------------

    /** Labels the clusters of {@code grid} with the default mesh options; the labels live until they are garbage. */
    public MeshLabels label(Grid grid) {
        return label(grid, MeshOptions.defaults());
    }

    /**
     * Labels the clusters of {@code grid}, the labels freed by the garbage collector: int32 labels
     * on the Java heap, int64 ones ({@link MeshOptions#labelBytesFor}) in native memory of an
     * automatic arena (past 2^31 entries they fit no Java array).
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
     * Labels the clusters of {@code grid}, allocating the labels in {@code arena} (page-locked on
     * CUDA): int32 labels, or int64 ones past {@link Integer#MAX_VALUE} cells or with
     * {@link MeshOptions#wideLabels()}. The memory the call needs is checked first
     * ({@link #memoryNeeds}): {@link Ccl4jException} with status
     * {@link Ccl4jException.Status#OUT_OF_MEMORY}, naming the figures, before anything is allocated.
     */
    public MeshLabels label(Grid grid, MeshOptions options, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        int labelBytes = options.labelBytesFor(grid);
        memoryNeeds(grid, options).require(grid.data().describe());
        return label(grid, options, engine.allocateLabels(arena, grid.cellCount(), labelBytes));
    }

    /**
     * Labels the clusters of {@code grid} into a writable native segment of the caller's, of at
     * least {@code grid.cellCount()} labels of {@code options.labelBytesFor(grid)} bytes.
     */
    public MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        int labelBytes = options.labelBytesFor(grid);
        Segments.checkLabels(labels, grid.cellCount(), labelBytes, grid + " has " + grid.cellCount() + " cells");
        Segments.checkDisjoint(labels, grid.cellCount() * labelBytes, grid.cells(), "the cells of " + grid);
        RunTimings t = engine.labelMesh(grid.data(), options.settings(grid), labelBytes, labels);
        return new MeshLabels(grid.width(), grid.height(), grid.depth(), labelBytes, labels, Timings.ofMesh(t), engine);
    }

    /**
     * The memory that labelling {@code grid} with {@code options} here needs besides the cells,
     * and what there is now; nothing is allocated and the cells are not read.
     *
     * @throws UnsupportedOperationException when the algorithm does not run on this backend, or
     *                                       does not write int64 labels and they are needed
     */
    public MemoryNeeds memoryNeeds(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        return MemoryNeeds.of(engine.meshMemory(grid.data(), options.settings(grid), options.labelBytesFor(grid)));
    }

    /**
     * Labels the clusters of {@code grid} and computes their statistics in the same call (on CUDA
     * in the pass that writes the final labels): one row per cluster in the numbering of
     * {@code statistics}, and the cells' labels in that numbering. The table owns its memory:
     * close it to free it. A table holds at most {@link Integer#MAX_VALUE} rows.
     *
     * @throws IllegalArgumentException as {@link #label(Grid, MeshOptions, Arena)}, or when the
     *                                  intensity's extents are not the grid's
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

    private MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics,
                                               Arena arena, Arena owned) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(statistics, "statistics");
        statistics.intensityFor(grid);  // checks its extents
        int labelBytes = options.labelBytesFor(grid);
        memoryNeeds(grid, options).require(grid.data().describe());
        MemorySegment labels = engine.allocateLabels(arena, grid.cellCount(), labelBytes);
        Engine.StatisticsRun run = engine.labelMeshWithStatistics(grid.data(), options.settings(grid), labelBytes,
                statistics.numbering().rows(), statistics.intensityData(), labels, arena);
        return new MeshStatistics(grid.width(), grid.height(), grid.depth(), statistics.numbering(), labelBytes, labels,
                run.table(), Timings.ofMesh(run.timings()), owned, engine);
    }

    /**
     * Labels the components of {@code graph} and computes their statistics: one row per component
     * in {@code numbering}, and the vertices' labels in it. The table owns its memory: close it.
     */
    public GraphStatistics labelWithStatistics(CsrGraph graph, LabelOptions options, Numbering numbering) {
        Objects.requireNonNull(numbering, "numbering");
        return OwnedArena.make(owned -> {
            Labels labels = label(graph, options, owned);
            long start = System.nanoTime();
            GraphStatistics table = labels.statistics(graph, numbering, owned, owned);
            return table.withTimings(labels.timings().with("statistics", (System.nanoTime() - start) / 1e6));
        });
    }

    // ---- distances --------------------------------------------------------------------------------

    /** {@link #distances(CsrGraph, DistanceAlgorithm)} with {@link DistanceAlgorithm#AUTO}. */
    public Distances distances(CsrGraph graph) {
        return distances(graph, DistanceAlgorithm.AUTO);
    }

    /**
     * Shortest-path distances within every component of {@code graph} (unweighted): a row per
     * component in canonical order with its vertex count, the exact sum of d(u, v) over ordered
     * pairs of distinct vertices, their mean and the diameter. The graph is checked in full first.
     * A search from every vertex costs O(n (n + m)); {@link DistanceAlgorithm#FLOYD_WARSHALL}
     * costs O(n^3) and runs on the CPU and JAVA backends only.
     *
     * @throws IllegalArgumentException      when the graph is malformed or asymmetric, or too large
     *                                       for Floyd-Warshall ({@link DistanceMatrix#MAX_VERTICES})
     * @throws UnsupportedOperationException for Floyd-Warshall on CUDA
     */
    public Distances distances(CsrGraph graph, DistanceAlgorithm algorithm) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(algorithm, "algorithm");
        if (algorithm == DistanceAlgorithm.FLOYD_WARSHALL) {
            DistanceMatrix.checkSize(graph.vertexCount(), "Floyd-Warshall");
        }
        return Distances.of(engine.distances(graph.data(), algorithm.method()));
    }

    /** {@link #distanceMatrix(CsrGraph, DistanceAlgorithm)} with {@link DistanceAlgorithm#AUTO}. */
    public DistanceMatrix distanceMatrix(CsrGraph graph) {
        return distanceMatrix(graph, DistanceAlgorithm.AUTO);
    }

    /**
     * All shortest-path distances of a graph of at most {@link DistanceMatrix#MAX_VERTICES}
     * vertices, -1 between components; checked as {@link #distances(CsrGraph, DistanceAlgorithm)}.
     */
    public DistanceMatrix distanceMatrix(CsrGraph graph, DistanceAlgorithm algorithm) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(algorithm, "algorithm");
        DistanceMatrix.checkSize(graph.vertexCount(), "a distance matrix");
        return new DistanceMatrix(graph.vertexCount(), engine.distanceMatrix(graph.data(), algorithm.method()));
    }

    /** Frees the native context and every device graph uploaded through it; waits for a running call. */
    @Override
    public void close() {
        engine.close();
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
