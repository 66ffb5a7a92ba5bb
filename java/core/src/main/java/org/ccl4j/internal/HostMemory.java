package org.ccl4j.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The host memory available to new allocations, so that a grid or labels too large for it fail
 * up front with the figures, instead of the kernel's out-of-memory killer ending the JVM half way
 * through (Linux overcommits: a large allocation succeeds, and the process dies when it touches
 * more pages than there are).
 */
public final class HostMemory {
    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private HostMemory() {
    }

    /** Bytes available now: Linux's MemAvailable of /proc/meminfo; -1 where there is none (unknown). */
    public static long available() {
        if (!Files.isReadable(MEMINFO)) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                // "MemAvailable:   61234567 kB"
                if (line.startsWith("MemAvailable:")) {
                    String[] fields = line.substring("MemAvailable:".length()).trim().split("\\s+");
                    return Long.parseLong(fields[0]) * 1024;
                }
            }
            return -1;  // kernels before 3.14 lack the line
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MEMINFO, e);
        }
    }

    /**
     * Throws an OUT_OF_MEMORY failure when {@code bytes} exceed what {@code available} says there
     * is ({@code available} -1: unknown, no check), naming both: "{@code doing} needs 68.7
     * GB{@code forWhat}; the host has 60.1 GB available".
     */
    public static void require(String doing, long bytes, String forWhat, long available, Failures failures) {
        if (available >= 0 && bytes > available) {
            throw failures.outOfMemory(doing + " needs " + format(bytes) + forWhat + "; the host has "
                    + format(available) + " available");
        }
    }

    /** {@link #require(String, long, String, long, Failures)} against what is available now. */
    public static void require(String doing, long bytes, Failures failures) {
        require(doing, bytes, "", available(), failures);
    }

    /** Bytes in decimal units, as memory is quoted: "68.7 GB", "512.0 MB", "17 bytes". */
    public static String format(long bytes) {
        String[] units = {"kB", "MB", "GB", "TB", "PB", "EB"};
        if (bytes < 1000) {
            return bytes + " bytes";
        }
        double value = bytes;
        int unit = -1;
        while (value >= 1000 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
