package org.ccl4j.io;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What {@link GraphReader} and {@link org.ccl4j.io.grid.GridReader} read: a file, standard input,
 * or any other stream. Command-line tools turn their argument into one with {@link #of(String)},
 * which takes {@code -} for standard input, so that this convention lives in one place.
 *
 * <p>Every reader recognises the content alike, whatever the input: formats are told by their
 * first bytes (magic numbers) before extensions, gzip-compressed content is decompressed, and
 * formats that ccl4j recognises but does not read (TIFF, NumPy, HDF5, zip, ...) are refused by
 * name. A stream has no extension, so its format is the one given to the reader or the one its
 * content shows; a stream is read to its end into a temporary file (deleted once read) before it
 * is parsed, so that every format, binary ones included, can be read from it and its size bounds
 * what it may declare as a file's does ({@link ReadOptions}). A stream is read once, and left open.
 */
public final class Input {
    /** The argument that names standard input on command lines. */
    public static final String STANDARD_INPUT = "-";
    /** How messages and {@link GraphFile#source()} name standard input. */
    public static final String STANDARD_INPUT_NAME = "(stdin)";

    private final Path file;
    private final Supplier<InputStream> stream;
    private final Path name;

    private Input(Path file, Supplier<InputStream> stream, Path name) {
        this.file = file;
        this.stream = stream;
        this.name = name;
    }

    /**
     * The input that a command-line argument names: standard input for {@code -}, else the file.
     *
     * @param pathOrDash a file name, or {@code -}
     * @return the input
     * @throws java.nio.file.InvalidPathException when {@code pathOrDash} is not a valid file name
     */
    public static Input of(String pathOrDash) {
        Objects.requireNonNull(pathOrDash, "pathOrDash");
        return STANDARD_INPUT.equals(pathOrDash) ? standardInput() : of(Path.of(pathOrDash));
    }

    /**
     * The input of a file.
     *
     * @param file the file
     * @return the input
     */
    public static Input of(Path file) {
        return new Input(Objects.requireNonNull(file, "file"), null, file);
    }

    /**
     * The input of a stream, read once to its end and left open. The extension of {@code name}, if
     * it has one, tells the format as a file's would ({@code upload.csv}: an edge list).
     *
     * @param stream the stream
     * @param name   how messages and {@link GraphFile#source()} name it, as "(upload)"
     * @return the input
     * @throws java.nio.file.InvalidPathException when {@code name} cannot be a file name
     */
    public static Input of(InputStream stream, String name) {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(name, "name");
        return new Input(null, () -> stream, Path.of(name));
    }

    /**
     * Standard input: {@link System#in} as it is when the input is read, named
     * {@value #STANDARD_INPUT_NAME}.
     *
     * @return the input
     */
    public static Input standardInput() {
        return new Input(null, () -> System.in, Path.of(STANDARD_INPUT_NAME));
    }

    /**
     * Whether this is a file rather than a stream.
     *
     * @return true for a file
     */
    public boolean isFile() {
        return file != null;
    }

    /**
     * The file.
     *
     * @return the file, or null for a stream
     */
    public Path file() {
        return file;
    }

    /**
     * The stream of a stream input ({@link System#in} at this moment for standard input).
     *
     * @return the stream, or null for a file
     */
    public InputStream stream() {
        return stream == null ? null : stream.get();
    }

    /**
     * How messages name the input: the file, or the stream's name.
     *
     * @return the name
     */
    public Path name() {
        return name;
    }

    /**
     * The name, as messages give it.
     *
     * @return the name
     */
    @Override
    public String toString() {
        return name.toString();
    }
}
