package org.ccl4j.cli;

import java.util.function.Supplier;

/**
 * A command line that parses but makes no sense (options that exclude each other, a value that
 * does not fit the input): exit code 2, with the command's synopsis.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }

    /** The parser's result; its IllegalArgumentException, which names the bad value, becomes a usage error. */
    static <T> T whenInvalid(Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
