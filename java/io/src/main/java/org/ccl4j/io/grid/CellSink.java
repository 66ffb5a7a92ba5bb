package org.ccl4j.io.grid;

import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.OptionalInt;

/**
 * Stores decoded cell values into a new grid, applying the optional threshold on the way (so a
 * thresholded field never needs a second, full-size grid).
 */
final class CellSink {
    private final Grid grid;
    private final MemorySegment cells;
    private final Grid.CellType type;
    private final boolean thresholded;
    private final int threshold;

    /**
     * @param natural the type that holds the file's values; a threshold makes the grid uint8 instead
     */
    CellSink(Arena arena, GridDims dims, Grid.CellType natural, OptionalInt threshold) {
        Grid.CellType type = threshold.isPresent() ? Grid.CellType.U8 : natural;
        this.grid = Grid.allocate(arena, type, dims.width(), dims.height(), dims.depth());
        this.cells = grid.cells();
        this.type = type;
        this.thresholded = threshold.isPresent();
        this.threshold = threshold.orElse(0);
    }

    Grid grid() {
        return grid;
    }

    /** Stores {@code value} (which fits the natural type) at linear index {@code index}. */
    void put(long index, int value) {
        if (thresholded) {
            cells.set(ValueLayout.JAVA_BYTE, index, value >= threshold ? (byte) 1 : (byte) 0);
        } else {
            switch (type) {
                case U8 -> cells.set(ValueLayout.JAVA_BYTE, index, (byte) value);
                case U16 -> cells.setAtIndex(ValueLayout.JAVA_SHORT, index, (short) value);
                case I32 -> cells.setAtIndex(ValueLayout.JAVA_INT, index, value);
                case F32 -> throw new IllegalStateException("integer values for float cells");
            }
        }
    }

    /** Stores a float value: as it is in a float grid, else whether it is at or above the threshold. */
    void putFloat(long index, float value) {
        if (thresholded) {
            putFlag(index, value >= threshold);  // NaN is at or above no threshold
        } else {
            cells.setAtIndex(ValueLayout.JAVA_FLOAT, index, value);
        }
    }

    /** Stores whether a value (a float's) is at or above the threshold: only for a thresholded sink. */
    void putFlag(long index, boolean atLeast) {
        cells.set(ValueLayout.JAVA_BYTE, index, atLeast ? (byte) 1 : (byte) 0);
    }
}
