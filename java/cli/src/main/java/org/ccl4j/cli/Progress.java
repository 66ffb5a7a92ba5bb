package org.ccl4j.cli;

import java.io.PrintStream;
import java.util.Locale;

/** A progress bar on stderr for long runs, drawn only when a terminal is attached. */
final class Progress {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final boolean enabled;
    private final long total;
    private long done;
    private long lastDraw;

    Progress(long total) {
        this.err = System.err;
        this.enabled = System.console() != null && total > 0;
        this.total = total;
    }

    void advance(long steps, String what) {
        done += steps;
        long now = System.nanoTime();
        if (!enabled || (now - lastDraw < 100_000_000L && done < total)) {
            return;
        }
        lastDraw = now;
        int filled = (int) (WIDTH * done / total);
        err.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% %-40s", "#".repeat(filled), " ".repeat(WIDTH - filled),
                100 * done / total, what));
        err.flush();
    }

    void finish() {
        if (enabled) {
            err.print("\r" + " ".repeat(WIDTH + 48) + "\r");
            err.flush();
        }
    }
}
