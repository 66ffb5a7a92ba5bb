package org.ccl4j.cli;

/** A command line that cannot be understood: exit code 2, with the usage. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
