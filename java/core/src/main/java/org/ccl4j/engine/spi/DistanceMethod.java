package org.ccl4j.engine.spi;

/** How distances are computed (the API's {@code DistanceAlgorithm}); codes are the ABI's {@code CCL4J_DISTANCES_*}. */
public enum DistanceMethod {
    AUTO, BFS, FLOYD_WARSHALL;

    public int code() {
        return ordinal();
    }

    /** The method of a code the native library reported. */
    public static DistanceMethod of(int code) {
        return values()[code];
    }
}
