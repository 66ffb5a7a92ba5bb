package org.ccl4j.engine.spi;

/** Where an engine reports how long work advances (the API's {@code ProgressListener}, translated). */
@FunctionalInterface
public interface Progress {
    /** Reports nothing. */
    Progress NONE = (stage, done, total) -> { };

    /** {@code done} of {@code total} steps are done, the last one in {@code stage}. */
    void report(String stage, long done, long total);
}
