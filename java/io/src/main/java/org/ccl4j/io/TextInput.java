package org.ccl4j.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A hand-written tokenizer for the line-oriented text formats: reads bytes through a large buffer
 * and parses numbers digit by digit, with no per-token allocation. It knows the line and the byte
 * offset of the token being read, so every error names its place.
 *
 * <p>Tokens are separated by spaces, tabs, carriage returns and, optionally, commas. Every token
 * starts with at least {@link #TOKEN_MARGIN} bytes of the file in the buffer (or the end of the
 * file), so a token is never split across refills.
 */
final class TextInput implements Closeable {
    static final int EOF = -1;
    private static final int BUFFER_BYTES = 1 << 20;
    private static final int TOKEN_MARGIN = 1024;
    private static final long LIMIT = Long.MAX_VALUE / 10;
    private static final int SHOWN_TOKEN_CHARS = 40;

    private final Path file;
    /** The size the file system reported when the file was opened. */
    private final long fileSize;
    private final InputStream in;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final boolean commaSeparates;
    private int position;
    private int limit;
    /** The file offset of {@code buffer[0]}. */
    private long bufferStart;
    private boolean eof;
    private long line = 1;
    private int tokenPosition;

    TextInput(Path file, boolean commaSeparates) throws IOException {
        this.file = file;
        this.in = Files.newInputStream(file);
        this.fileSize = Files.size(file);
        this.commaSeparates = commaSeparates;
        refill();
    }

    /** True when the file has no bytes at all. */
    boolean isEmptyFile() {
        return bufferStart == 0 && limit == 0 && eof;
    }

    /** The size of the file in bytes when it was opened (0 for pipes and other special files). */
    long fileSize() {
        return fileSize;
    }

    /** The 1-based number of the current line. */
    long line() {
        return line;
    }

    /**
     * Skips separators and returns the next byte without consuming it: {@code '\n'}, {@link #EOF}
     * or the first byte of a token, which becomes the token that errors point at.
     */
    int skipBlanks() throws IOException {
        while (true) {
            if (limit - position < TOKEN_MARGIN && !eof) {
                refill();
            }
            if (position == limit) {
                tokenPosition = position;
                return EOF;
            }
            int b = buffer[position];
            if (b == ' ' || b == '\t' || b == '\r' || (b == ',' && commaSeparates)) {
                position++;
                continue;
            }
            tokenPosition = position;
            return b & 0xFF;
        }
    }

    /** Skips separators; true when the line (or the file) ends there. */
    boolean atLineEnd() throws IOException {
        int b = skipBlanks();
        return b == '\n' || b == EOF;
    }

    /** Consumes the rest of the current line, its newline included. */
    void nextLine() throws IOException {
        while (true) {
            for (int i = position; i < limit; i++) {
                if (buffer[i] == '\n') {
                    position = i + 1;
                    line++;
                    return;
                }
            }
            position = limit;
            if (eof) {
                return;
            }
            refill();
        }
    }

    /**
     * Reads a non-negative decimal integer of up to 63 bits.
     *
     * @param what names the value in error messages ("row index")
     */
    long readUnsigned(String what) throws IOException {
        int b = skipBlanks();
        if (b < '0' || b > '9') {
            throw notANumber(what, b);
        }
        long value = 0;
        int p = position;
        while (p < limit) {
            int d = buffer[p] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            if (value >= LIMIT && (value > LIMIT || d > 7)) {
                throw error(what + " " + tokenText() + " is too large (the largest is " + Long.MAX_VALUE + ")");
            }
            value = value * 10 + d;
            p++;
        }
        position = p;
        if (!atSeparator()) {
            throw error("expected " + what + ", found '" + tokenText() + "'");
        }
        return value;
    }

    /** Reads a non-negative integer of at most {@code max}, naming {@code what} in errors. */
    long readUnsigned(String what, long max) throws IOException {
        long value = readUnsigned(what);
        if (value > max) {
            throw error(what + " " + value + " is too large (the largest is " + max + ")");
        }
        return value;
    }

    /**
     * Checks that the next token is a number and skips it: an integer with an optional sign, or for
     * {@code integerOnly == false} a decimal with optional fraction and exponent ({@code -1.5e-3}).
     */
    void skipNumber(String what, boolean integerOnly) throws IOException {
        int b = skipBlanks();
        if (b == '\n' || b == EOF) {
            throw notANumber(what, b);
        }
        int p = position;
        if (buffer[p] == '+' || buffer[p] == '-') {
            p++;
        }
        int start = p;
        p = digits(p);
        int count = p - start;
        if (!integerOnly && p < limit && buffer[p] == '.') {
            int fraction = p + 1;
            p = digits(fraction);
            count += p - fraction;
        }
        boolean valid = count > 0;
        if (valid && !integerOnly && p < limit && (buffer[p] == 'e' || buffer[p] == 'E')) {
            p++;
            if (p < limit && (buffer[p] == '+' || buffer[p] == '-')) {
                p++;
            }
            int exponent = p;
            p = digits(p);
            valid = p > exponent;
        }
        position = p;
        if (!valid || !atSeparator()) {
            throw error("expected " + what + ", found '" + tokenText() + "'");
        }
    }

    /**
     * Skips the next token, whatever it holds (a value that is not needed), without looking at it;
     * false when the line or the file ends there instead.
     */
    boolean skipToken() throws IOException {
        int b = skipBlanks();
        if (b == '\n' || b == EOF) {
            return false;
        }
        while (true) {
            while (position < limit && !isSeparator(buffer[position])) {
                position++;
            }
            if (position < limit || eof) {
                return true;
            }
            refill();  // a token longer than the margin: read on
        }
    }

    /** Reads the next token as text (for header keywords); null at the end of the line or file. */
    String readWord() throws IOException {
        int b = skipBlanks();
        if (b == '\n' || b == EOF) {
            return null;
        }
        int p = position;
        while (p < limit && !isSeparator(buffer[p])) {
            p++;
        }
        position = p;
        return new String(buffer, tokenPosition, p - tokenPosition, StandardCharsets.ISO_8859_1);
    }

    /** An error at the current token. */
    GraphFormatException error(String reason) {
        return new GraphFormatException(file, line, bufferStart + tokenPosition, reason);
    }

    /** An error about the whole file or a line other than the current one. */
    GraphFormatException errorAtLine(long atLine, String reason) {
        return new GraphFormatException(file, atLine, -1, reason);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private GraphFormatException notANumber(String what, int b) {
        if (b == '\n') {
            return error("expected " + what + ", found the end of the line");
        }
        if (b == EOF) {
            return error("expected " + what + ", found the end of the file");
        }
        String token = tokenText();
        if (token.length() > 1 && token.charAt(0) == '-' && Character.isDigit(token.charAt(1))) {
            return error(what + " " + token + " is negative");
        }
        return error("expected " + what + ", found '" + token + "'");
    }

    /** The token that starts at the token position, shortened when long. */
    private String tokenText() {
        int p = tokenPosition;
        while (p < limit && !isSeparator(buffer[p]) && p - tokenPosition <= SHOWN_TOKEN_CHARS) {
            p++;
        }
        String text = new String(buffer, tokenPosition, p - tokenPosition, StandardCharsets.ISO_8859_1);
        return p - tokenPosition > SHOWN_TOKEN_CHARS ? text.substring(0, SHOWN_TOKEN_CHARS) + "..." : text;
    }

    private int digits(int p) {
        while (p < limit && buffer[p] >= '0' && buffer[p] <= '9') {
            p++;
        }
        return p;
    }

    private boolean atSeparator() {
        // At the end of a full buffer the token is longer than the margin: no number is that long.
        return position == limit ? eof : isSeparator(buffer[position]);
    }

    private boolean isSeparator(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n' || (b == ',' && commaSeparates);
    }

    /** Moves the unread bytes to the front of the buffer and fills the rest from the file. */
    private void refill() throws IOException {
        int remaining = limit - position;
        System.arraycopy(buffer, position, buffer, 0, remaining);
        bufferStart += position;
        tokenPosition -= position;
        position = 0;
        limit = remaining;
        while (limit < buffer.length && !eof) {
            int read = in.read(buffer, limit, buffer.length - limit);
            if (read < 0) {
                eof = true;
            } else {
                limit += read;
            }
        }
    }
}
