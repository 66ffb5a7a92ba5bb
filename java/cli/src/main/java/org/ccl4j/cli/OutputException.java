package org.ccl4j.cli;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An output file (--out, --save, --png, --csv, a generated graph...) that could not be written: a
 * directory in its place, a missing or read-only directory, a full disk. Exit code 5, reported as
 * {@code cannot write FILE: REASON}; bad input files are {@link Errors.Kind#INVALID_INPUT} instead.
 */
final class OutputException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /** @param reason what went wrong, without the file's name */
    OutputException(Path file, String reason, Throwable cause) {
        super(file + ": " + reason, cause);
        this.file = file;
    }

    /** The output that could not be written, as the command line named it. */
    Path file() {
        return file;
    }
}
