package org.ccl4j.cli;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How every command writes its files: into a temporary file beside the target, moved over the
 * target once complete (atomically where the file system can), so that a failed or interrupted
 * run never leaves a truncated file under the final name, and a reader never sees one half
 * written. Failures are {@link OutputException}s naming the target.
 *
 * <p>The outputs of one run are a {@link Group}, moved into place together: each is written to its
 * temporary file as the run goes, and only once all of them are complete are they moved, one
 * rename after another. A run that fails, or that is stopped (Ctrl-C, SIGTERM) before the moves,
 * leaves every old output as it was and no temporary file; one stopped during the moves finishes
 * them before the JVM exits. So the outputs of one run are all old or all new, except where the
 * process is killed outright (SIGKILL, a crash) during the moves, or a move fails (the target
 * replaced by a directory meanwhile): those moved before stay.
 *
 * <p>A temporary file is named {@code .part-PID-N-NAME}: the writing process, a sequence number and
 * the target's name. A process killed outright leaves its temporary files behind; the next run that
 * writes NAME into that directory removes those whose process is no longer running, and never one
 * of a running process (a concurrent run writing the same output, or one whose dead writer's PID is
 * taken again). PIDs are this machine's: in a directory shared with other machines (or PID
 * namespaces), a run may remove a temporary file of another machine's run, which then fails with
 * an output error rather than leave a wrong file.
 */
final class OutputFile {
    /** Numbers the temporary files of this process. */
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final String PREFIX = ".part-";
    /** The PID and sequence number between {@link #PREFIX} and "-NAME". */
    private static final Pattern PID_AND_NUMBER = Pattern.compile("(\\d+)-\\d+");

    /** Writes the complete contents of an output to the file it is given. */
    @FunctionalInterface
    interface Body {
        void write(Path file) throws IOException;
    }

    private OutputFile() {
    }

    /**
     * Checks, before any work, that {@code file} can be written: not a directory, in an existing
     * directory that this process may write to.
     */
    static void check(Path file) throws OutputException {
        if (Files.isDirectory(file)) {
            throw new OutputException(file, "it is a directory", null);
        }
        Path directory = directory(file);
        if (!Files.isDirectory(directory)) {
            throw new OutputException(file, "no such directory: " + directory, null);
        }
        if (!Files.isWritable(directory)) {
            throw new OutputException(file, "permission denied: cannot create files in " + directory, null);
        }
    }

    /** Creates the directories that {@code file} is to go into (for the commands that do so). */
    static void createParents(Path file) throws OutputException {
        Path directory = directory(file);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new OutputException(file, "cannot create " + directory + ": " + reason(e), e);
        }
    }

    /** Writes {@code file} alone: a group of one output (see {@link Group}). */
    static void write(Path file, Body body) throws IOException {
        try (Group output = new Group()) {
            output.write(file, body);
            output.commit();
        }
    }

    /**
     * The outputs of one run: written to their temporary files by {@link #write}, moved over their
     * targets together by {@link #commit}; {@link #close} deletes those not moved.
     */
    static final class Group implements AutoCloseable {
        /** A complete output: the file as the command line named it, its absolute path, its temporary file. */
        private record Written(Path file, Path target, Path temporary) {
        }

        /** The temporary files that exist and are not yet moved: deleted by {@link #close}. */
        private final List<Path> temporaries = new ArrayList<>();
        private final List<Written> complete = new ArrayList<>();
        /** The memory of the outputs written through {@link #map}: forced to the disk before the moves. */
        private final List<MemorySegment> mapped = new ArrayList<>();
        /** At exit (Ctrl-C, SIGTERM) closes the group, after {@link #commit}'s moves if they have begun. */
        private final Thread atExit = new Thread(this::close, "ccl4j outputs at exit");
        private boolean hooked;
        /** Committed or closed: nothing more is written or moved. */
        private boolean done;

        /**
         * Writes {@code file} through {@code body} into a new file beside it (a hidden name that
         * ends in {@code file}'s own, so that writers choosing the format by extension choose the
         * same), which replaces {@code file} at {@link #commit}; stale temporary files of
         * {@code file} are removed first. On any failure, an Error included, the temporary file is
         * deleted, and {@code file} is as it was.
         *
         * @throws OutputException when {@code file} cannot be written, naming it and the reason
         */
        void write(Path file, Body body) throws IOException {
            check(file);
            Path target = file.toAbsolutePath();
            removeStale(target);
            Path temporary = target.resolveSibling(PREFIX + ProcessHandle.current().pid() + "-"
                    + SEQUENCE.incrementAndGet() + "-" + target.getFileName());
            boolean written = false;
            try {
                create(temporary);
                body.write(temporary);
                written = true;
            } catch (IOException e) {
                throw failure(file, temporary, e);
            } catch (UncheckedIOException e) {
                throw failure(file, temporary, e.getCause()); // a writer's lambda can only throw it unchecked
            } finally {
                if (!written) {
                    discard(temporary);
                }
            }
            synchronized (this) {
                complete.add(new Written(file, target, temporary));
            }
        }

        /**
         * A file of {@code bytes} bytes that the caller fills through the memory returned (the
         * temporary file mapped read-write in {@code arena}), which replaces {@code file} at
         * {@link #commit} as the others do: for outputs larger than the host's memory. The file's
         * space is reserved first, written with zeros, so that a disk too small fails here, naming
         * {@code file}, rather than with a fault when the mapping is written; the mapping is
         * forced to the disk before the move.
         *
         * @throws OutputException when {@code file} cannot be written, naming it and the reason
         */
        MemorySegment map(Path file, long bytes, Arena arena) throws IOException {
            check(file);
            Path target = file.toAbsolutePath();
            removeStale(target);
            Path temporary = target.resolveSibling(PREFIX + ProcessHandle.current().pid() + "-"
                    + SEQUENCE.incrementAndGet() + "-" + target.getFileName());
            boolean reserved = false;
            try {
                create(temporary);
                try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)) {
                    ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
                    for (long at = 0; at < bytes; at += zeros.capacity()) {
                        zeros.clear().limit((int) Math.min(zeros.capacity(), bytes - at));
                        while (zeros.hasRemaining()) {
                            channel.write(zeros, at + zeros.position());
                        }
                    }
                    MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
                    synchronized (this) {
                        complete.add(new Written(file, target, temporary));
                        mapped.add(memory);
                    }
                    reserved = true;
                    return memory;
                }
            } catch (IOException e) {
                throw failure(file, temporary, e);
            } finally {
                if (!reserved) {
                    discard(temporary);
                }
            }
        }

        /**
         * Creates {@code temporary}, listed for deletion before it exists: a signal between the two
         * cannot leave it.
         */
        private synchronized void create(Path temporary) throws IOException {
            if (done) {
                throw new InterruptedIOException("the run is ending");
            }
            if (!hooked) {
                try {
                    Runtime.getRuntime().addShutdownHook(atExit);
                } catch (IllegalStateException e) {
                    throw new InterruptedIOException("the run is ending"); // the JVM is shutting down
                }
                hooked = true;
            }
            temporaries.add(temporary);
            Files.createFile(temporary); // with the permissions of any new file, unlike createTempFile's 0600
        }

        private synchronized void discard(Path temporary) {
            temporaries.remove(temporary);
            deleteQuietly(temporary);
        }

        /**
         * Moves every output written over its target, in the order written. The exit hook waits
         * for the moves, so that a signal during them does not leave a mix of old and new files.
         *
         * @throws OutputException when a move fails, naming its target: the outputs moved before it
         *                         stay, the others are as they were
         */
        synchronized void commit() throws IOException {
            if (done) {
                throw new InterruptedIOException("the run is ending");
            }
            try {
                for (MemorySegment memory : mapped) {
                    memory.force();
                }
                for (Written w : complete) {
                    try {
                        move(w.temporary(), w.target());
                    } catch (IOException e) {
                        throw failure(w.file(), w.temporary(), e);
                    }
                    temporaries.remove(w.temporary());
                }
            } finally {
                close();
            }
        }

        /** Deletes the temporary files not moved into place; nothing is written or moved after. */
        @Override
        public synchronized void close() {
            temporaries.forEach(OutputFile::deleteQuietly);
            temporaries.clear();
            complete.clear();
            mapped.clear();
            done = true;
            if (hooked) {
                try {
                    Runtime.getRuntime().removeShutdownHook(atExit);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook runs, and finds nothing left
                }
                hooked = false;
            }
        }
    }

    /** Moves {@code temporary} over {@code target}, atomically where the file system can. */
    private static void move(Path temporary, Path target) throws IOException {
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Removes the temporary files of {@code target} ({@code .part-PID-N-NAME}) that processes no
     * longer running left behind.
     */
    private static void removeStale(Path target) {
        String suffix = "-" + target.getFileName();
        DirectoryStream.Filter<Path> stale = file -> {
            String name = file.getFileName().toString();
            if (name.length() < PREFIX.length() + suffix.length() || !name.startsWith(PREFIX)
                    || !name.endsWith(suffix)) {
                return false;
            }
            Matcher m = PID_AND_NUMBER.matcher(name.substring(PREFIX.length(), name.length() - suffix.length()));
            return m.matches() && !running(m.group(1));
        };
        try (DirectoryStream<Path> files = Files.newDirectoryStream(target.getParent(), stale)) {
            files.forEach(OutputFile::deleteQuietly);
        } catch (IOException | DirectoryIteratorException e) {
            // the output is written all the same; a stray temporary file is harmless
        }
    }

    /** Whether the process {@code pid} runs (on this machine); a PID past a long is no process's. */
    private static boolean running(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The failure named with the target: writers may name the file they were given, the temporary one. */
    private static OutputException failure(Path file, Path temporary, IOException e) {
        return new OutputException(file, reason(e).replace(temporary.toString(), file.toString()), e);
    }

    /** The directory a file goes into: its parent, or the working directory for a bare name. */
    private static Path directory(Path file) {
        Path parent = file.getParent();
        return parent != null ? parent : file.toAbsolutePath().getParent();
    }

    /** What went wrong, without the file name that a FileSystemException puts first. */
    private static String reason(IOException e) {
        return switch (e) {
            case NoSuchFileException n -> "no such file or directory";
            case AccessDeniedException a -> "permission denied";
            case FileSystemException f when f.getReason() != null -> f.getReason();
            default -> Errors.describe(e);
        };
    }

    private static void deleteQuietly(Path temporary) {
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            // the failure that got us here is what the user needs to see; a stray .part file is harmless
        }
    }
}
