package org.ccl4j.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How every command writes its files: into a temporary file beside the target, moved over the
 * target once complete (atomically where the file system can), so that a failed or interrupted
 * run never leaves a truncated file under the final name, and a reader never sees one half
 * written. Failures are {@link OutputException}s naming the target.
 */
final class OutputFile {
    /** Numbers the temporary files of this process. */
    private static final AtomicLong SEQUENCE = new AtomicLong();

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

    /**
     * Writes {@code file} through {@code body}: into a new file beside it (a hidden name that ends
     * in {@code file}'s own, so that writers choosing the format by extension choose the same),
     * then moved over {@code file}. On any failure, an Error included, the temporary file is
     * deleted and {@code file} is as it was.
     *
     * @throws OutputException when {@code file} cannot be written, naming it and the reason
     */
    static void write(Path file, Body body) throws IOException {
        check(file);
        Path target = file.toAbsolutePath();
        Path temporary = target.resolveSibling(".part-" + ProcessHandle.current().pid() + "-"
                + SEQUENCE.incrementAndGet() + "-" + target.getFileName());
        boolean moved = false;
        try {
            // Ctrl-C ends the JVM without running the finally below; registered first, so that a
            // signal between the two cannot leave the file
            temporary.toFile().deleteOnExit();
            Files.createFile(temporary); // with the permissions of any new file, unlike createTempFile's 0600
            body.write(temporary);
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
            moved = true;
        } catch (IOException e) {
            throw failure(file, temporary, e);
        } catch (UncheckedIOException e) {
            throw failure(file, temporary, e.getCause()); // a writer's lambda can only throw it unchecked
        } finally {
            if (!moved) {
                deleteQuietly(temporary);
            }
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
