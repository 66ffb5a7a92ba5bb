package org.ccl4j.engine.slab;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongToIntFunction;
import java.util.stream.IntStream;

import org.ccl4j.engine.serial.LabelArray;
import org.ccl4j.engine.serial.MeshMeasurements;
import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.engine.spi.StatisticsTable;
import org.ccl4j.internal.Segments;
import org.ccl4j.internal.UninitializedMemory;

/**
 * One labelling of a grid in slabs, with the engine that labels each slab.
 *
 * <p>First pass: each slab is labelled on its own with open boundaries (and its table computed,
 * when one is asked for), in int32 labels canonical within the slab; a slab's labels are the
 * grid's label indices from its first cell on, so a slab cluster's global canonical label is its
 * local one plus that offset. The bonds that the slabs left out (between one slab's last plane
 * and the next one's first, and across periodic boundaries) are joined in a
 * {@link BoundaryUnionFind} of the clusters they touch. Every root there is the smallest label of
 * its set, so a cluster is "first" (its set's canonical label) unless the union-find says
 * otherwise, and the first clusters in order of their labels are the components in raster order.
 *
 * <p>Second pass: each slab is labelled again (the same labels: labelling is deterministic) and
 * its cells written in the numbering asked for, through a map from the slab's cluster labels to the
 * final ones. Only two slabs' working arrays and the boundary clusters are held at a time, so the
 * memory does not grow with the grid; the cells are read twice.
 */
final class SlabRun {
    private static final int CHUNK = 1 << 20;

    private final Engine engine;
    private final GridData grid;
    private final MeshSettings settings;
    private final SlabPlan plan;
    private final FaceBonds bonds;
    private final BoundaryUnionFind clusters = new BoundaryUnionFind();
    private final long[] slabClusters;     // clusters per slab
    private final long[] firstsBefore;     // first clusters in the slabs before each slab
    private long[][] laterClusters;        // per slab: the labels of its clusters that are not first, ascending
    private long[] finalOfNode;            // the final label of each first boundary cluster
    private final Map<String, Double> phases = new LinkedHashMap<>();
    private String backend;
    private String algorithm;

    SlabRun(Engine engine, GridData grid, MeshSettings settings, SlabPlan plan) {
        this.engine = engine;
        this.grid = grid;
        this.settings = settings;
        this.plan = plan;
        this.bonds = new FaceBonds(grid, settings);
        this.slabClusters = new long[plan.slabs()];
        this.firstsBefore = new long[plan.slabs() + 1];
    }

    /** Writes the canonical labels of the grid into {@code labels} (ints or longs for {@code labelBytes} 8). */
    RunTimings label(int labelBytes, MemorySegment labels) {
        requireRoom(RowNumbering.CANONICAL, labelBytes);
        long start = System.nanoTime();
        try (Arena run = Arena.ofShared()) {  // shared: the chunk loops over its buffers run in parallel
            MemorySegment local = engine.allocateLabels(run, plan.largestSlabCells(), Integer.BYTES);
            firstPass(local, null, null, run);
            write(local, RowNumbering.CANONICAL, null, labelBytes, labels, run);
        }
        return timings(start);
    }

    /**
     * Writes the labels of the grid in {@code numbering} into {@code labels} and returns its table,
     * in {@code arena}; {@code intensity} null: the cells.
     */
    Engine.StatisticsRun labelWithStatistics(int labelBytes, RowNumbering numbering, IntensityData intensity,
                                             boolean measures, MemorySegment labels, Arena arena) {
        requireRoom(numbering, labelBytes);
        long start = System.nanoTime();
        try (Arena run = Arena.ofShared()) {  // shared: the chunk loops over its buffers run in parallel
            MemorySegment local = engine.allocateLabels(run, plan.largestSlabCells(), Integer.BYTES);
            StatisticsTable[] tables = new StatisticsTable[plan.slabs()];
            firstPass(local, intensity, tables, run);
            long t = System.nanoTime();
            SlabStatistics merged = SlabStatistics.merge(plan, clusters, tables, firstCount(), numbering, measures,
                    arena, run);
            phase("statistics", t);
            write(local, numbering, merged, labelBytes, labels, run);
            if (measures) {  // a pass over the whole grid's final labels: faces and borders cross the slabs
                t = System.nanoTime();
                MeshMeasurements.fill(merged.table(), grid.width(), grid.height(), grid.depth(),
                        new LabelArray(labels, labelBytes == Long.BYTES), numbering.background(), rowOf(numbering,
                                merged.table()));
                phase("measurements", t);
            }
            return new Engine.StatisticsRun(merged.table(), timings(start));
        }
    }

    /** The row of a final label in {@code numbering} ({@code table}: its FIRST column, in raster order when canonical). */
    private static LongToIntFunction rowOf(RowNumbering numbering, StatisticsTable table) {
        return switch (numbering) {
            case RASTER -> l -> (int) (l - 1);
            case SIZE -> l -> (int) l;
            case CANONICAL -> {
                long[] firsts = new long[(int) table.rows()];
                for (int r = 0; r < firsts.length; r++) {
                    firsts[r] = table.getLong(StatisticsTable.Column.FIRST, r);
                }
                yield l -> Arrays.binarySearch(firsts, l);
            }
        };
    }

    /** Canonical labels are cell indices: int32 holds them up to {@link Integer#MAX_VALUE} cells. */
    private void requireRoom(RowNumbering numbering, int labelBytes) {
        if (numbering == RowNumbering.CANONICAL && labelBytes == Integer.BYTES && grid.cellCount() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("int32 labels cannot hold the canonical labels of " + grid.describe()
                    + " (" + grid.cellCount() + " cells)");
        }
    }

    /** Labels every slab and joins the bonds between them; {@code tables} non-null: with the slabs' tables. */
    private void firstPass(MemorySegment local, IntensityData intensity, StatisticsTable[] tables, Arena run) {
        long planeCells = plan.planeCells();
        MemorySegment previous = UninitializedMemory.allocate(run, planeCells * Long.BYTES, Long.BYTES);
        MemorySegment current = UninitializedMemory.allocate(run, planeCells * Long.BYTES, Long.BYTES);
        MemorySegment first = null;
        boolean periodicAxis = plan.alongZ() ? settings.periodicZ() : settings.periodicY();
        for (int s = 0; s < plan.slabs(); s++) {
            long t = System.nanoTime();
            RunTimings slab;
            MeshSettings slabSettings = plan.settings(settings, s);
            if (tables != null) {
                Engine.StatisticsRun r = engine.labelMeshWithStatistics(plan.slab(s), slabSettings, Integer.BYTES,
                        RowNumbering.CANONICAL, plan.intensity(intensity, s), false, local, run);
                tables[s] = r.table();
                slabClusters[s] = r.table().rows();
                slab = r.timings();
            } else {
                slab = engine.labelMesh(plan.slab(s), slabSettings, Integer.BYTES, local);
                slabClusters[s] = countRoots(local, plan.cells(s));
            }
            backend = slab.backend();
            algorithm = slab.algorithm();
            phase("label slabs", t);
            settings.progress().report("label slabs", s + 1L, 2L * plan.slabs());

            t = System.nanoTime();
            long base = plan.base(s);
            if (s > 0) {
                plane(local, base, 0, current);
                bonds.joinPlanes(previous, plan.start(s) - 1, current, plan.start(s), false, clusters);
            }
            if (s == 0 && periodicAxis) {
                first = UninitializedMemory.allocate(run, planeCells * Long.BYTES, Long.BYTES);
                plane(local, base, 0, first);
            }
            if (bonds.periodicWithinSlabs()) {
                bonds.joinWithin(local, base, plan.start(s), plan.end(s), clusters);
            }
            plane(local, base, plan.end(s) - plan.start(s) - 1, previous);
            phase("join", t);
        }
        long t = System.nanoTime();
        if (periodicAxis) {
            bonds.joinPlanes(previous, plan.extent() - 1, first, 0, true, clusters);
        }
        clusters.resolve();
        sortLaterClusters();
        phase("join", t);
    }

    /** The global labels of plane {@code p} of a slab (from grid index {@code base}) into {@code out}, -1 for none. */
    private void plane(MemorySegment local, long base, int p, MemorySegment out) {
        long planeCells = plan.planeCells();
        long offset = p * planeCells;
        for (long q = 0; q < planeCells; q++) {
            int l = local.getAtIndex(ValueLayout.JAVA_INT, offset + q);
            out.setAtIndex(ValueLayout.JAVA_LONG, q, l < 0 ? -1 : base + l);
        }
    }

    /** Per slab, the boundary clusters that are not first, ascending; and the first clusters before each slab. */
    private void sortLaterClusters() {
        int[] counts = new int[plan.slabs()];
        for (int v = 0; v < clusters.size(); v++) {
            if (!clusters.isRoot(v)) {
                counts[slabOf(clusters.label(v))]++;
            }
        }
        laterClusters = new long[plan.slabs()][];
        for (int s = 0; s < plan.slabs(); s++) {
            laterClusters[s] = new long[counts[s]];
            counts[s] = 0;
        }
        for (int v = 0; v < clusters.size(); v++) {
            if (!clusters.isRoot(v)) {
                int s = slabOf(clusters.label(v));
                laterClusters[s][counts[s]++] = clusters.label(v);
            }
        }
        for (int s = 0; s < plan.slabs(); s++) {
            Arrays.sort(laterClusters[s]);
            firstsBefore[s + 1] = firstsBefore[s] + slabClusters[s] - laterClusters[s].length;
        }
        finalOfNode = new long[clusters.size()];
    }

    /** The components of the grid. */
    long firstCount() {
        return firstsBefore[plan.slabs()];
    }

    private int slabOf(long label) {
        return (int) (label / plan.planeCells() / plan.planes());
    }

    /**
     * Labels every slab again and writes its cells' final labels in {@code numbering} ({@code merged}:
     * the table, for the SIZE numbering's order).
     */
    private void write(MemorySegment local, RowNumbering numbering, SlabStatistics merged, int labelBytes,
                       MemorySegment labels, Arena run) {
        MemorySegment map = UninitializedMemory.allocate(run, plan.largestSlabCells() * Long.BYTES, Long.BYTES);
        long background = numbering == RowNumbering.RASTER ? 0 : -1;
        for (int s = 0; s < plan.slabs(); s++) {
            long t = System.nanoTime();
            engine.labelMesh(plan.slab(s), plan.settings(settings, s), Integer.BYTES, local);
            phase("label slabs", t);
            t = System.nanoTime();
            long cells = plan.cells(s);
            long base = plan.base(s);
            int slab = s;
            // the final label of each cluster of the slab, at its local label: first clusters here ...
            long[] rootsBefore = countRootsByChunk(local, cells);
            chunks(cells).forEach(c -> {
                long rank = rootsBefore[c];
                long end = Math.min(cells, (c + 1L) * CHUNK);
                for (long i = (long) c * CHUNK; i < end; i++) {
                    if (local.getAtIndex(ValueLayout.JAVA_INT, i) == i) {
                        map.setAtIndex(ValueLayout.JAVA_LONG, i, finalOfFirst(slab, base + i, rank++, numbering, merged));
                    }
                }
            });
            // ... then those whose component starts before them, at their root's
            for (long later : laterClusters[s]) {
                int root = clusters.rootOf(clusters.nodeOf(later));
                map.setAtIndex(ValueLayout.JAVA_LONG, later - base, finalOfNode[root]);
            }
            // the caller's labels may be confined to this thread
            IntStream writes = Segments.isShared(labels) ? chunks(cells) : chunks(cells).sequential();
            writes.forEach(c -> {
                long end = Math.min(cells, (c + 1L) * CHUNK);
                for (long i = (long) c * CHUNK; i < end; i++) {
                    int l = local.getAtIndex(ValueLayout.JAVA_INT, i);
                    long value = l < 0 ? background : map.getAtIndex(ValueLayout.JAVA_LONG, l);
                    if (labelBytes == Long.BYTES) {
                        labels.setAtIndex(ValueLayout.JAVA_LONG, base + i, value);
                    } else {
                        labels.setAtIndex(ValueLayout.JAVA_INT, base + i, (int) value);
                    }
                }
            });
            phase("write", t);
            settings.progress().report("write", plan.slabs() + s + 1L, 2L * plan.slabs());
        }
    }

    /**
     * The final label of a cluster of slab {@code s}, its label {@code label} and {@code rank} in
     * raster order among the slab's clusters, if it is first in its component (otherwise a value the
     * caller overwrites); the final label of a first boundary cluster is kept for those it heads.
     */
    private long finalOfFirst(int s, long label, long rank, RowNumbering numbering, SlabStatistics merged) {
        int node = clusters.nodeOf(label);
        if (node >= 0 && !clusters.isRoot(node)) {
            return -1;
        }
        long row = firstsBefore[s] + rank - laterBefore(laterClusters[s], label);
        long value = switch (numbering) {
            case CANONICAL -> label;
            case RASTER -> row + 1;
            case SIZE -> merged.sizeRank(row);
        };
        if (node >= 0) {
            finalOfNode[node] = value;
        }
        return value;
    }

    /** How many of the ascending {@code later} are below {@code label}. */
    private static long laterBefore(long[] later, long label) {
        int at = Arrays.binarySearch(later, label);
        return at >= 0 ? at : -at - 1;
    }

    private long countRoots(MemorySegment local, long cells) {
        long[] before = countRootsByChunk(local, cells);
        return before[before.length - 1];
    }

    /** Per chunk of the slab's cells, the roots (label = own index) in the chunks before it; one more entry: all. */
    private static long[] countRootsByChunk(MemorySegment local, long cells) {
        int chunks = (int) ((cells + CHUNK - 1) / CHUNK);
        long[] before = new long[chunks + 1];
        chunks(cells).forEach(c -> {
            long end = Math.min(cells, (c + 1L) * CHUNK);
            long roots = 0;
            for (long i = (long) c * CHUNK; i < end; i++) {
                if (local.getAtIndex(ValueLayout.JAVA_INT, i) == i) {
                    roots++;
                }
            }
            before[c + 1] = roots;
        });
        for (int c = 0; c < chunks; c++) {
            before[c + 1] += before[c];
        }
        return before;
    }

    private static IntStream chunks(long cells) {
        return IntStream.range(0, (int) ((cells + CHUNK - 1) / CHUNK)).parallel();
    }

    private void phase(String name, long startNanos) {
        phases.merge(name, (System.nanoTime() - startNanos) / 1e6, Double::sum);
    }

    private RunTimings timings(long startNanos) {
        return new RunTimings((System.nanoTime() - startNanos) / 1e6, Collections.unmodifiableMap(new LinkedHashMap<>(phases)),
                plan.slabs(), backend, algorithm);
    }
}
