package org.ccl4j.io.internal;

import java.nio.file.Path;

/**
 * The message of ccl4j-io's format exceptions, {@code GraphFormatException} (unchecked) and
 * {@code ImageFormatException} (an {@code IOException}): their superclasses differ, but they name a
 * problem's place alike. This package is not exported by the module.
 */
public final class FormatMessages {
    private FormatMessages() {
    }

    /**
     * {@code file:line: reason} when there is a line (text formats), else
     * {@code file: at byte N: reason} when there is a byte offset, else {@code file: reason}.
     *
     * @param line       the 1-based line, or -1
     * @param byteOffset the offset from the start of the file, or -1
     */
    public static String message(Path file, long line, long byteOffset, String reason) {
        if (line > 0) {
            return file + ":" + line + ": " + reason;
        }
        if (byteOffset >= 0) {
            return file + ": at byte " + byteOffset + ": " + reason;
        }
        return file + ": " + reason;
    }
}
