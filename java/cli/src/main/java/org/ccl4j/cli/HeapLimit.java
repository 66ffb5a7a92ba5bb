package org.ccl4j.cli;

import java.util.Locale;

/**
 * The Java heap a command may use: work whose heap is known in advance (a generated graph, an
 * alloy's spins) is refused before it starts when it cannot fit, rather than running into an
 * OutOfMemoryError half way. Both are reported as "out of memory" (exit code 6) with the same hint.
 */
final class HeapLimit {
    private static final long GIB = 1L << 30;

    /** Work that needs more heap than the JVM has free. */
    static final class TooLargeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLargeException(String message) {
            super(message);
        }
    }

    private HeapLimit() {
    }

    /**
     * Refuses {@code what} when its {@code bytes} of heap exceed what this JVM can still take
     * (its maximum heap less what is in use).
     */
    static void require(long bytes, String what) {
        Runtime runtime = Runtime.getRuntime();
        long used = runtime.totalMemory() - runtime.freeMemory();
        long free = runtime.maxMemory() - used;
        if (bytes > free) {
            throw new TooLargeException(what + " needs about " + size(bytes) + " of Java heap, more than the "
                    + size(free) + " this JVM has free; " + hint(used + bytes));
        }
    }

    /** The message of an OutOfMemoryError that a command ran into. */
    static String outOfMemory(OutOfMemoryError e) {
        String what = e.getMessage() != null ? e.getMessage() : "the Java heap is exhausted";
        return what + "; " + hint(2 * Math.min(Long.MAX_VALUE / 2, Runtime.getRuntime().maxMemory()));
    }

    /** How to give the JVM a heap of at least {@code bytes}: -Xmx, which ./ccl4j passes on from CCL4J_JAVA_OPTS. */
    static String hint(long bytes) {
        long gib = Math.max(1, Math.ceilDiv(bytes, GIB));
        return "raise the JVM's heap limit with -Xmx (for ./ccl4j: CCL4J_JAVA_OPTS=-Xmx" + gib + "g)";
    }

    /** 12.3 MiB, 1.5 GiB. */
    static String size(long bytes) {
        return bytes >= GIB ? String.format(Locale.ROOT, "%.1f GiB", (double) bytes / GIB)
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }
}
