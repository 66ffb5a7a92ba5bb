package org.ccl4j;

/**
 * Hears how long work advances.
 *
 * <p>Labelling a grid in slabs ({@link MeshOptions#withProgress}) calls it after each slab of each
 * pass, on the labelling thread; what it throws ends the labelling with that exception.
 *
 * <p>Labelling a graph ({@link LabelOptions#withProgress}; edge lists and device-resident graphs
 * ignore it) counts arcs: {@code total} is twice the graph's arc count. A graph streamed through
 * the GPU ({@link Algorithm#STREAMED}, from memory that is not page-locked) is heard as it goes,
 * stage {@code "sample"} (every row, all arcs) then {@code "link"} (every arc again), the first call
 * once the first block of arcs is on its way to the GPU (the time to the first byte), from the
 * library's threads, one call at a time. Every labelling that succeeds ends with one call
 * {@code ("done", total, total)}, the only call on every other algorithm and backend. What it
 * throws does not stop the labelling: the listener hears nothing more, and the labelling, its labels
 * written, throws the first exception.
 *
 * <p>It should return quickly and must not call the labeler it listens to.
 */
@FunctionalInterface
public interface ProgressListener {
    /** Hears nothing: the default. */
    ProgressListener NONE = (stage, done, total) -> { };

    /**
     * {@code done} of {@code total} steps are done, the last one in {@code stage} (for slabs:
     * {@code "label slabs"} while the slabs are labelled and joined, then {@code "write"} while
     * they are labelled again and their labels written, {@code total} counting both passes; for
     * graphs: arcs, {@code "sample"}, {@code "link"} and {@code "done"}).
     *
     * @param stage what the last step did
     * @param done  the steps done, up to {@code total}, never fewer than in the call before
     * @param total the steps of the whole work
     */
    void progress(String stage, long done, long total);
}
