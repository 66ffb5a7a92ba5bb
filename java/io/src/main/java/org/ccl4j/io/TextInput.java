package org.ccl4j.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A hand-written tokenizer for the line-oriented text formats: reads bytes through a large buffer
 * and parses numbers digit by digit, with no per-token allocation. It knows the line and the byte
 * offset of the token being read, so every error names its place.
 *
 * <p>Tokens are separated by spaces, tabs, carriage returns and, optionally, commas. Every token
 * starts with at least {@link #TOKEN_MARGIN} bytes of the file in the buffer (or the end of the
 * file), so a token is never split across refills.
 *
 * <p>Ids of edge lists may be text ({@link #readId}): a run of bytes up to a separator, or a
 * field in double quotes, as CSV writes it ({@code "Smith, J."}, with {@code ""} for a quote),
 * of at most {@link #MAX_ID_BYTES} bytes and no control characters.
 */
final class TextInput implements Closeable {
    static final int EOF = -1;
    /** The longest id that {@link #readId} takes, in bytes as the file holds it. */
    static final int MAX_ID_BYTES = 1000;
    private static final int BUFFER_BYTES = 1 << 20;
    private static final int TOKEN_MARGIN = 1024;
    private static final long LIMIT = Long.MAX_VALUE / 10;
    private static final int SHOWN_TOKEN_CHARS = 40;

    private final Path file;
    /** The size of the input, or -1 when it is not known before the end (compressed input). */
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
    /** The text of the last id that {@link #readId} found not to be a number. */
    private final byte[] id = new byte[MAX_ID_BYTES];
    private final MemorySegment idSegment = MemorySegment.ofArray(id);
    private int idLength;

    /**
     * Reads {@code in}, which it closes.
     *
     * @param file     names the input in errors
     * @param in       the bytes
     * @param fileSize the number of bytes, or -1 when it is not known (compressed input)
     */
    TextInput(Path file, InputStream in, long fileSize, boolean commaSeparates) throws IOException {
        this.file = file;
        this.in = in;
        this.fileSize = fileSize;
        this.commaSeparates = commaSeparates;
        try {
            refill();
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** True when the file has no bytes at all. */
    boolean isEmptyFile() {
        return bufferStart == 0 && limit == 0 && eof;
    }

    /** The file that errors name. */
    Path file() {
        return file;
    }

    /** Whether the size of the input was known when it was opened. */
    boolean sizeKnown() {
        return fileSize >= 0;
    }

    /**
     * The size of the input in bytes: when it was opened, or for an input whose size was not
     * known, the bytes read so far (all of them, once the end has been reached).
     */
    long fileSize() {
        return fileSize >= 0 ? fileSize : bufferStart + limit;
    }

    /** The offset of the current token from the start of the input. */
    long tokenOffset() {
        return bufferStart + tokenPosition;
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

    /**
     * Reads an id: a number when it is a non-negative decimal integer of up to 63 bits (returned),
     * otherwise text, whose bytes {@link #idText()} and {@link #idLength()} then hold (and -1 is
     * returned). A field in double quotes is its content, unquoted; quoted digits are a number.
     *
     * @param what names the value in error messages ("source id")
     * @throws GraphFormatException when the line ends before the id, or the id is empty, longer
     *                              than {@link #MAX_ID_BYTES}, unterminated or holds a control byte
     */
    long readId(String what) throws IOException {
        int b = skipBlanks();
        if (b == '\n' || b == EOF) {
            throw notANumber(what, b);
        }
        long value = 0;
        int p = position;
        boolean number = true;
        while (p < limit) {
            int d = buffer[p] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            if (value >= LIMIT && (value > LIMIT || d > 7)) {
                number = false;
                break;
            }
            value = value * 10 + d;
            p++;
        }
        if (number && p > position && (p == limit ? eof : isSeparator(buffer[p]))) {
            position = p;
            return value;
        }
        return b == '"' ? quotedId(what) : bareId(what);
    }

    /** The text of the id that {@link #readId} last returned -1 for, in {@code idText()[0 .. idLength()-1]}. */
    MemorySegment idText() {
        return idSegment;
    }

    /** The length in bytes of the text of the id that {@link #readId} last returned -1 for. */
    int idLength() {
        return idLength;
    }

    private long bareId(String what) {
        int p = position;
        int end = Math.min(limit, position + MAX_ID_BYTES + 1);
        while (p < end && !isSeparator(buffer[p])) {
            checkTextByte(what, buffer[p]);
            p++;
        }
        if (p - position > MAX_ID_BYTES) {
            throw error(what + " '" + tokenText() + "' is longer than the " + MAX_ID_BYTES + " bytes an id may have");
        }
        idLength = p - position;
        System.arraycopy(buffer, position, id, 0, idLength);
        position = p;
        return -1;
    }

    private long quotedId(String what) {
        int p = position + 1;
        int end = Math.min(limit, position + MAX_ID_BYTES + 3);
        int length = 0;
        while (true) {
            if (p == end || buffer[p] == '\n') {
                throw error(p - position > MAX_ID_BYTES + 1 ? what + " '" + tokenText() + "' is longer than the "
                        + MAX_ID_BYTES + " bytes an id may have" : "the quoted " + what + " '" + tokenText()
                        + "' has no closing quote on its line");
            }
            byte c = buffer[p];
            if (c == '"') {
                if (p + 1 < limit && buffer[p + 1] == '"') {
                    p++;
                } else {
                    p++;
                    break;
                }
            } else {
                checkTextByte(what, c);
            }
            if (length == MAX_ID_BYTES) {
                throw error(what + " '" + tokenText() + "' is longer than the " + MAX_ID_BYTES + " bytes an id may have");
            }
            id[length++] = c;
            p++;
        }
        if (p < limit && !isSeparator(buffer[p])) {
            throw error("unexpected '" + (char) (buffer[p] & 0xFF) + "' after the closing quote of the " + what);
        }
        position = p;
        if (length == 0) {
            throw error("the " + what + " is empty");
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            int d = id[i] - '0';
            if (d < 0 || d > 9 || (value >= LIMIT && (value > LIMIT || d > 7))) {
                idLength = length;
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    private void checkTextByte(String what, byte c) {
        if ((c >= 0 && c < 0x20 && c != '\t') || c == 0x7F) {
            throw error(String.format(Locale.ROOT, "%s holds the control byte 0x%02x: the input is not text",
                    what, c & 0xFF));
        }
    }

    /**
     * Whether the line at the current position starts with a header rather than an edge: its
     * first two fields are there and one of them is not a number (digits, with an optional sign,
     * fraction and exponent, quoted or not). Looks ahead without consuming anything.
     */
    boolean atHeaderLine() throws IOException {
        skipBlanks();
        int p = position;
        int end = Math.min(limit, position + TOKEN_MARGIN);
        for (int field = 0; field < 2; field++) {
            while (p < end && (buffer[p] == ' ' || buffer[p] == '\t' || buffer[p] == '\r'
                    || (buffer[p] == ',' && commaSeparates))) {
                p++;
            }
            if (p == end || buffer[p] == '\n') {
                return false; // fewer than two fields: not a header but a malformed edge, reported as such
            }
            int start = p;
            boolean quoted = buffer[p] == '"';
            if (quoted) {
                p++;
                while (p < end && buffer[p] != '"' && buffer[p] != '\n') {
                    p++;
                }
                if (!isNumber(start + 1, p)) {
                    return true;
                }
                if (p < end && buffer[p] == '"') {
                    p++;
                }
            } else {
                while (p < end && !isSeparator(buffer[p])) {
                    p++;
                }
                if (!isNumber(start, p)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code buffer[from .. to-1]} is a decimal number: sign, digits, fraction, exponent. */
    private boolean isNumber(int from, int to) {
        int p = from;
        if (p < to && (buffer[p] == '+' || buffer[p] == '-')) {
            p++;
        }
        int digitsStart = p;
        p = Math.min(digits(p), to);
        int count = p - digitsStart;
        if (p < to && buffer[p] == '.') {
            int fraction = p + 1;
            p = Math.min(digits(fraction), to);
            count += p - fraction;
        }
        if (count == 0) {
            return false;
        }
        if (p < to && (buffer[p] == 'e' || buffer[p] == 'E')) {
            p++;
            if (p < to && (buffer[p] == '+' || buffer[p] == '-')) {
                p++;
            }
            int exponent = p;
            p = Math.min(digits(p), to);
            if (p == exponent) {
                return false;
            }
        }
        return p == to;
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
