package org.ccl4j.engine.spi;

/**
 * How a statistics table numbers its rows and labels (the API's {@code Numbering}); codes are the
 * ABI's {@code CCL4J_NUMBERING_*}.
 */
public enum RowNumbering {
    /** Canonical labels, -1 for background; rows in raster order. */
    CANONICAL(0),
    /** Labels 1..k in raster order, 0 for background. */
    RASTER(1),
    /** Labels 0..k-1, largest first (ties in raster order), -1 for background. */
    SIZE(2);

    private final int code;

    RowNumbering(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The label of background entries. */
    public int background() {
        return this == RASTER ? 0 : -1;
    }

    /** The label of raster row {@code row} that stands at {@code position} of the table, its first entry {@code first}. */
    public long label(long position, long first) {
        return switch (this) {
            case CANONICAL -> first;
            case RASTER -> position + 1;
            case SIZE -> position;
        };
    }
}
