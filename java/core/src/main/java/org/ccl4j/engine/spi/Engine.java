package org.ccl4j.engine.spi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What the API asks of a backend: the seam between {@code ComponentLabeler} (and the results and
 * physics objects it makes) and the code that does the work. The API turns its types into this
 * package's data ({@link GraphData}, {@link GridData}, {@link GraphSettings}, ...) and back, so
 * that no engine depends on the API and new engines plug in without touching it; the factory
 * {@code org.ccl4j.engine.Engines} is the one place that picks an engine for a backend.
 *
 * <p>An engine runs on one backend and may hold native state (a CUDA stream, device buffers),
 * freed by {@link #close()}; its calls are serialised, and a call on a closed engine throws
 * {@link IllegalStateException}. Algorithms are named as in the {@link AlgorithmTable}; an
 * engine runs every algorithm of the table that runs on its backend, those of another engine
 * (the JVM's union-finds on a native backend) by handing them on.
 *
 * <p>Outputs are segments of the caller's that the engine fills; arguments have been checked by
 * the API (shapes, sizes, alignment, disjointness), except what only the work reveals (ids out of
 * range, asymmetry, non-canonical labels), which throws {@link IllegalArgumentException}.
 * Failures of the native library throw what the API's {@link org.ccl4j.internal.Failures} make.
 */
public interface Engine extends AutoCloseable {
    /** The backend, as the API's {@code Backend} constant name, AUTO resolved. */
    String backend();

    /** The CUDA devices in order (a device may repeat: partitions of it); none on the other backends. */
    int[] devices();

    /** The CUDA device index (the first of several), or -1. */
    default int device() {
        int[] devices = devices();
        return devices.length > 0 ? devices[0] : -1;
    }

    /** Whether {@link #close()} has been called. */
    boolean isClosed();

    /** Labels for {@code count} entries of {@code labelBytes}, not zeroed; page-locked on CUDA. */
    MemorySegment allocateLabels(Arena arena, long count, int labelBytes);

    /** Room for {@code count} ints of book-keeping output, freed with {@code scratch} (or by the GC). */
    MemorySegment scratchInts(Arena scratch, long count);

    // ---- graphs and edge lists ------------------------------------------------------------------

    /** Writes the canonical labels of {@code graph} into {@code labels}; checks it first when the settings say. */
    RunTimings labelGraph(GraphData graph, GraphSettings settings, MemorySegment labels);

    /** Checks offsets and ids, and with {@code symmetry} that every arc's reverse is there as often. */
    void checkGraph(GraphData graph, boolean symmetry);

    /** Writes the canonical labels of {@code edges} (AUTO or the JVM's UNION_FIND) into {@code labels}. */
    RunTimings labelEdges(EdgeData edges, GraphSettings settings, MemorySegment labels);

    /** The canonical labels of the edges {@code sources[i]}–{@code targets[i]}, arrays in, array out. */
    int[] labelEdges(int vertexCount, int[] sources, int[] targets, GraphSettings settings);

    /** The canonical CSR of {@code edges} (symmetrised, no loops or repeats, sorted), in {@code arena}. */
    GraphData buildGraph(EdgeData edges, Arena arena);

    /** The subgraph induced by the {@code count} ascending {@code vertices}, renumbered 0.., in {@code arena}. */
    GraphData inducedSubgraph(GraphData graph, MemorySegment vertices, int count, Arena arena);

    /** Copies {@code graph} to the GPU (checked in full first unless {@code checked}). */
    DeviceGraphRef upload(GraphData graph, boolean checked);

    /** Labels a device graph of this engine, into {@code labels} or, with NULL, leaving them on the device. */
    RunTimings labelDeviceGraph(DeviceGraphRef graph, GraphSettings settings, MemorySegment labels);

    /** Frees a device graph of this engine; nothing when it is freed already. */
    void release(DeviceGraphRef graph);

    /** The labels the last device labelling left on the GPU. */
    LabelsRef deviceLabels();

    /** Whether device labelling {@code run} is still the last one, its labels still on the GPU. */
    boolean deviceLabelsCurrent(long run);

    // ---- meshes -----------------------------------------------------------------------------------

    /**
     * What labelling {@code grid} with labels of {@code labelBytes} needs and what there is; checks
     * the request (the algorithm on this backend, int64 labels) without reading the cells.
     */
    MemoryFigures meshMemory(GridData grid, MeshSettings settings, int labelBytes);

    /** Writes the canonical labels of {@code grid} into {@code labels} (ints, or longs for {@code labelBytes} 8). */
    RunTimings labelMesh(GridData grid, MeshSettings settings, int labelBytes, MemorySegment labels);

    /** A table and what its call measured. */
    record StatisticsRun(StatisticsTable table, RunTimings timings) {
    }

    /**
     * Labels {@code grid} into {@code labels} and computes its table in the same call, the labels
     * left in {@code numbering}; the table in {@code arena}. {@code intensity} null: the cells.
     * {@code measures}: the table has the measurement columns too.
     */
    StatisticsRun labelMeshWithStatistics(GridData grid, MeshSettings settings, int labelBytes, RowNumbering numbering,
                                          IntensityData intensity, boolean measures, MemorySegment labels, Arena arena);

    /**
     * The table of canonical mesh labels of {@code grid} made with {@code settings}; the labels in
     * {@code numbering} go to {@code out} (may be the labels themselves). {@code intensity} null: the cells.
     * {@code measures}: the table has the measurement columns too.
     */
    StatisticsTable meshStatistics(GridData grid, MeshSettings settings, MemorySegment labels, int labelBytes,
                                   RowNumbering numbering, IntensityData intensity, boolean measures, MemorySegment out,
                                   Arena arena);

    /** The table of a graph's canonical labels; {@code out} as for meshes. */
    StatisticsTable graphStatistics(GraphData graph, MemorySegment labels, RowNumbering numbering, MemorySegment out,
                                    Arena arena);

    /** The book-keeping of {@code cells} int64 canonical labels. */
    WideCounts wideCounts(MemorySegment labels, long cells);

    /**
     * The contacts between the labels ({@code labelBytes} 4 or 8, each in -1 .. cells-1) of the
     * settings' grid; a label out of range throws {@link IllegalArgumentException} naming its cell.
     */
    ContactRows contacts(MemorySegment labels, int labelBytes, ContactSettings settings);

    // ---- distances --------------------------------------------------------------------------------

    /** Distances within every component of a graph (checked in full first). */
    DistanceRows distances(GraphData graph, DistanceMethod method);

    /** All distances of a small graph, row-major, -1 between components (checked in full first). */
    int[] distanceMatrix(GraphData graph, DistanceMethod method);

    // ---- book-keeping of int32 labels (ccl4j/labels.h) --------------------------------------------
    // Outputs are sized by the caller; a NULL output with capacity 0 asks only for a count.

    LabelCounts summary(LabelsRef labels);

    /** Writes the first min(capacity, k) components in order; returns k. */
    long components(LabelsRef labels, ComponentOrder order, long capacity, MemorySegment componentLabels,
                    MemorySegment sizes);

    /** Writes the compacted labels; returns k. */
    long compact(LabelsRef labels, ComponentOrder order, MemorySegment out);

    /** Writes the first min(capacity, bins) bins; returns the number of bins. */
    long histogram(LabelsRef labels, SizeBinning binning, long capacity, MemorySegment binSizes,
                   MemorySegment binCounts);

    /** Writes k + 1 offsets and the labelled entries' ids, components in order, members ascending. */
    void members(LabelsRef labels, ComponentOrder order, MemorySegment offsets, MemorySegment members);

    /** Writes the first min(capacity, size) members of one component; returns its size. */
    long componentMembers(LabelsRef labels, int label, long capacity, MemorySegment out);

    /** Writes the labels with the components outside the sizes set to -1; returns the number kept. */
    long filter(LabelsRef labels, int minSize, int maxSize, MemorySegment out);

    // ---- physics ------------------------------------------------------------------------------------

    /** Bond percolation on {@code lattice}, labelled by the settings' algorithm, on this engine's backend. */
    Physics.Percolation percolation(Physics.Lattice lattice, GraphSettings settings);

    /** A Swendsen-Wang chain on {@code lattice}. */
    Physics.Ising ising(Physics.Lattice lattice, GraphSettings settings, long seed);

    /** A Cahn-Hilliard field. */
    Physics.CahnHilliard cahnHilliard(Physics.FieldParameters parameters);

    /** The bonds of one realisation as percolation draws them, a byte each, into {@code open}. */
    void drawBonds(long bondCount, long seed, long realisation, double p, MemorySegment open);

    /** Frees what the engine holds; waits for a running call. Closing twice does nothing. */
    @Override
    void close();
}
