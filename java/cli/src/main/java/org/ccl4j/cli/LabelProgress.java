package org.ccl4j.cli;

import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.ccl4j.ProgressListener;

/**
 * The progress of {@code label}'s labelling on standard error, as {@code mesh} shows its slabs':
 * from the first report before the end on (a graph streamed through the GPU; one labelled at once
 * shows none), and the time from the start of the labelling to that report, when the first block
 * of arcs is on its way to the GPU. The library reports from its own threads, one call at a time.
 */
final class LabelProgress implements ProgressListener {
    private final LongFunction<Progress> show;
    private final LongSupplier clock;
    private long start;
    private long firstBlock = -1;
    private Progress shown;

    /**
     * @param show  the progress of a labelling of so many arcs, made at its first block
     * @param clock nanoseconds, {@link System#nanoTime} but in tests
     */
    LabelProgress(LongFunction<Progress> show, LongSupplier clock) {
        this.show = show;
        this.clock = clock;
    }

    /** Runs {@code labelling}, the time to its first block measured from now; the progress ends with it. */
    <T> T during(Supplier<T> labelling) {
        synchronized (this) {
            start = clock.getAsLong();
        }
        try {
            return labelling.get();
        } finally {
            synchronized (this) {
                if (shown != null) {
                    shown.close();
                }
            }
        }
    }

    @Override
    public synchronized void progress(String stage, long done, long total) {
        if (shown == null) {
            if (stage.equals("done")) {
                return;
            }
            firstBlock = clock.getAsLong() - start;
            shown = show.apply(total);
        }
        shown.reach(done, stage);
    }

    /** Milliseconds from the start of the labelling to its first block; null when none was reported. */
    synchronized Double firstBlockMs() {
        return firstBlock < 0 ? null : firstBlock / 1e6;
    }
}
