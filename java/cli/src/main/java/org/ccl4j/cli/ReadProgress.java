package org.ccl4j.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Shows how far a reader has come through a file that it opens and reads itself (the graph readers
 * take a path, and say nothing while they read): a thread of its own looks every
 * {@link #SAMPLE_MS} ms at the file offset of the descriptors open on the file, as Linux tells
 * them in {@code /proc/self/fdinfo}, and advances the progress to the largest. Once every byte is
 * read, the reader builds the graph, which the progress says. Elsewhere the offset is unknown and
 * the progress shows the elapsed time only.
 */
final class ReadProgress implements AutoCloseable {
    private static final long SAMPLE_MS = 100;
    private static final Path DESCRIPTORS = Path.of("/proc/self/fd");
    private static final Path DESCRIPTOR_INFO = Path.of("/proc/self/fdinfo");

    private final Thread sampler;
    private long shown;

    /** Starts sampling the reading of {@code file}, of {@code bytes}, into {@code progress}, whose steps are bytes. */
    ReadProgress(Progress progress, Path file, long bytes) throws IOException {
        Path real = file.toRealPath();
        String reading = "reading " + file.getFileName();
        progress.show(reading);
        sampler = Thread.ofPlatform().daemon().name("ccl4j-read-progress").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(SAMPLE_MS);
                    // the offset drops to 0 when the reader closes the file: the bytes shown stay
                    long offset = Math.max(shown, offset(real));
                    // advanced also by nothing, so that plain lines keep coming while the graph is built
                    progress.advance(offset - shown, offset < bytes ? reading : "building the graph");
                    shown = offset;
                }
            } catch (InterruptedException e) {
                // closed: the reading is over
            }
        });
    }

    /**
     * The largest file offset of this process's descriptors open on {@code realFile} (a real
     * path), or 0 when none is open or the system does not say.
     */
    static long offset(Path realFile) {
        long largest = 0;
        try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(DESCRIPTORS)) {
            for (Path descriptor : descriptors) {
                try {
                    if (Files.readSymbolicLink(descriptor).equals(realFile)) {
                        largest = Math.max(largest, position(descriptor.getFileName().toString()));
                    }
                } catch (IOException | NumberFormatException e) {
                    // closed while we looked, or not a link to a file: not the reader's
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            return 0; // no /proc
        }
        return largest;
    }

    /** The "pos:" line of descriptor {@code fd}'s fdinfo. */
    private static long position(String fd) throws IOException {
        for (String line : Files.readAllLines(DESCRIPTOR_INFO.resolve(fd))) {
            if (line.startsWith("pos:")) {
                return Long.parseLong(line.substring(4).strip());
            }
        }
        return 0;
    }

    /** Stops the sampling (the progress itself is closed by its owner, after this). */
    @Override
    public void close() {
        sampler.interrupt();
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
