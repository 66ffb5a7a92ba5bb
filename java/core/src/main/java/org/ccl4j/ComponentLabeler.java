package org.ccl4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.internal.OwnedArena;

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
 * <p>A labeler holds a native context (a CUDA stream and device buffers reused from call to call)
 * and must be closed; once closed, every call throws {@link IllegalStateException}. It may be
 * shared between threads: calls are serialised, as a native context serves one thread at a time.
 *
 * <p>Labelling throws {@link IllegalArgumentException} for malformed input (with input checks on)
 * or options that do not fit it, {@link UnsupportedOperationException} for an algorithm that does
 * not run on this backend, {@link IllegalStateException} when an argument's memory was freed, and
 * {@link Ccl4jException} on a native failure (device error, out of memory, iteration limit).
 * Labels overloads without an {@link Arena} return live until they are garbage; those with one
 * allocate the labels in it (page-locked on CUDA, so the copy back is DMA); those with a
 * {@link MemorySegment} write into the caller's (writable, native, sharing no memory with the input).
 */
public final class ComponentLabeler implements AutoCloseable {
    private final Engine engine;

    private ComponentLabeler(Engine engine) {
        this.engine = engine;
    }

    /**
     * A labeler on the best backend: CUDA with a device (every device, {@link Devices#all()}), else
     * CPU_PARALLEL, else JAVA without the native library (or with {@code -Dccl4j.native=false}),
     * which is logged once as a warning.
     *
     * @return a new labeler; close it to free its native context
     */
    public static ComponentLabeler create() {
        return create(Backend.AUTO, Devices.all());
    }

    /**
     * A labeler on {@code backend} (every device for CUDA).
     *
     * @param backend the backend to run on; {@link Backend#AUTO} picks as {@link #create()} does
     * @return a new labeler on {@code backend}
     */
    public static ComponentLabeler create(Backend backend) {
        return create(backend, Devices.all());
    }

    /**
     * A labeler on {@code backend}; {@code device} selects the one CUDA device.
     *
     * @param backend the backend to run on; {@link Backend#AUTO} picks as {@link #create()} does
     * @param device the CUDA device index (ignored by the other backends)
     * @return a new labeler on {@code backend}
     * @throws BackendUnavailableException when the backend cannot run here (no device, driver or library)
     */
    public static ComponentLabeler create(Backend backend, int device) {
        if (device < 0) {
            throw new IllegalArgumentException("device index must not be negative, got " + device);
        }
        return create(backend, Devices.of(device));
    }

    /**
     * A labeler on {@code backend} and the CUDA {@code devices}: graphs labelled with
     * {@link Algorithm#STREAMED} are shared out among them, the rest run on the first (see
     * {@link Devices}).
     *
     * @param backend the backend to run on; {@link Backend#AUTO} picks as {@link #create()} does
     * @param devices the CUDA devices (ignored by the other backends)
     * @return a new labeler on {@code backend}
     * @throws BackendUnavailableException when the backend cannot run here, or a device does not exist
     */
    public static ComponentLabeler create(Backend backend, Devices devices) {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(devices, "devices");
        return new ComponentLabeler(Engines.open(backend.name(), devices.toArray(), Ccl4jException.FAILURES));
    }

    /**
     * What this installation can do: version, backends, CUDA devices.
     *
     * @return the library's version, the usable backends, the CUDA devices and how the native library was
     *         loaded
     */
    public static Capabilities capabilities() {
        return Capabilities.of(Engines.library(Ccl4jException.FAILURES));
    }

    /**
     * The backend this labeler runs on ({@link Backend#AUTO} resolved).
     *
     * @return the resolved backend
     */
    public Backend backend() {
        return Backend.valueOf(engine.backend());
    }

    /**
     * The CUDA device index (the first of several), or -1 for the CPU backends.
     *
     * @return the device index, or -1
     */
    public int device() {
        return engine.device();
    }

    /**
     * The CUDA devices in order (the first runs what is not shared out); empty for the CPU backends.
     *
     * @return the device indices
     */
    public List<Integer> devices() {
        return Arrays.stream(engine.devices()).boxed().toList();
    }

    Engine engine() {
        return engine;
    }

    /**
     * Labels {@code graph} with the default options.
     *
     * @param graph the graph to label
     * @return its canonical labels, on the Java heap
     */
    public Labels label(CsrGraph graph) {
        return label(graph, LabelOptions.defaults());
    }

    /**
     * Labels {@code graph}, the labels on the Java heap.
     *
     * @param graph the graph to label
     * @param options the algorithm and its parameters
     * @return its canonical labels, on the Java heap
     */
    public Labels label(CsrGraph graph, LabelOptions options) {
        try (Arena call = Arena.ofConfined()) {
            return label(graph, options, call).copyToHeap();
        }
    }

    /**
     * Labels {@code graph}, the labels in {@code arena}.
     *
     * @param graph the graph to label
     * @param options the algorithm and its parameters
     * @param arena where the labels are allocated
     * @return its canonical labels, in {@code arena}
     */
    public Labels label(CsrGraph graph, LabelOptions options, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return label(graph, options, engine.allocateLabels(arena, graph.vertexCount(), Integer.BYTES));
    }

    /**
     * Labels {@code graph} into at least {@code vertexCount} ints of the caller's ({@link PinnedMemory} on CUDA).
     *
     * @param graph the graph to label
     * @param options the algorithm and its parameters
     * @param labels where the labels are written: at least {@code graph.vertexCount()} ints
     * @return its canonical labels, over {@code labels}
     */
    public Labels label(CsrGraph graph, LabelOptions options, MemorySegment labels) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(options, "options");
        graph.checkLabels(labels);
        boolean check = graph.needsCheck(options);
        RunTimings t = engine.labelGraph(graph.data(), options.settings(check), labels);
        if (check) {
            graph.checked();
        }
        return new Labels(labels, graph.vertexCount(), Timings.of(t), engine);
    }

    /**
     * Labels the edge list {@code edges} with the default options.
     *
     * @param edges the edge list to label
     * @return its canonical labels, on the Java heap
     */
    public Labels label(EdgeList edges) {
        return label(edges, LabelOptions.defaults());
    }

    /**
     * As {@link #label(EdgeList, LabelOptions, MemorySegment)}, the labels on the Java heap.
     *
     * @param edges the edge list to label
     * @param options the algorithm and its parameters
     * @return its canonical labels, on the Java heap
     */
    public Labels label(EdgeList edges, LabelOptions options) {
        try (Arena call = Arena.ofConfined()) {
            return label(edges, options, call).copyToHeap();
        }
    }

    /**
     * As {@link #label(EdgeList, LabelOptions, MemorySegment)}, the labels in {@code arena}.
     *
     * @param edges the edge list to label
     * @param options the algorithm and its parameters
     * @param arena where the labels are allocated
     * @return its canonical labels, in {@code arena}
     */
    public Labels label(EdgeList edges, LabelOptions options, Arena arena) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(arena, "arena");
        return label(edges, options, engine.allocateLabels(arena, edges.vertexCount(), Integer.BYTES));
    }

    /**
     * Labels the edge list {@code edges} without building a graph, into at least
     * {@code vertexCount} ints of the caller's: canonical labels, as for graphs. Edge lists have one
     * algorithm, a union-find over the edges: {@link Algorithm#AUTO} runs this backend's (phases
     * {@code init}, {@code link}, {@code finalize}, and {@code h2d}, {@code d2h} on CUDA),
     * {@link Algorithm#UNION_FIND} the Java one on any backend.
     *
     * @param edges the edge list to label
     * @param options the algorithm ({@link Algorithm#AUTO} or {@link Algorithm#UNION_FIND}) and its
     *                parameters
     * @param labels where the labels are written: at least {@code edges.vertexCount()} ints
     * @return its canonical labels, over {@code labels}
     * @throws IllegalArgumentException naming the first edge with an id outside
     *                                  {@code [0, vertexCount)}, or for an algorithm of CSR graphs
     *                                  (build one with {@link CsrGraph#fromEdges(Arena, EdgeList)})
     */
    public Labels label(EdgeList edges, LabelOptions options, MemorySegment labels) {
        Objects.requireNonNull(edges, "edges");
        Objects.requireNonNull(options, "options");
        edges.checkLabels(labels);
        RunTimings t = engine.labelEdges(edges.data(), options.settings(options.checkInput()), labels);
        return new Labels(labels, edges.vertexCount(), Timings.of(t), engine);
    }

    /**
     * {@link #labelEdges(int, int[], int[], LabelOptions)} with the default options.
     *
     * @param vertexCount the number of vertices; ids are in {@code [0, vertexCount)}
     * @param sources one end of each edge
     * @param targets the other end of each edge, as many as {@code sources}
     * @return the canonical label of every vertex, {@code vertexCount} ints
     */
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets) {
        return labelEdges(vertexCount, sources, targets, LabelOptions.defaults());
    }

    /**
     * The canonical labels of the edges {@code sources[i]}–{@code targets[i]}, arrays in, array out
     * (a native backend copies the ids off-heap and the labels back once).
     *
     * @param vertexCount the number of vertices; ids are in {@code [0, vertexCount)}
     * @param sources one end of each edge
     * @param targets the other end of each edge, as many as {@code sources}
     * @param options the algorithm ({@link Algorithm#AUTO} or {@link Algorithm#UNION_FIND}) and its
     *                parameters
     * @return the canonical label of every vertex, {@code vertexCount} ints
     * @throws IllegalArgumentException for lengths that differ, a negative {@code vertexCount} or an
     *                                  id outside {@code [0, vertexCount)}
     */
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets, LabelOptions options) {
        Objects.requireNonNull(sources, "sources");
        Objects.requireNonNull(targets, "targets");
        Objects.requireNonNull(options, "options");
        EdgeList.requireSameLength(sources.length, targets.length);
        EdgeList.requireVertexCount(vertexCount);
        return engine.labelEdges(vertexCount, sources, targets, options.settings(options.checkInput()));
    }

    /**
     * Copies {@code graph} to this labeler's GPU (CUDA only), checked first unless built here, to label it often.
     *
     * @param graph the graph to copy to the device
     * @return the graph on the device, to label with {@link #label(DeviceGraph, LabelOptions, Arena)};
     *         close it to free the device memory
     */
    public DeviceGraph upload(CsrGraph graph) {
        Objects.requireNonNull(graph, "graph");
        DeviceGraph uploaded = new DeviceGraph(engine, engine.upload(graph.data(), graph.verified()));
        graph.checked();
        return uploaded;
    }

    /**
     * Labels a device-resident graph, the labels into {@code arena} or, when it is null, left on the device.
     *
     * @param graph a graph uploaded by this labeler ({@link #upload})
     * @param options the algorithm and its parameters
     * @param arena where the labels are copied, or null to leave them on the device ({@link
     *              #deviceLabels()})
     * @return the labels (null when left on the device) and what the call measured
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
     * The labels the last device-resident labelling left on the GPU, until the next one: their
     * book-keeping ({@link Labels#summary()}, {@link Labels#sizes()}, ...) runs there; single labels cannot be read.
     *
     * @return the device-resident labels, for their book-keeping
     */
    public Labels deviceLabels() {
        return Labels.onDevice(engine.deviceLabels(), engine);
    }

    /**
     * Labels the clusters of {@code grid} with the default mesh options.
     *
     * @param grid the cells to label
     * @return the labels of its cells
     */
    public MeshLabels label(Grid grid) {
        return label(grid, MeshOptions.defaults());
    }

    /**
     * Labels the clusters of {@code grid}: int32 labels on the Java heap, int64 ones in an automatic arena.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries, mode and algorithm
     * @return the labels of its cells
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
     * Labels the clusters of {@code grid} into {@code arena}, the memory it needs checked first.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries, mode and algorithm
     * @param arena where the labels are allocated
     * @return the labels of its cells, in {@code arena}
     */
    public MeshLabels label(Grid grid, MeshOptions options, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        int labelBytes = options.labelBytesFor(grid);
        memoryNeeds(grid, options).require(grid.data().describe());
        return label(grid, options, engine.allocateLabels(arena, grid.cellCount(), labelBytes));
    }

    /**
     * Labels the clusters of {@code grid} into {@code cellCount()} labels of {@code labelBytesFor(grid)} bytes.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries, mode and algorithm
     * @param labels where the labels are written: {@code grid.cellCount()} labels of {@code
     *               options.labelBytesFor(grid)} bytes
     * @return the labels of its cells, over {@code labels}
     */
    public MeshLabels label(Grid grid, MeshOptions options, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        int labelBytes = options.labelBytesFor(grid);
        grid.checkLabels(labels, labelBytes);
        RunTimings t = engine.labelMesh(grid.data(), options.settings(grid), labelBytes, labels);
        return new MeshLabels(grid.width(), grid.height(), grid.depth(), labelBytes, labels, Timings.ofMesh(t), engine);
    }

    /**
     * The memory that labelling {@code grid} with {@code options} here needs besides the cells, and
     * what there is now; nothing is allocated and the cells are not read.
     *
     * @param grid the grid that would be labelled
     * @param options the options it would be labelled with
     * @return what the call needs and what the host and the device have available
     * @throws UnsupportedOperationException when the algorithm does not run here or write the labels needed
     */
    public MemoryNeeds memoryNeeds(Grid grid, MeshOptions options) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        return MemoryNeeds.of(engine.meshMemory(grid.data(), options.settings(grid), options.labelBytesFor(grid)));
    }

    /**
     * Labels the clusters of {@code grid} and computes their statistics in the same call (on CUDA
     * in the pass that writes the final labels): a row per cluster (at most 2^31 - 1) in the
     * numbering of {@code statistics}, and the cells' labels in it. Close the table to free it.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries, mode and algorithm
     * @param statistics the numbering of the rows and the intensity to sum
     * @return the table, with the cells' labels in its numbering; close it to free its memory
     */
    public MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics) {
        return OwnedArena.make(owned -> labelWithStatistics(grid, options, statistics, owned.arena(), owned));
    }

    /**
     * As {@link #labelWithStatistics(Grid, MeshOptions, StatisticsOptions)}, the table in {@code arena}.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries, mode and algorithm
     * @param statistics the numbering of the rows and the intensity to sum
     * @param arena where the table and its labels are allocated
     * @return the table, with the cells' labels in its numbering
     */
    public MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics,
                                              Arena arena) {
        Objects.requireNonNull(arena, "arena");
        return labelWithStatistics(grid, options, statistics, arena, null);
    }

    /**
     * As {@link #labelWithStatistics(Grid, MeshOptions, StatisticsOptions)}, the labels written into
     * {@code labels}, which may be larger than the host's memory (a memory-mapped file): a grid
     * that does not fit is labelled in slabs ({@link MeshOptions#memoryBudget()}). Close the table
     * to free it; the labels stay the caller's.
     *
     * @param grid the cells to label
     * @param options the connectivity, boundaries, mode and algorithm
     * @param statistics the numbering of the rows and the labels, and the intensity to sum
     * @param labels where the labels are written: {@code grid.cellCount()} labels of
     *               {@code options.labelBytesFor(grid, statistics.numbering())} bytes
     * @return the table, with the cells' labels in its numbering over {@code labels}; close it to free its memory
     */
    public MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics,
                                              MemorySegment labels) {
        Objects.requireNonNull(labels, "labels");
        return OwnedArena.make(owned -> labelWithStatistics(grid, options, statistics, owned.arena(), owned, labels));
    }

    private MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics,
                                               Arena arena, OwnedArena owned) {
        return labelWithStatistics(grid, options, statistics, arena, owned, null);
    }

    /** Labels and table into {@code arena}, the labels into {@code labels} when it is not null. */
    private MeshStatistics labelWithStatistics(Grid grid, MeshOptions options, StatisticsOptions statistics,
                                               Arena arena, OwnedArena owned, MemorySegment labels) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(statistics, "statistics");
        statistics.intensityFor(grid);  // checks its extents
        int labelBytes = options.labelBytesFor(grid, statistics.numbering());
        MeshSettings settings = options.settings(grid);
        if (labels == null) {
            MemoryNeeds.of(engine.meshMemory(grid.data(), settings, labelBytes)).require(grid.data().describe());
            labels = engine.allocateLabels(arena, grid.cellCount(), labelBytes);
        } else {
            grid.checkLabels(labels, labelBytes);
        }
        Engine.StatisticsRun run = engine.labelMeshWithStatistics(grid.data(), settings, labelBytes,
                statistics.numbering().rows(), statistics.intensityData(), statistics.measurements(), labels, arena);
        return new MeshStatistics(grid.width(), grid.height(), grid.depth(), statistics.numbering(), labelBytes, labels,
                run.table(), Timings.ofMesh(run.timings()), owned, engine);
    }

    /**
     * Labels {@code graph} and computes its components' statistics, rows in {@code numbering}; close the table.
     *
     * @param graph the graph to label
     * @param options the algorithm and its parameters
     * @param numbering the order of the rows and the labels that come with the table
     * @return the table, with the vertices' labels in its numbering; close it to free its memory
     */
    public GraphStatistics labelWithStatistics(CsrGraph graph, LabelOptions options, Numbering numbering) {
        Objects.requireNonNull(numbering, "numbering");
        return OwnedArena.make(owned -> {
            Labels labels = label(graph, options, owned.arena());
            long start = System.nanoTime();
            GraphStatistics table = labels.statistics(graph, numbering, owned.arena(), owned);
            return table.withTimings(labels.timings().with("statistics", (System.nanoTime() - start) / 1e6));
        });
    }

    /**
     * {@link #distances(CsrGraph, DistanceAlgorithm)} with {@link DistanceAlgorithm#AUTO}.
     *
     * @param graph the graph, symmetric
     * @return a row per component, in canonical order
     */
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
     * @param graph the graph, symmetric
     * @param algorithm the search: {@link DistanceAlgorithm#AUTO} for the backend's breadth-first search
     * @return a row per component, in canonical order, and what the call measured
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

    /**
     * {@link #distanceMatrix(CsrGraph, DistanceAlgorithm)} with {@link DistanceAlgorithm#AUTO}.
     *
     * @param graph the graph, symmetric, of at most {@link DistanceMatrix#MAX_VERTICES} vertices
     * @return the distances between every pair of vertices
     */
    public DistanceMatrix distanceMatrix(CsrGraph graph) {
        return distanceMatrix(graph, DistanceAlgorithm.AUTO);
    }

    /**
     * All distances of a graph of at most {@link DistanceMatrix#MAX_VERTICES} vertices, -1 between components.
     *
     * @param graph the graph, symmetric, of at most {@link DistanceMatrix#MAX_VERTICES} vertices
     * @param algorithm the search: {@link DistanceAlgorithm#AUTO} for the backend's breadth-first search
     * @return the distances between every pair of vertices
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
     * The result of labelling a device-resident graph: the labels (null when left on the device) and timings.
     *
     * @param labels the labels, in the arena given to the call; null when they were left on the device
     * @param timings what the call measured
     */
    public record LabelRun(Labels labels, Timings timings) {
    }
}
