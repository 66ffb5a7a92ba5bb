package org.ccl4j.engine.spi;

/** The order of components in the book-keeping's results; codes are the ABI's {@code CCL4J_ORDER_*}. */
public enum ComponentOrder {
    /** By smallest member (for canonical labels: by label). */
    SMALLEST_MEMBER(0),
    /** Largest first; equal sizes by label, ascending. */
    SIZE_DESCENDING(1);

    private final int code;

    ComponentOrder(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
