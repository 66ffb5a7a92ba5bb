package org.ccl4j.io.grid;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.ccl4j.io.internal.FormatMessages;

/**
 * An image or volume file that does not follow its format, or does not fit what was asked of it:
 * the message names the file, the place (the line of a PGM header or ASCII sample, the byte offset
 * in binary data), the offending value and what is wrong with it, as in
 * {@code scan.pgm:3: maxval 70000 is out of range 1..65535} or
 * {@code cells.raw: at byte 799: the file is 799 bytes but a 10x10x2 grid of i32 cells is 800 bytes}.
 *
 * <p>A checked {@link IOException}, so that every caller of {@link GridReader} handles it with the
 * other failures of reading a file; {@code catch (ImageFormatException e)} picks out the files that
 * were read but are malformed.
 */
public class ImageFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Not serializable, and only informative once the message is built. */
    private final transient Path file;
    /** The 1-based line of the problem, or -1. */
    private final long line;
    /** The offset in bytes of the problem, or -1. */
    private final long byteOffset;

    /**
     * An exception whose message names the file, the place and the reason.
     *
     * @param file       the file being read
     * @param line       the 1-based line of the problem (text headers and samples), or -1
     * @param byteOffset the offset of the offending bytes from the start of the file, or -1
     * @param reason     what is wrong, naming the value
     */
    public ImageFormatException(Path file, long line, long byteOffset, String reason) {
        this(file, line, byteOffset, reason, null);
    }

    /**
     * As {@link #ImageFormatException(Path, long, long, String)}, with the exception that revealed it.
     *
     * @param file       the file being read
     * @param line       the 1-based line of the problem (text headers and samples), or -1
     * @param byteOffset the offset of the offending bytes from the start of the file, or -1
     * @param reason     what is wrong, naming the value
     * @param cause      the exception that revealed the problem, or null
     */
    public ImageFormatException(Path file, long line, long byteOffset, String reason, Throwable cause) {
        super(FormatMessages.message(Objects.requireNonNull(file, "file"), line, byteOffset, reason), cause);
        this.file = file;
        this.line = line;
        this.byteOffset = byteOffset;
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
     * @return the 1-based line, or -1 when it has none (binary data, the whole file)
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
}
