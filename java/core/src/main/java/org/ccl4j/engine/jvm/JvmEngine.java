package org.ccl4j.engine.jvm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import org.ccl4j.engine.spi.GraphAssembly;
import org.ccl4j.engine.spi.GraphData;
import org.ccl4j.engine.spi.GraphSettings;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.LabelCounts;
import org.ccl4j.engine.spi.LabelsRef;
import org.ccl4j.engine.spi.MemoryFigures;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.Physics;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.engine.spi.SizeBinning;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.engine.spi.WideCounts;
import org.ccl4j.internal.Failures;
import org.ccl4j.internal.HostMemory;
import org.ccl4j.internal.UninitializedMemory;

/**
 * The engine of the JVM: the JAVA backend, and the algorithms of the {@link AlgorithmTable} that
 * run in Java on any backend (the union-finds {@code UNION_FIND} for graphs and edge lists and
 * {@code JAVA} for meshes), without native code: ECL-CC's lock-free union-find on ForkJoin threads,
 * the book-keeping, statistics and distances in Java. It reads and writes segments through the FFM
 * API, so labels and outputs may be native or on the Java heap; the book-keeping's outputs are Java
 * arrays, which then need no copy. It holds nothing native; once closed it refuses calls, as every
 * engine does.
 */
public final class JvmEngine implements Engine {
    private final Failures failures;
    private final AlgorithmTable algorithms;
    private volatile boolean closed;

    /** A JVM engine that checks requests against {@code algorithms}, the whole table (for its messages). */
    public JvmEngine(Failures failures, AlgorithmTable algorithms) {
        this.failures = failures;
        this.algorithms = algorithms;
    }

    /** The JVM's entries of the algorithm table: they run on every backend and write either label width. */
    public static List<AlgorithmInfo> algorithms() {
        Set<String> all = Set.of("CUDA", "CPU_PARALLEL", "CPU_SERIAL", "JAVA");
        return List.of(new AlgorithmInfo("UNION_FIND", AlgorithmInfo.Kind.GRAPH, all, Set.of(), true),
                new AlgorithmInfo("JAVA", AlgorithmInfo.Kind.MESH, all, all, true));
    }

    /** An assembly of a graph from edges added one at a time. */
    public static GraphAssembly graphAssembly() {
        return new ChunkedGraphBuilder();
    }

    @Override
    public String backend() {
        return "JAVA";
    }

    @Override
    public int[] devices() {
        return new int[0];
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this ComponentLabeler is closed");
        }
    }

    /** Checks that {@code algorithm} of {@code kind} is AUTO or runs here: the JVM's own. */
    private void requireOwn(AlgorithmInfo.Kind kind, String algorithm) {
        ensureOpen();
        if (!algorithm.equals("AUTO")) {
            algorithms.require(kind, algorithm, "JAVA");
        }
    }

    @Override
    public MemorySegment allocateLabels(Arena arena, long count, int labelBytes) {
        long bytes = Math.max(1L, count) * labelBytes;
        HostMemory.require("allocating " + count + " labels", bytes, failures);
        return UninitializedMemory.allocate(arena, bytes, labelBytes);
    }

    @Override
    public MemorySegment scratchInts(Arena scratch, long count) {
        return MemorySegment.ofArray(new int[Math.toIntExact(count)]);
    }

    // ---- graphs and edge lists ------------------------------------------------------------------

    @Override
    public RunTimings labelGraph(GraphData graph, GraphSettings settings, MemorySegment labels) {
        requireOwn(AlgorithmInfo.Kind.GRAPH, settings.algorithm());
        if (settings.checkInput()) {
            checkGraph(graph, true);
        }
        RunTimings timings = ParallelUnionFind.label(graph, labels, settings.cpuThreads());
        // nothing streams here: the one call every backend ends with, the labels written
        long total = 2 * graph.arcCount();
        settings.progress().report("done", total, total);
        return timings;
    }

    @Override
    public void checkGraph(GraphData graph, boolean symmetry) {
        ensureOpen();
        InputCheck.structure(graph);
        if (symmetry) {
            InputCheck.symmetry(graph);
        }
    }

    /** Checks that an edge list's algorithm is AUTO or the JVM's union-find. */
    private void requireEdgeAlgorithm(String algorithm) {
        ensureOpen();
        algorithms.runsEdgesOnJvm(algorithm);
    }

    @Override
    public RunTimings labelEdges(EdgeData edges, GraphSettings settings, MemorySegment labels) {
        requireEdgeAlgorithm(settings.algorithm());
        return EdgeUnionFind.label(edges, settings.cpuThreads(), 0, labels).timings();
    }

    @Override
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets, GraphSettings settings) {
        requireEdgeAlgorithm(settings.algorithm());
        return EdgeUnionFind.label(vertexCount, sources, targets, settings.cpuThreads(), 0, null).labels();
    }

    @Override
    public GraphData buildGraph(EdgeData edges, Arena arena) {
        ensureOpen();
        int n = edges.vertexCount();
        try (ChunkedGraphBuilder builder = new ChunkedGraphBuilder()) {
            builder.vertexCount(n);
            for (long e = 0; e < edges.edgeCount(); e++) {
                int u = edges.source(e);
                int v = edges.target(e);
                if (Integer.compareUnsigned(u, n) >= 0 || Integer.compareUnsigned(v, n) >= 0) {
                    throw EdgeData.badEdge(e, u, v, n);
                }
                builder.add(u, v);
            }
            return builder.build(arena);
        }
    }

    @Override
    public DeviceGraphRef upload(GraphData graph, boolean checked) {
        throw new UnsupportedOperationException("device-resident graphs need the CUDA backend; this labeler runs on"
                + " JAVA");
    }

    @Override
    public RunTimings labelDeviceGraph(DeviceGraphRef graph, GraphSettings settings, MemorySegment labels) {
        throw new IllegalArgumentException("the device graph belongs to another labeler");
    }

    @Override
    public void release(DeviceGraphRef graph) {
        // holds none
    }

    @Override
    public LabelsRef deviceLabels() {
        ensureOpen();
        throw new IllegalStateException("no labels on the device: the JAVA backend has no device");
    }

    @Override
    public boolean deviceLabelsCurrent(long run) {
        return false;
    }

    // ---- meshes -------------------------------------------------------------------------------------

    @Override
    public MemoryFigures meshMemory(GridData grid, MeshSettings settings, int labelBytes) {
        requireOwn(AlgorithmInfo.Kind.MESH, settings.algorithm());
        long copies;
        try (RawMemory memory = new RawMemory()) {
            copies = RawMemory.available() && !memory.readsInPlace(grid.cells()) ? grid.cells().byteSize() : 0;
        }
        return new MemoryFigures(labelBytes, Math.multiplyExact(grid.cellCount(), labelBytes), copies, 0,
                HostMemory.available(), 0);
    }

    @Override
    public RunTimings labelMesh(GridData grid, MeshSettings settings, int labelBytes, MemorySegment labels) {
        requireOwn(AlgorithmInfo.Kind.MESH, settings.algorithm());
        return MeshParallelUnionFind.label(grid, settings, labelBytes, labels);
    }

    @Override
    public StatisticsRun labelMeshWithStatistics(GridData grid, MeshSettings settings, int labelBytes,
                                                 RowNumbering numbering, IntensityData intensity, boolean measures,
                                                 MemorySegment labels, Arena arena) {
        long start = System.nanoTime();
        RunTimings labelling = labelMesh(grid, settings, labelBytes, labels);
        long pass = System.nanoTime();
        StatisticsTable table = JavaStatistics.mesh(grid, settings, labels, labelBytes == Long.BYTES, intensity,
                measures, numbering, labels, arena);
        long end = System.nanoTime();
        Map<String, Double> phases = new LinkedHashMap<>(labelling.phasesMs());
        phases.put("statistics", (end - pass) / 1e6);
        return new StatisticsRun(table, new RunTimings((end - start) / 1e6, phases, 0, "JAVA", "JAVA"));
    }

    @Override
    public StatisticsTable meshStatistics(GridData grid, MeshSettings settings, MemorySegment labels, int labelBytes,
                                          RowNumbering numbering, IntensityData intensity, boolean measures,
                                          MemorySegment out, Arena arena) {
        ensureOpen();
        return JavaStatistics.mesh(grid, settings, labels, labelBytes == Long.BYTES, intensity, measures, numbering,
                out, arena);
    }

    @Override
    public StatisticsTable graphStatistics(GraphData graph, MemorySegment labels, RowNumbering numbering,
                                           MemorySegment out, Arena arena) {
        ensureOpen();
        return JavaStatistics.graph(graph, labels, numbering, out, arena, 0);
    }

    @Override
    public WideCounts wideCounts(MemorySegment labels, long cells) {
        ensureOpen();
        return WideLabels.of(labels, cells, failures);
    }

    @Override
    public ContactRows contacts(MemorySegment labels, int labelBytes, ContactSettings settings) {
        ensureOpen();
        return JavaContacts.of(labels, labelBytes, settings);
    }

    // ---- distances ------------------------------------------------------------------------------------

    @Override
    public DistanceRows distances(GraphData graph, DistanceMethod method) {
        ensureOpen();
        return JavaDistances.rows(graph, method);
    }

    @Override
    public int[] distanceMatrix(GraphData graph, DistanceMethod method) {
        ensureOpen();
        return JavaDistances.matrix(graph, method);
    }

    // ---- physics: none in the JVM ----------------------------------------------------------------------

    private UnsupportedOperationException noPhysics(String what) {
        ensureOpen();
        return new UnsupportedOperationException(what + " needs a native backend; the JAVA backend has no such"
                + " simulation");
    }

    @Override
    public Physics.Percolation percolation(Physics.Lattice lattice, GraphSettings settings) {
        throw noPhysics("bond percolation");
    }

    @Override
    public Physics.Ising ising(Physics.Lattice lattice, GraphSettings settings, long seed) {
        throw noPhysics("Swendsen-Wang");
    }

    @Override
    public Physics.CahnHilliard cahnHilliard(Physics.FieldParameters parameters) {
        throw noPhysics("Cahn-Hilliard");
    }

    @Override
    public void drawBonds(long bondCount, long seed, long realisation, double p, MemorySegment open) {
        throw noPhysics("drawing bonds");
    }

    // ---- book-keeping of int32 labels -------------------------------------------------------------------

    /** The components in smallest-member order and each label's component index (-1: unused). */
    private record Table(int count, long labelled, int k, int[] label, int[] size, int[] id) {
    }

    private static Table analyze(LabelsRef labels) {
        MemorySegment s = labels.alive();
        int n = labels.count();
        int[] id = new int[n];
        Arrays.fill(id, -1);
        int[] label = new int[16];
        int[] size = new int[16];
        int k = 0;
        long labelled = 0;
        for (int i = 0; i < n; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l == -1) {
                continue;
            }
            if (l < -1 || l >= n) {
                throw LabelsRef.badLabel(i, l, n);
            }
            if (id[l] < 0) {
                if (k == label.length) {
                    label = Arrays.copyOf(label, 2 * k);
                    size = Arrays.copyOf(size, 2 * k);
                }
                id[l] = k;
                label[k++] = l;
            }
            size[id[l]]++;
            labelled++;
        }
        return new Table(n, labelled, k, label, size, id);
    }

    /** position[c] = where component c stands in {@code order}. */
    private static int[] positions(Table t, ComponentOrder order) {
        int[] position = new int[t.k];
        if (order == ComponentOrder.SMALLEST_MEMBER) {
            for (int c = 0; c < t.k; c++) {
                position[c] = c;
            }
            return position;
        }
        // Size descending, ties by label: the components in label order, sorted stably by size.
        Integer[] byLabel = new Integer[t.k];
        int next = 0;
        for (int l = 0; l < t.count; l++) {
            if (t.id[l] >= 0) {
                byLabel[next++] = t.id[l];
            }
        }
        Arrays.sort(byLabel, (a, b) -> Integer.compare(t.size[b], t.size[a]));
        for (int p = 0; p < t.k; p++) {
            position[byLabel[p]] = p;
        }
        return position;
    }

    @Override
    public LabelCounts summary(LabelsRef labels) {
        ensureOpen();
        Table t = analyze(labels);
        int largest = 0;
        int largestLabel = -1;
        int smallest = 0;
        for (int c = 0; c < t.k; c++) {
            int s = t.size[c];
            if (s > largest || (s == largest && t.label[c] < largestLabel)) {
                largest = s;
                largestLabel = t.label[c];
            }
            smallest = smallest == 0 ? s : Math.min(smallest, s);
        }
        return new LabelCounts(t.count, t.labelled, t.k, largest, largestLabel, smallest);
    }

    @Override
    public long components(LabelsRef labels, ComponentOrder order, long capacity, MemorySegment componentLabels,
                           MemorySegment sizes) {
        ensureOpen();
        Table t = analyze(labels);
        int[] position = positions(t, order);
        for (int c = 0; c < t.k; c++) {
            if (position[c] < capacity) {
                componentLabels.setAtIndex(ValueLayout.JAVA_INT, position[c], t.label[c]);
                sizes.setAtIndex(ValueLayout.JAVA_INT, position[c], t.size[c]);
            }
        }
        return t.k;
    }

    @Override
    public long compact(LabelsRef labels, ComponentOrder order, MemorySegment out) {
        ensureOpen();
        Table t = analyze(labels);
        int[] position = positions(t, order);
        MemorySegment s = labels.alive();
        for (int i = 0; i < t.count; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            out.setAtIndex(ValueLayout.JAVA_INT, i, l < 0 ? -1 : position[t.id[l]]);
        }
        return t.k;
    }

    @Override
    public long histogram(LabelsRef labels, SizeBinning binning, long capacity, MemorySegment binSizes,
                          MemorySegment binCounts) {
        ensureOpen();
        Table t = analyze(labels);
        int largest = 0;
        for (int c = 0; c < t.k; c++) {
            largest = Math.max(largest, t.size[c]);
        }
        if (largest == 0) {
            return 0;
        }
        int[] sizes;
        int[] counts;
        if (binning == SizeBinning.LOG2) {
            int bins = 32 - Integer.numberOfLeadingZeros(largest);
            sizes = new int[bins];
            counts = new int[bins];
            for (int b = 0; b < bins; b++) {
                sizes[b] = 1 << b;
            }
            for (int c = 0; c < t.k; c++) {
                counts[31 - Integer.numberOfLeadingZeros(t.size[c])]++;
            }
        } else {
            int[] perSize = new int[largest + 1];
            for (int c = 0; c < t.k; c++) {
                perSize[t.size[c]]++;
            }
            int bins = 0;
            for (int s = 1; s <= largest; s++) {
                bins += perSize[s] > 0 ? 1 : 0;
            }
            sizes = new int[bins];
            counts = new int[bins];
            int b = 0;
            for (int s = 1; s <= largest; s++) {
                if (perSize[s] > 0) {
                    sizes[b] = s;
                    counts[b++] = perSize[s];
                }
            }
        }
        for (int b = 0; b < Math.min(capacity, sizes.length); b++) {
            binSizes.setAtIndex(ValueLayout.JAVA_INT, b, sizes[b]);
            binCounts.setAtIndex(ValueLayout.JAVA_INT, b, counts[b]);
        }
        return sizes.length;
    }

    @Override
    public void members(LabelsRef labels, ComponentOrder order, MemorySegment offsets, MemorySegment members) {
        ensureOpen();
        Table t = analyze(labels);
        int[] position = positions(t, order);
        int[] cursor = new int[t.k + 1];
        for (int c = 0; c < t.k; c++) {
            cursor[position[c] + 1] = t.size[c];
        }
        for (int p = 0; p < t.k; p++) {
            cursor[p + 1] += cursor[p];
        }
        for (int p = 0; p <= t.k; p++) {
            offsets.setAtIndex(ValueLayout.JAVA_INT, p, cursor[p]);
        }
        MemorySegment s = labels.alive();
        for (int i = 0; i < t.count; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l >= 0) {
                members.setAtIndex(ValueLayout.JAVA_INT, cursor[position[t.id[l]]]++, i);
            }
        }
    }

    @Override
    public long componentMembers(LabelsRef labels, int label, long capacity, MemorySegment out) {
        ensureOpen();
        MemorySegment s = labels.alive();
        int n = labels.count();
        long size = 0;
        for (int i = 0; i < n; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            if (l < -1 || l >= n) {
                throw LabelsRef.badLabel(i, l, n);
            }
            if (l == label) {
                if (size < capacity) {
                    out.setAtIndex(ValueLayout.JAVA_INT, size, i);
                }
                size++;
            }
        }
        return size;
    }

    @Override
    public long filter(LabelsRef labels, int minSize, int maxSize, MemorySegment out) {
        ensureOpen();
        Table t = analyze(labels);
        boolean[] keep = new boolean[t.k];
        long kept = 0;
        for (int c = 0; c < t.k; c++) {
            keep[c] = t.size[c] >= minSize && t.size[c] <= maxSize;
            kept += keep[c] ? 1 : 0;
        }
        MemorySegment s = labels.alive();
        for (int i = 0; i < t.count; i++) {
            int l = s.getAtIndex(ValueLayout.JAVA_INT, i);
            out.setAtIndex(ValueLayout.JAVA_INT, i, l >= 0 && keep[t.id[l]] ? l : -1);
        }
        return kept;
    }

    @Override
    public GraphData inducedSubgraph(GraphData graph, MemorySegment vertices, int vertexCount, Arena arena) {
        ensureOpen();
        int[] renumbered = new int[graph.vertexCount()];
        Arrays.fill(renumbered, -1);
        for (int i = 0; i < vertexCount; i++) {
            int v = vertices.getAtIndex(ValueLayout.JAVA_INT, i);
            if (v < 0 || v >= graph.vertexCount() || (i > 0 && v <= vertices.getAtIndex(ValueLayout.JAVA_INT, i - 1))) {
                throw new IllegalArgumentException("vertex list: entry " + i + " (" + v
                        + ") is out of range or does not ascend");
            }
            renumbered[v] = i;
        }
        int[] offsets = new int[vertexCount + 1];
        int arcs = 0;
        for (int i = 0; i < vertexCount; i++) {
            int v = vertices.getAtIndex(ValueLayout.JAVA_INT, i);
            for (long a = graph.offset(v); a < graph.offset(v + 1); a++) {
                if (renumbered[graph.neighbor(a)] >= 0) {
                    if (arcs == Integer.MAX_VALUE - 8) {
                        throw new IllegalArgumentException("the subgraph has more arcs than a Java array holds");
                    }
                    arcs++;
                }
            }
            offsets[i + 1] = arcs;
        }
        int[] neighbors = new int[arcs];
        int next = 0;
        for (int i = 0; i < vertexCount; i++) {
            int v = vertices.getAtIndex(ValueLayout.JAVA_INT, i);
            for (long a = graph.offset(v); a < graph.offset(v + 1); a++) {
                int w = renumbered[graph.neighbor(a)];
                if (w >= 0) {
                    neighbors[next++] = w;
                }
            }
        }
        return new GraphData(vertexCount, arcs, Integer.BYTES, arena.allocateFrom(ValueLayout.JAVA_INT, offsets),
                arena.allocateFrom(ValueLayout.JAVA_INT, neighbors));
    }
}
