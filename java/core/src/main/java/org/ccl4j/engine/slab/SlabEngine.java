package org.ccl4j.engine.slab;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.ccl4j.engine.spi.Engine;
import org.ccl4j.engine.spi.ForwardingEngine;
import org.ccl4j.engine.spi.GridData;
import org.ccl4j.engine.spi.IntensityData;
import org.ccl4j.engine.spi.MemoryFigures;
import org.ccl4j.engine.spi.MeshSettings;
import org.ccl4j.engine.spi.RowNumbering;
import org.ccl4j.engine.spi.RunTimings;
import org.ccl4j.internal.Failures;
import org.ccl4j.internal.HostMemory;

/**
 * An engine that labels grids in slabs where labelling them whole would take more memory than the
 * settings' budget allows, or than there is: the slabs are labelled by the engine it wraps, which
 * does everything else ({@link SlabRun} says how).
 *
 * <p>The budget bounds the memory of labelling one slab: on CUDA the device memory the wrapped
 * engine reports for it, elsewhere the host memory of its labels and working arrays. Without a
 * budget, grids are labelled in slabs only when they do not fit: on CUDA when they need more
 * device memory than is free (slabs then take 90% of it), elsewhere when cells and labels exceed
 * the host memory available (slabs then take a quarter of it), as for grids and labels in
 * memory-mapped files larger than RAM.
 */
public final class SlabEngine extends ForwardingEngine {
    /** Host memory of a slab's own arrays per cell: its int32 labels and the map to the final labels. */
    private static final long WORKING_BYTES_PER_CELL = Integer.BYTES + Long.BYTES;

    /** Grids below this many bytes of cells and labels are not weighed for automatic slabs: they fit. */
    private static final long AUTOMATIC_FROM = 256L << 20;

    private final Failures failures;

    public SlabEngine(Engine inner, Failures failures) {
        super(inner);
        this.failures = failures;
    }

    @Override
    public MemoryFigures meshMemory(GridData grid, MeshSettings settings, int labelBytes) {
        SlabPlan plan = plan(grid, settings, labelBytes);
        if (plan == null) {
            return inner.meshMemory(grid, settings, labelBytes);
        }
        MemoryFigures slab = inner.meshMemory(plan.slab(0), plan.settings(settings, 0), Integer.BYTES);
        return new MemoryFigures(labelBytes, Math.multiplyExact(grid.cellCount(), labelBytes),
                slab.hostBytes() + workingBytes(plan), slab.deviceBytes(), slab.hostAvailable(), slab.deviceAvailable());
    }

    @Override
    public RunTimings labelMesh(GridData grid, MeshSettings settings, int labelBytes, MemorySegment labels) {
        SlabPlan plan = plan(grid, settings, labelBytes);
        if (plan == null) {
            return inner.labelMesh(grid, settings, labelBytes, labels);
        }
        requireWorkingMemory(plan);
        return new SlabRun(inner, grid, settings, plan).label(labelBytes, labels);
    }

    @Override
    public StatisticsRun labelMeshWithStatistics(GridData grid, MeshSettings settings, int labelBytes,
                                                 RowNumbering numbering, IntensityData intensity, boolean measures,
                                                 MemorySegment labels, Arena arena) {
        SlabPlan plan = plan(grid, settings, labelBytes);
        if (plan == null) {
            return inner.labelMeshWithStatistics(grid, settings, labelBytes, numbering, intensity, measures, labels, arena);
        }
        requireWorkingMemory(plan);
        return new SlabRun(inner, grid, settings, plan).labelWithStatistics(labelBytes, numbering, intensity, measures,
                labels, arena);
    }

    /** The slabs {@code grid} is labelled in, or null to label it whole. */
    private SlabPlan plan(GridData grid, MeshSettings settings, int labelBytes) {
        int extent = SlabPlan.extent(grid);
        if (extent < 2) {
            return null;
        }
        boolean cuda = inner.backend().equals("CUDA");
        long budget = settings.memoryBudget();
        // int32 labels (1..k) of more cells than an int32 indexes: only slabs, each indexed by int32, write them
        boolean narrow = labelBytes == Integer.BYTES && grid.cellCount() > Integer.MAX_VALUE;
        if (budget == 0 && !narrow
                && grid.cellCount() * (grid.cellBytes() + Integer.BYTES + labelBytes) < AUTOMATIC_FROM) {
            return null;  // too small not to fit: spares the queries of free memory on every call
        }
        // the engines weigh the whole grid with the labels they can write whole
        MemoryFigures whole = inner.meshMemory(grid, settings, narrow ? Long.BYTES : labelBytes);
        if (budget == 0) {
            if (cuda && whole.deviceBytes() > whole.deviceAvailable()) {
                budget = whole.deviceAvailable() / 10 * 9;
            } else if (!cuda && whole.hostAvailable() >= 0 && grid.cellCount() * grid.cellBytes()
                    + whole.labelsBytes() + whole.hostBytes() > whole.hostAvailable()) {
                budget = whole.hostAvailable() / 4;
            } else if (narrow) {
                budget = Long.MAX_VALUE;
            } else {
                return null;
            }
        }
        if (!narrow
                && (cuda ? whole.deviceBytes() : whole.hostBytes() + WORKING_BYTES_PER_CELL * grid.cellCount()) <= budget) {
            return null;  // the whole grid, weighed as a slab is, fits
        }
        long planeCells = SlabPlan.planeCells(grid);
        long fitting = Integer.MAX_VALUE / planeCells;  // a slab's labels are int32
        long onePlane = slabBytes(grid, settings, 1, cuda);
        if (fitting == 0 || onePlane > budget) {
            throw failures.outOfMemory("labelling " + grid.describe() + " in slabs of one plane (" + planeCells
                    + " cells) needs " + HostMemory.format(onePlane) + (cuda ? " of device memory" : "")
                    + (fitting == 0 ? ", and a plane has more than " + Integer.MAX_VALUE + " cells"
                    : "; the memory budget is " + HostMemory.format(budget)));
        }
        int lo = 1;  // the most planes per slab within the budget, by bisection
        int hi = (int) Math.min(extent, fitting);
        while (lo < hi) {
            int mid = (int) (((long) lo + hi + 1) >>> 1);
            if (slabBytes(grid, settings, mid, cuda) <= budget) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return SlabPlan.of(grid, lo);
    }

    /** What labelling a slab of {@code planes} planes takes of the memory the budget bounds. */
    private long slabBytes(GridData grid, MeshSettings settings, int planes, boolean cuda) {
        GridData slab = SlabPlan.slab(grid, 0, planes);
        MemoryFigures f = inner.meshMemory(slab, SlabPlan.settings(grid, settings, planes), Integer.BYTES);
        return cuda ? f.deviceBytes() : f.hostBytes() + WORKING_BYTES_PER_CELL * slab.cellCount();
    }

    /** Host memory of the slab run's own arrays: a slab's labels and map, two planes of labels. */
    private static long workingBytes(SlabPlan plan) {
        return WORKING_BYTES_PER_CELL * plan.largestSlabCells() + 3L * Long.BYTES * plan.planeCells();
    }

    private void requireWorkingMemory(SlabPlan plan) {
        HostMemory.require("labelling " + plan.grid().describe() + " in " + plan.slabs() + " slabs",
                workingBytes(plan), failures);
    }
}
