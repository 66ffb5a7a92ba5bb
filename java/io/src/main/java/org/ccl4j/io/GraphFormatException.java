package org.ccl4j.io;

import java.nio.file.Path;
import java.util.Objects;
import org.ccl4j.io.internal.FormatMessages;

/**
 * A graph file that does not follow its format: the message names the file, the place (line for
 * text formats, byte offset for binary ones), the offending value and what is wrong with it, as in
 * {@code graph.mtx:12: column index 0 is out of range 1..5}.
 */
public class GraphFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Not serializable, and only informative once the message is built. */
    private final transient Path file;
    /** The 1-based line of the problem, or -1. */
    private final long line;
    /** The offset in bytes of the problem, or -1. */
    private final long byteOffset;
    /** What is wrong, without the place. */
    private final String reason;

    /**
     * An exception whose message names the file, the place and the reason.
     *
     * @param file       the file being read
     * @param line       the 1-based line of the problem, or -1 when there is none (binary formats)
     * @param byteOffset the offset of the offending bytes from the start of the file, or -1
     * @param reason     what is wrong, naming the value
     */
    public GraphFormatException(Path file, long line, long byteOffset, String reason) {
        this(file, line, byteOffset, reason, null);
    }

    /**
     * As {@link #GraphFormatException(Path, long, long, String)}, with the exception that revealed it.
     *
     * @param file       the file being read
     * @param line       the 1-based line of the problem, or -1 when there is none (binary formats)
     * @param byteOffset the offset of the offending bytes from the start of the file, or -1
     * @param reason     what is wrong, naming the value
     * @param cause      the exception that revealed the problem, or null
     */
    public GraphFormatException(Path file, long line, long byteOffset, String reason, Throwable cause) {
        super(FormatMessages.message(Objects.requireNonNull(file, "file"), line, byteOffset, reason), cause);
        this.file = file;
        this.line = line;
        this.byteOffset = byteOffset;
        this.reason = reason;
    }

    /**
     * The file that was read.
     *
     * @return the file, or the name of the stream
     */
    public Path file() {
        return file;
    }

    /**
     * The line of the problem.
     *
     * @return the 1-based line, or -1 when it has none
     */
    public long line() {
        return line;
    }

    /**
     * The offset of the problem from the start of the file (of the decompressed content, for
     * compressed input).
     *
     * @return the offset in bytes, or -1 when it has none
     */
    public long byteOffset() {
        return byteOffset;
    }

    /** What is wrong, without the file and the place. */
    String reason() {
        return reason;
    }
}
