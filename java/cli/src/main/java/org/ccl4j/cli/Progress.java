package org.ccl4j.cli;

import java.io.PrintWriter;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

import picocli.CommandLine.Option;

/**
 * The progress of a long command (bench, percolation, ising; the alloy of {@code mesh --generate},
 * the reading of a large graph file by {@code label}, {@code distances} and {@code convert}, the
 * writing of {@code convert}) on standard error, with the elapsed time and an estimate of the time
 * left. It is shown whatever standard output is (a file, a pipe: the results go there, the progress
 * does not); {@code --no-progress} (or {@code --quiet}) turns it off.
 *
 * <p>On a terminal it is one line redrawn in place ({@code \r}) at most ten times a second and
 * cleared at the end, so that it never mixes with the results. Elsewhere (a log file, CI) it is
 * a plain line every {@link #LINE_INTERVAL_NS} and a last line with the total time (for work that
 * is usually short, only after a first line): carriage returns would garble a log.
 */
final class Progress implements AutoCloseable {
    /** How often a plain line is written when standard error is not a terminal. */
    static final long LINE_INTERVAL_NS = 10_000_000_000L;
    private static final long REDRAW_NS = 100_000_000L;
    private static final int BAR = 24;
    /** The terminal line is kept below 80 columns; the current item is cut to fit. */
    private static final int LINE_WIDTH = 79;

    /** How it is shown. */
    enum Mode {
        /** Not at all. */
        OFF,
        /** A bar redrawn in place. */
        TERMINAL,
        /** Plain lines now and then. */
        LINES
    }

    /** {@code --no-progress}, a mixin of the commands that show progress. */
    static final class Options {
        @Option(names = {"--no-progress", "--quiet"},
                description = "Show no progress on standard error (it shows there even when standard output is"
                        + " redirected).")
        boolean off;

        /** The progress of {@code task}, of {@code total} steps, as {@code --no-progress} and standard error say. */
        Progress start(Main top, String task, long total) {
            return new Progress(top.err(), mode(top), task, total, System::nanoTime, true, Long::toString);
        }

        /**
         * As {@link #start}, for work that is usually short (generating a field): the plain lines
         * end without a last line unless the run lasted long enough to write one, so that a short
         * run leaves nothing in a log.
         */
        Progress startQuietWhenShort(Main top, String task, long total) {
            return new Progress(top.err(), mode(top), task, total, System::nanoTime, false, Long::toString);
        }

        /** As {@link #startQuietWhenShort}, for reading {@code bytes} of a file: its steps are bytes. */
        Progress startReading(Main top, String task, long bytes) {
            return new Progress(top.err(), mode(top), task, bytes, System::nanoTime, false, HeapLimit::size);
        }

        private Mode mode(Main top) {
            return off ? Mode.OFF : top.stderrIsTerminal() ? Mode.TERMINAL : Mode.LINES;
        }
    }

    private final PrintWriter err;
    private final Mode mode;
    private final String task;
    private final long total;
    private final LongSupplier clock;
    private final boolean lastLineAlways;
    private final LongFunction<String> steps;
    private final long start;
    private long done;
    private String what = "";
    private long lastDraw;
    private int lastWidth;
    private boolean linesWritten;

    /**
     * @param err   where it is written
     * @param mode  how
     * @param task  the command's name, which starts each plain line
     * @param total the steps of the whole run (realisations, sweeps, measurements)
     * @param clock nanoseconds, {@link System#nanoTime} but in tests
     */
    Progress(PrintWriter err, Mode mode, String task, long total, LongSupplier clock) {
        this(err, mode, task, total, clock, true, Long::toString);
    }

    /**
     * @param lastLineAlways whether plain lines end with a last line also when none was written before
     * @param steps          how a plain line writes a number of steps (bytes as MiB)
     */
    Progress(PrintWriter err, Mode mode, String task, long total, LongSupplier clock, boolean lastLineAlways,
            LongFunction<String> steps) {
        this.err = err;
        this.mode = total > 0 ? mode : Mode.OFF;
        this.task = task;
        this.total = total;
        this.clock = clock;
        this.lastLineAlways = lastLineAlways;
        this.steps = steps;
        this.start = clock.getAsLong();
        // a bar shows at the first step; plain lines wait for the first interval (a short run writes only the last)
        this.lastDraw = this.mode == Mode.TERMINAL ? start - REDRAW_NS : start;
    }

    /** Says what is being done now (drawn now on a terminal, in the next plain line otherwise). */
    void show(String now) {
        what = now;
        draw(mode == Mode.TERMINAL);
    }

    /** {@code steps} more steps are done; {@code now} is what is being done. */
    void advance(long steps, String now) {
        done = Math.min(total, done + steps);
        what = now;
        draw(false);
    }

    /** {@code steps} steps in all are done; {@code now} is what is being done. */
    void reach(long steps, String now) {
        advance(steps - done, now);
    }

    /** One more step is done. */
    void step() {
        advance(1, what);
    }

    /** The end, also of a failed run: clears the terminal line, or writes a last plain line with the time taken. */
    @Override
    public void close() {
        if (mode == Mode.TERMINAL && lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            err.flush();
        } else if (mode == Mode.LINES && (lastLineAlways || linesWritten)) {
            err.println(String.format(Locale.ROOT, "%s: %s/%s (%d%%) in %s", task, steps.apply(done),
                    steps.apply(total), 100 * done / total, duration(clock.getAsLong() - start)));
            err.flush();
        }
    }

    private void draw(boolean now) {
        if (mode == Mode.OFF) {
            return;
        }
        long t = clock.getAsLong();
        long interval = mode == Mode.TERMINAL ? REDRAW_NS : LINE_INTERVAL_NS;
        if (!now && t - lastDraw < interval) {
            return;
        }
        lastDraw = t;
        long elapsed = t - start;
        String times = "elapsed " + duration(elapsed) + ", ETA " + (done == 0 ? "?"
                : duration((long) ((double) elapsed * (total - done) / done)));
        int percent = (int) (100 * done / total);
        if (mode == Mode.LINES) {
            err.println(String.format(Locale.ROOT, "%s: %s/%s (%d%%), %s%s", task, steps.apply(done),
                    steps.apply(total), percent, times, what.isEmpty() ? "" : ", " + what));
            linesWritten = true;
        } else {
            int filled = (int) (BAR * done / total);
            String line = String.format(Locale.ROOT, "[%s%s] %3d%% %s  %s", "#".repeat(filled),
                    ".".repeat(BAR - filled), percent, times, what);
            line = line.length() > LINE_WIDTH ? line.substring(0, LINE_WIDTH) : line;
            // spaces over what is left of a longer previous line
            err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
            lastWidth = line.length();
        }
        err.flush();
    }

    /** m:ss, or h:mm:ss from an hour on. */
    static String duration(long nanos) {
        long s = Math.max(0, nanos) / 1_000_000_000L;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /**
     * Whether standard error (file descriptor 2) is a terminal: {@code isatty(2)} through the FFM
     * API. {@code System.console().isTerminal()} is no use here: it asks about standard input and
     * output, so redirecting the results to a file would hide the bar.
     */
    static boolean stderrIsTerminal() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle isatty = linker.downcallHandle(linker.defaultLookup().find("isatty").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            return (int) isatty.invokeExact(2) == 1;
        } catch (Throwable e) {
            return false; // no C library to ask: plain lines are safe anywhere
        }
    }
}
