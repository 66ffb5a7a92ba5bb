package org.ccl4j.engine.spi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An engine that hands every call to another: the base of engines that change a few calls of an
 * engine they wrap (labelling in slabs, streaming) and keep the rest as it is.
 */
public abstract class ForwardingEngine implements Engine {
    /** The engine the calls go to. */
    protected final Engine inner;

    protected ForwardingEngine(Engine inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public String backend() {
        return inner.backend();
    }

    @Override
    public int[] devices() {
        return inner.devices();
    }

    @Override
    public boolean isClosed() {
        return inner.isClosed();
    }

    @Override
    public MemorySegment allocateLabels(Arena arena, long count, int labelBytes) {
        return inner.allocateLabels(arena, count, labelBytes);
    }

    @Override
    public MemorySegment scratchInts(Arena scratch, long count) {
        return inner.scratchInts(scratch, count);
    }

    @Override
    public RunTimings labelGraph(GraphData graph, GraphSettings settings, MemorySegment labels) {
        return inner.labelGraph(graph, settings, labels);
    }

    @Override
    public void checkGraph(GraphData graph, boolean symmetry) {
        inner.checkGraph(graph, symmetry);
    }

    @Override
    public RunTimings labelEdges(EdgeData edges, GraphSettings settings, MemorySegment labels) {
        return inner.labelEdges(edges, settings, labels);
    }

    @Override
    public int[] labelEdges(int vertexCount, int[] sources, int[] targets, GraphSettings settings) {
        return inner.labelEdges(vertexCount, sources, targets, settings);
    }

    @Override
    public GraphData buildGraph(EdgeData edges, Arena arena) {
        return inner.buildGraph(edges, arena);
    }

    @Override
    public GraphData inducedSubgraph(GraphData graph, MemorySegment vertices, int count, Arena arena) {
        return inner.inducedSubgraph(graph, vertices, count, arena);
    }

    @Override
    public DeviceGraphRef upload(GraphData graph, boolean checked) {
        return inner.upload(graph, checked);
    }

    @Override
    public RunTimings labelDeviceGraph(DeviceGraphRef graph, GraphSettings settings, MemorySegment labels) {
        return inner.labelDeviceGraph(graph, settings, labels);
    }

    @Override
    public void release(DeviceGraphRef graph) {
        inner.release(graph);
    }

    @Override
    public LabelsRef deviceLabels() {
        return inner.deviceLabels();
    }

    @Override
    public boolean deviceLabelsCurrent(long run) {
        return inner.deviceLabelsCurrent(run);
    }

    @Override
    public MemoryFigures meshMemory(GridData grid, MeshSettings settings, int labelBytes) {
        return inner.meshMemory(grid, settings, labelBytes);
    }

    @Override
    public RunTimings labelMesh(GridData grid, MeshSettings settings, int labelBytes, MemorySegment labels) {
        return inner.labelMesh(grid, settings, labelBytes, labels);
    }

    @Override
    public StatisticsRun labelMeshWithStatistics(GridData grid, MeshSettings settings, int labelBytes,
                                                 RowNumbering numbering, IntensityData intensity, boolean measures,
                                                 MemorySegment labels, Arena arena) {
        return inner.labelMeshWithStatistics(grid, settings, labelBytes, numbering, intensity, measures, labels, arena);
    }

    @Override
    public StatisticsTable meshStatistics(GridData grid, MeshSettings settings, MemorySegment labels, int labelBytes,
                                          RowNumbering numbering, IntensityData intensity, boolean measures,
                                          MemorySegment out, Arena arena) {
        return inner.meshStatistics(grid, settings, labels, labelBytes, numbering, intensity, measures, out, arena);
    }

    @Override
    public StatisticsTable graphStatistics(GraphData graph, MemorySegment labels, RowNumbering numbering,
                                           MemorySegment out, Arena arena) {
        return inner.graphStatistics(graph, labels, numbering, out, arena);
    }

    @Override
    public WideCounts wideCounts(MemorySegment labels, long cells) {
        return inner.wideCounts(labels, cells);
    }

    @Override
    public ContactRows contacts(MemorySegment labels, int labelBytes, ContactSettings settings) {
        return inner.contacts(labels, labelBytes, settings);
    }

    @Override
    public DistanceRows distances(GraphData graph, DistanceMethod method) {
        return inner.distances(graph, method);
    }

    @Override
    public int[] distanceMatrix(GraphData graph, DistanceMethod method) {
        return inner.distanceMatrix(graph, method);
    }

    @Override
    public LabelCounts summary(LabelsRef labels) {
        return inner.summary(labels);
    }

    @Override
    public long components(LabelsRef labels, ComponentOrder order, long capacity, MemorySegment componentLabels,
                           MemorySegment sizes) {
        return inner.components(labels, order, capacity, componentLabels, sizes);
    }

    @Override
    public long compact(LabelsRef labels, ComponentOrder order, MemorySegment out) {
        return inner.compact(labels, order, out);
    }

    @Override
    public long histogram(LabelsRef labels, SizeBinning binning, long capacity, MemorySegment binSizes,
                          MemorySegment binCounts) {
        return inner.histogram(labels, binning, capacity, binSizes, binCounts);
    }

    @Override
    public void members(LabelsRef labels, ComponentOrder order, MemorySegment offsets, MemorySegment members) {
        inner.members(labels, order, offsets, members);
    }

    @Override
    public long componentMembers(LabelsRef labels, int label, long capacity, MemorySegment out) {
        return inner.componentMembers(labels, label, capacity, out);
    }

    @Override
    public long filter(LabelsRef labels, int minSize, int maxSize, MemorySegment out) {
        return inner.filter(labels, minSize, maxSize, out);
    }

    @Override
    public Physics.Percolation percolation(Physics.Lattice lattice, GraphSettings settings) {
        return inner.percolation(lattice, settings);
    }

    @Override
    public Physics.Ising ising(Physics.Lattice lattice, GraphSettings settings, long seed) {
        return inner.ising(lattice, settings, seed);
    }

    @Override
    public Physics.CahnHilliard cahnHilliard(Physics.FieldParameters parameters) {
        return inner.cahnHilliard(parameters);
    }

    @Override
    public void drawBonds(long bondCount, long seed, long realisation, double p, MemorySegment open) {
        inner.drawBonds(bondCount, seed, realisation, p, open);
    }

    @Override
    public void close() {
        inner.close();
    }
}
