package org.ccl4j.engine.spi;

/** How a size histogram bins; codes are the ABI's {@code CCL4J_HISTOGRAM_*}. */
public enum SizeBinning {
    /** One bin per size that occurs. */
    EXACT(0),
    /** Bins {@code [2^b, 2^(b+1))}. */
    LOG2(1);

    private final int code;

    SizeBinning(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
