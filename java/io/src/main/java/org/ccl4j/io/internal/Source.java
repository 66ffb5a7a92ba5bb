package org.ccl4j.io.internal;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * The bytes a reader reads, wherever they come from: a file, or a stream (standard input) first
 * copied to a temporary file, so that every reader can look at the beginning, know the size and
 * read twice; and, once {@link #decompress()} is called, the gzip-compressed content of either,
 * which text readers stream through {@link GZIPInputStream} and binary readers take from a
 * temporary decompressed copy ({@link #contentFile()}). Temporary files are deleted by
 * {@link #close()}. This package is not exported by the module.
 */
public final class Source implements Closeable {
    /** The bytes read from the start of the content for format detection. */
    public static final int HEAD_BYTES = 4096;
    private static final int GZIP_BUFFER = 1 << 16;

    private final Path name;
    private final Path file;
    private final boolean spooled;
    private final long storedSize;
    private final byte[] storedHead;
    private boolean compressed;
    private byte[] head;
    private Path decompressed;

    private Source(Path name, Path file, boolean spooled) throws IOException {
        this.name = name;
        this.file = file;
        this.spooled = spooled;
        this.storedSize = Files.size(file);
        try (InputStream in = Files.newInputStream(file)) {
            this.storedHead = in.readNBytes(HEAD_BYTES);
        }
        this.head = storedHead;
    }

    /**
     * The bytes of {@code file}, or when it is null those of {@code stream}.
     *
     * @param file   the file, or null
     * @param stream the stream, when there is no file
     * @param name   how messages name the stream
     * @return the source
     * @throws IOException when the file or the stream cannot be read
     */
    public static Source of(Path file, InputStream stream, Path name) throws IOException {
        return file != null ? ofFile(file) : ofStream(stream, name);
    }

    /**
     * The bytes of {@code file}.
     *
     * @param file the file
     * @return the source, which names the file in messages
     * @throws IOException when the file cannot be read
     */
    public static Source ofFile(Path file) throws IOException {
        return new Source(Objects.requireNonNull(file, "file"), file, false);
    }

    /**
     * The bytes of {@code stream}, read to its end into a temporary file; the stream is left open.
     *
     * @param stream the stream
     * @param name   how messages name it
     * @return the source
     * @throws IOException when the stream cannot be read or the temporary file written
     */
    public static Source ofStream(InputStream stream, Path name) throws IOException {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(name, "name");
        Path copy = Files.createTempFile("ccl4j-input-", ".tmp");
        try {
            Files.copy(stream, copy, StandardCopyOption.REPLACE_EXISTING);
            return new Source(name, copy, true);
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(copy);
            throw e;
        }
    }

    /**
     * How messages name the input: the file, or the name given with the stream.
     *
     * @return the name
     */
    public Path name() {
        return name;
    }

    /**
     * The name without its {@code .gz} (or {@code .gzip}) extension, so that the extension of the
     * content ({@code b.snap.gz}: {@code .snap}) tells its format; a file so named that turns out not
     * to be compressed is taken for what the rest of its name says.
     *
     * @return the name of the content
     */
    public Path contentName() {
        String text = name.toString();
        String lower = text.toLowerCase(Locale.ROOT);
        for (String suffix : new String[] {".gz", ".gzip"}) {
            if (lower.endsWith(suffix) && lower.length() > suffix.length()) {
                return Path.of(text.substring(0, text.length() - suffix.length()));
            }
        }
        return name;
    }

    /**
     * Whether the bytes came from a stream (and lie in a temporary file).
     *
     * @return true for a stream
     */
    public boolean isStream() {
        return spooled;
    }

    /**
     * The size of the bytes as stored (compressed, when they are).
     *
     * @return the size in bytes
     */
    public long storedSize() {
        return storedSize;
    }

    /**
     * The first bytes as stored, up to {@link #HEAD_BYTES}.
     *
     * @return the bytes (the array itself: do not change it)
     */
    public byte[] storedHead() {
        return storedHead;
    }

    /**
     * Takes the stored bytes as gzip-compressed: from now on the content is what they decompress to.
     *
     * @throws DamagedException when the compressed data is damaged or truncated
     * @throws IOException      when the file cannot be read
     */
    public void decompress() throws IOException {
        if (compressed) {
            return;
        }
        compressed = true;
        try (InputStream in = open()) {
            head = in.readNBytes(HEAD_BYTES);
        }
    }

    /**
     * Whether the content is the decompressed stored bytes.
     *
     * @return true after {@link #decompress()}
     */
    public boolean isCompressed() {
        return compressed;
    }

    /**
     * The first bytes of the content, up to {@link #HEAD_BYTES}.
     *
     * @return the bytes (the array itself: do not change it)
     */
    public byte[] head() {
        return head;
    }

    /**
     * The size of the content when it is known without decompressing it.
     *
     * @return the size in bytes, or -1 for compressed content not yet decompressed to a file
     */
    public long contentSize() throws IOException {
        if (!compressed) {
            return storedSize;
        }
        return decompressed == null ? -1 : Files.size(decompressed);
    }

    /**
     * A new stream of the content from its start, decompressed when it is compressed; the caller
     * closes it. Damaged compressed data raises a {@link DamagedException} from its reads.
     *
     * @return the stream
     * @throws IOException when the file cannot be opened
     */
    public InputStream open() throws IOException {
        if (!compressed) {
            return Files.newInputStream(file);
        }
        if (decompressed != null) {
            return Files.newInputStream(decompressed);
        }
        InputStream stored = new BufferedInputStream(Files.newInputStream(file), GZIP_BUFFER);
        try {
            return new Checked(new GZIPInputStream(stored, GZIP_BUFFER));
        } catch (ZipException | EOFException e) {
            stored.close();
            throw damaged(e);
        } catch (IOException | RuntimeException e) {
            stored.close();
            throw e;
        }
    }

    /**
     * A regular file holding the content: the file itself, its temporary copy when it came from a
     * stream, or for compressed content a temporary file it is decompressed into (once).
     *
     * @return the file, which lives until {@link #close()}
     * @throws DamagedException when the compressed data is damaged or truncated
     * @throws IOException      when the content cannot be read or written
     */
    public Path contentFile() throws IOException {
        if (!compressed) {
            return file;
        }
        if (decompressed == null) {
            Path copy = Files.createTempFile("ccl4j-decompressed-", ".tmp");
            try (InputStream in = open()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException | Error e) {
                Files.deleteIfExists(copy);
                throw e;
            }
            decompressed = copy;
        }
        return decompressed;
    }

    /**
     * Whether {@link #contentFile()} is a temporary file, which a reader must not map into memory
     * that outlives this source.
     *
     * @return true for a copy of a stream or decompressed content
     */
    public boolean contentIsTemporary() {
        return spooled || compressed;
    }

    /** Deletes the temporary files. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Path temporary : new Path[] {decompressed, spooled ? file : null}) {
            if (temporary == null) {
                continue;
            }
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        decompressed = null;
        if (failure != null) {
            throw failure;
        }
    }

    private static DamagedException damaged(IOException e) {
        String reason = e instanceof EOFException ? "the gzip-compressed data is truncated"
                : "the gzip-compressed data is damaged";
        return new DamagedException(reason + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e);
    }

    /**
     * Compressed data that does not decompress: truncated, or damaged. Readers turn it into their
     * format exception naming the file.
     */
    public static final class DamagedException extends IOException {
        private static final long serialVersionUID = 1L;

        DamagedException(String message, IOException cause) {
            super(message, cause);
        }
    }

    /** Turns the decompressor's failures into {@link DamagedException}s. */
    private static final class Checked extends FilterInputStream {
        Checked(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (ZipException | EOFException e) {
                throw damaged(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (ZipException | EOFException e) {
                throw damaged(e);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return super.skip(n);
            } catch (ZipException | EOFException e) {
                throw damaged(e);
            }
        }
    }
}
