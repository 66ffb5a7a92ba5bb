package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.io.grid.GridReadOptions;
import org.ccl4j.io.grid.GridReader;
import org.ccl4j.io.grid.ImageFormatException;
import org.ccl4j.io.grid.PngBytes;

/**
 * Fuzzing of every reader, graph and grid: valid files of each format, plain and gzip-compressed,
 * mutated (bit flips,
 * truncation, inserted and deleted bytes, huge numbers in text, extreme ints in binary headers,
 * PNG and {@code .csr} header CRCs recomputed so that the damage reaches the decoder and the field
 * checks) and random bytes behind a valid
 * beginning. Whatever the bytes, a reader returns a result whose size the file justifies or throws
 * its documented format exception ({@link GraphFormatException}, {@link ImageFormatException})
 * naming the file: never another exception, never an allocation that exhausts memory, never a hang.
 * Inputs are small and the tries bounded, so the whole class runs in seconds.
 */
class ReaderFuzzTest {
    /** What one try may take before it counts as a hang. */
    private static final Duration HANG = Duration.ofSeconds(10);
    /** The most cells a grid file may justify per byte: 1-bit PNG pixels, deflated at 1032:1. */
    private static final long CELLS_PER_BYTE = 8 * 1032;

    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("reader-fuzz");
    }

    @AfterContainer
    static void deleteDirectory() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** How a seed's file is read; returns the vertices or cells that the result holds. */
    @FunctionalInterface
    interface Reading {
        long read(Path file, Arena arena) throws IOException;
    }

    /** What a seed is: {@code .csr} and PNG files carry CRCs, which a try may recompute after its damage. */
    enum Kind { GRAPH, CSR, GRID, PNG }

    /** A valid file, the extension it is written with and how it is read. */
    record Seed(String name, String extension, byte[] bytes, Kind kind, Reading reading) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Seed graph(String name, String extension, GraphFormat format, ReadOptions options, byte[] bytes) {
        return new Seed(name, extension, bytes, Kind.GRAPH,
                (file, arena) -> GraphReader.read(file, format, options, arena).graph().vertexCount());
    }

    private static Seed csr(String name, String extension, byte[] bytes) {
        return new Seed(name, extension, bytes, Kind.CSR,
                (file, arena) -> GraphReader.read(file, GraphFormat.AUTO, ReadOptions.defaults(), arena).graph()
                        .vertexCount());
    }

    private static Seed text(String name, String extension, GraphFormat format, ReadOptions options, String text) {
        return graph(name, extension, format, options, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Seed grid(String name, String extension, GridReadOptions options, byte[] bytes) {
        return new Seed(name, extension, bytes, name.startsWith("png") ? Kind.PNG : Kind.GRID,
                (file, arena) -> GridReader.read(file, options, arena).cellCount());
    }

    private static byte[] littleEndianInts(int... ints) {
        ByteBuffer b = ByteBuffer.allocate(4 * ints.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int i : ints) {
            b.putInt(i);
        }
        return b.array();
    }

    private static byte[] gzip(byte[] bytes) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(bytes);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static byte[] png(int width, int height, int bitDepth, int colorType, boolean interlaced, int[] palette,
                              long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int channels = PngBytes.channels(colorType);
        int bound = palette == null ? 1 << bitDepth : palette.length;
        int[] samples = random.ints((long) width * height * channels, 0, bound).toArray();
        byte[] data = PngBytes.zlib(PngBytes.imageData(width, height, bitDepth, colorType, interlaced, samples, random));
        byte[] header = PngBytes.ihdr(width, height, bitDepth, colorType, interlaced ? 1 : 0);
        // the image data in two chunks, so that the run of IDAT chunks is exercised
        byte[] first = PngBytes.chunk("IDAT", Arrays.copyOf(data, data.length / 2));
        byte[] second = PngBytes.chunk("IDAT", Arrays.copyOfRange(data, data.length / 2, data.length));
        byte[] text = PngBytes.chunk("tEXt", "Comment\0fuzz".getBytes(StandardCharsets.ISO_8859_1));
        return palette == null ? PngBytes.png(header, text, first, second, PngBytes.iend())
                : PngBytes.png(header, PngBytes.plte(palette), first, second, PngBytes.iend());
    }

    private static final List<Seed> SEEDS = List.of(
            // a triangle, an isolated vertex; then an unclean graph with edge weights
            graph("egr", ".egr", GraphFormat.EGR, ReadOptions.defaults(),
                    littleEndianInts(4, 6, 0, 2, 4, 6, 6, 1, 2, 0, 2, 0, 1)),
            graph("egr unclean with weights", ".bin", GraphFormat.AUTO, ReadOptions.defaults(),
                    littleEndianInts(3, 3, 0, 2, 2, 3, 2, 2, 0, 9, 9, 9)),
            text("mtx", ".mtx", GraphFormat.MTX, ReadOptions.defaults(),
                    "%%MatrixMarket matrix coordinate real symmetric\n% c\n5 5 4\n2 1 1.5\n3 2 -2e3\n5 4 nan\n4 1 0\n"),
            text("mtx detected by content", ".dat", GraphFormat.AUTO, ReadOptions.defaults(),
                    "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n"),
            text("dimacs sp", ".gr", GraphFormat.DIMACS, ReadOptions.defaults(),
                    "c road\np sp 6 4\na 1 2 7\na 2 3 1\nc between\na 5 6 2\na 6 5 2\n"),
            text("dimacs col", ".col", GraphFormat.AUTO, ReadOptions.defaults(), "p edge 5 3\ne 1 2\ne 2 3\ne 4 5\n"),
            text("snap", ".txt", GraphFormat.SNAP, ReadOptions.defaults(),
                    "# c\n10\t20\n20\t30\t5\n9000000000000000000\t10\n"),
            text("snap kept ids", ".txt", GraphFormat.SNAP, ReadOptions.defaults().withKeepIds(true),
                    "# c\n10 20\n20 30 5\n40 10\n"),
            text("edges", ".edges", GraphFormat.EDGES, ReadOptions.defaults(), "% c\n0,1\n1,2,0.5\n\n4 3\n"),
            text("csv with a header and text ids", ".csv", GraphFormat.AUTO, ReadOptions.defaults(),
                    "source,target,w\nalice,bob,1\n\"Smith, J.\",alice,2\n9000000000,bob\n"),
            graph("snap gzip", ".txt.gz", GraphFormat.AUTO, ReadOptions.defaults(),
                    gzip("# c\n10\t20\n20\t30\t5\n".getBytes(StandardCharsets.ISO_8859_1))),
            graph("egr gzip", ".egr.gz", GraphFormat.AUTO, ReadOptions.defaults(),
                    gzip(littleEndianInts(4, 6, 0, 2, 4, 6, 6, 1, 2, 0, 2, 0, 1))),
            // the triangle flagged canonical (mapped untested); an unclean graph with 8-byte offsets (rebuilt)
            csr("csr", ".csr", new CsrBytes(new long[] {0, 2, 4, 6, 6}, new int[] {1, 2, 0, 2, 0, 1}).canonical()
                    .bytes()),
            csr("csr wide unclean detected by magic", ".bin",
                    new CsrBytes(new long[] {0, 3, 4, 4}, new int[] {2, 0, 2, 0}).width(8).bytes()),
            csr("csr gzip", ".csr.gz", gzip(new CsrBytes(new long[] {0, 2, 4, 6, 6}, new int[] {1, 2, 0, 2, 0, 1})
                    .canonical().bytes())),
            grid("pgm ascii", ".pgm", GridReadOptions.defaults(),
                    "P2\n# c\n3 2\n255\n0 1 2\n3 4 255\n".getBytes(StandardCharsets.US_ASCII)),
            grid("pgm binary 16-bit", ".pgm", GridReadOptions.defaults(),
                    concat("P5\n2 2\n1000\n".getBytes(StandardCharsets.US_ASCII), new byte[] {0, 1, 3, (byte) 0xE8, 0, 9, 1, 0})),
            // Detected by content; given their dimensions, as a file that turns out raw needs them.
            grid("pgm binary thresholded", ".img", GridReadOptions.defaults().withDims(new GridDims(3, 2, 1)).withThreshold(9),
                    concat("P5 3 2 255\n".getBytes(StandardCharsets.US_ASCII), new byte[] {1, 9, 10, 0, (byte) 200, 8})),
            grid("pgm gzip", ".pgm.gz", GridReadOptions.defaults(),
                    gzip("P2\n3 2\n255\n0 1 2\n3 4 255\n".getBytes(StandardCharsets.US_ASCII))),
            grid("raw u8", ".raw", GridReadOptions.defaults().withDims(new GridDims(3, 2, 2)),
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
            grid("raw i32", ".vol", GridReadOptions.defaults().withDims(new GridDims(2, 2, 1)).withRawType(Grid.CellType.I32),
                    littleEndianInts(-1, 7, 1 << 20, 0)),
            grid("png grey8", ".png", GridReadOptions.defaults(), png(5, 4, 8, 0, false, null, 1)),
            grid("png grey1 interlaced", ".png", GridReadOptions.defaults(), png(9, 7, 1, 0, true, null, 2)),
            grid("png palette 2-bit", ".png", GridReadOptions.defaults(),
                    png(6, 3, 2, 3, false, new int[] {0xFF0000, 0x00FF00, 0x0000FF}, 3)),
            grid("png rgb16 interlaced packed", ".png",
                    GridReadOptions.defaults().withColor(GridReadOptions.ColorMode.RGB), png(5, 5, 16, 2, true, null, 4)),
            grid("png grey-alpha thresholded", ".png", GridReadOptions.defaults().withThreshold(100),
                    png(4, 4, 8, 4, false, null, 5)),
            grid("png rgba detected by content", ".img", GridReadOptions.defaults().withDims(new GridDims(3, 4, 1)),
                    png(3, 4, 8, 6, false, null, 6)));

    @Provide
    Arbitrary<Seed> seeds() {
        return Arbitraries.of(SEEDS);
    }

    /** A change to a file; positions wrap around its length. */
    sealed interface Mutation {
        byte[] apply(byte[] b);
    }

    record FlipBit(int at, int bit) implements Mutation {
        public byte[] apply(byte[] b) {
            if (b.length == 0) {
                return b;
            }
            byte[] c = b.clone();
            c[at % c.length] ^= (byte) (1 << bit);
            return c;
        }
    }

    record Truncate(int at) implements Mutation {
        public byte[] apply(byte[] b) {
            return Arrays.copyOf(b, at % (b.length + 1));
        }
    }

    record Insert(int at, byte[] bytes) implements Mutation {
        public byte[] apply(byte[] b) {
            int p = at % (b.length + 1);
            byte[] c = Arrays.copyOf(b, b.length + bytes.length);
            System.arraycopy(bytes, 0, c, p, bytes.length);
            System.arraycopy(b, p, c, p + bytes.length, b.length - p);
            return c;
        }

        @Override
        public String toString() {
            return "Insert[at=" + at + ", bytes=" + HexFormat.of().formatHex(bytes) + "]";
        }
    }

    record Delete(int at, int count) implements Mutation {
        public byte[] apply(byte[] b) {
            int p = at % (b.length + 1);
            int end = Math.min(b.length, p + count);
            byte[] c = Arrays.copyOf(b, b.length - (end - p));
            System.arraycopy(b, end, c, p, b.length - end);
            return c;
        }
    }

    /** Replaces the run of digits at or after the position with {@code number}, or inserts it. */
    record Number(int at, String number) implements Mutation {
        public byte[] apply(byte[] b) {
            int p = at % (b.length + 1);
            while (p < b.length && (b[p] < '0' || b[p] > '9')) {
                p++;
            }
            int end = p;
            while (end < b.length && b[end] >= '0' && b[end] <= '9') {
                end++;
            }
            byte[] digits = number.getBytes(StandardCharsets.US_ASCII);
            byte[] c = Arrays.copyOf(b, b.length - (end - p) + digits.length);
            System.arraycopy(digits, 0, c, p, digits.length);
            System.arraycopy(b, end, c, p + digits.length, b.length - end);
            return c;
        }
    }

    /** Overwrites four bytes with an int: little-endian and 4-aligned (.egr, raw) or big-endian anywhere (PNG). */
    record PutInt(int at, int value, boolean littleEndian) implements Mutation {
        public byte[] apply(byte[] b) {
            if (b.length < 4) {
                return b;
            }
            int p = at % (b.length - 3);
            byte[] c = b.clone();
            if (littleEndian) {
                ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putInt(p & ~3, value);
            } else {
                ByteBuffer.wrap(c).putInt(p, value);
            }
            return c;
        }
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, 1 << 20);
        Arbitrary<Mutation> one = Arbitraries.oneOf(
                Combinators.combine(at, Arbitraries.integers().between(0, 7)).as(FlipBit::new),
                at.map(Truncate::new),
                Combinators.combine(at, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(8)).as(Insert::new),
                Combinators.combine(at, Arbitraries.integers().between(1, 16)).as(Delete::new),
                Combinators.combine(at, Arbitraries.of("0", "1", "65535", "65536", "1048576", "2147483646", "2147483647",
                        "2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
                        "99999999999999999999999", "-1", "1e9", "nan")).as(Number::new),
                Combinators.combine(at, Arbitraries.oneOf(Arbitraries.of(0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE,
                        1 << 16, 1 << 20, 0x7FFFFFF0), Arbitraries.integers()), Arbitraries.of(true, false))
                        .as(PutInt::new));
        return one.list().ofMinSize(1).ofMaxSize(4);
    }

    @Property(tries = 500)
    void mutatedFilesAreReadOrRefused(@ForAll("seeds") Seed seed, @ForAll("mutations") List<Mutation> mutations,
                                      @ForAll boolean fixCrcs) {
        byte[] bytes = seed.bytes();
        for (Mutation m : mutations) {
            bytes = m.apply(bytes);
        }
        if (seed.kind() == Kind.PNG && fixCrcs) {
            fixCrcs(bytes);
        }
        if (seed.kind() == Kind.CSR && fixCrcs && !seed.extension().endsWith(".gz") && bytes.length >= CsrBytes.HEADER) {
            CRC32 crc = new CRC32();
            crc.update(bytes, 0, CsrBytes.HEADER - 4);
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(CsrBytes.HEADER - 4, (int) crc.getValue());
        }
        assertReadOrRefused(seed, bytes);
    }

    @Property(tries = 300)
    void randomBytesBehindAValidBeginningAreReadOrRefused(@ForAll("seeds") Seed seed,
            @ForAll @Size(max = 64) List<Integer> beginning, @ForAll @Size(max = 300) byte[] tail) {
        // the beginning's length: nothing, a magic number, a header, most of the file
        int keep = beginning.size() * seed.bytes().length / 64;
        assertReadOrRefused(seed, concat(Arrays.copyOf(seed.bytes(), keep), tail));
    }

    /** Every colour type with every bit depth the specification allows for it. */
    private static final int[][] PNG_TYPES = {
        {0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {2, 8}, {2, 16}, {3, 1}, {3, 2}, {3, 4}, {3, 8},
        {4, 8}, {4, 16}, {6, 8}, {6, 16}};
    private static final Seed PNG_FROM_FIELDS = grid("png from random fields", ".png", GridReadOptions.defaults(),
            new byte[0]);

    @Provide
    Arbitrary<Integer> pngSides() {
        return Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.integers().between(1, 24)),
                Tuple.of(1, Arbitraries.of(0, 65535, 1 << 30, Integer.MAX_VALUE, -1)));
    }

    @Provide
    Arbitrary<int[]> pngTypes() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.of(PNG_TYPES)),
                Tuple.of(1, Combinators.combine(Arbitraries.integers().between(0, 255),
                        Arbitraries.integers().between(0, 255)).as((c, d) -> new int[] {c, d})));
    }

    /**
     * Damage that mutating the compressed bytes rarely reaches: PNGs framed correctly, with valid
     * CRCs and zlib data, but random header fields, palette sizes (indices may pass the palette),
     * filter types and amounts of image data.
     */
    @Property(tries = 300)
    void pngsOfRandomFieldsAndImageDataAreReadOrRefused(@ForAll("pngSides") int width, @ForAll("pngSides") int height,
            @ForAll("pngTypes") int[] type, @ForAll @IntRange(max = 2) int interlace,
            @ForAll @IntRange(max = 260) int paletteEntries, @ForAll @IntRange(min = -6, max = 6) int sizeChange,
            @ForAll boolean badFilter, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int colorType = type[0];
        int bitDepth = type[1];
        boolean buildable = Arrays.stream(PNG_TYPES).anyMatch(t -> Arrays.equals(t, type)) && width >= 1 && width <= 24
                && height >= 1 && height <= 24 && interlace <= 1;
        byte[] raw;
        if (buildable) {
            int[] samples = random.ints((long) width * height * PngBytes.channels(colorType), 0, 1 << bitDepth).toArray();
            raw = PngBytes.imageData(width, height, bitDepth, colorType, interlace == 1, samples, random);
            if (badFilter) {
                raw[0] = (byte) (5 + random.nextInt(251)); // the first row's filter byte
            }
        } else {
            raw = new byte[random.nextInt(64)];
            random.nextBytes(raw);
        }
        byte[] resized = Arrays.copyOf(raw, Math.max(0, raw.length + sizeChange));
        for (int i = raw.length; i < resized.length; i++) {
            resized[i] = (byte) random.nextInt(256);
        }
        byte[] header = PngBytes.ihdr(width, height, bitDepth, colorType, interlace);
        byte[] data = PngBytes.chunk("IDAT", PngBytes.zlib(resized));
        byte[] png = paletteEntries == 0 ? PngBytes.png(header, data, PngBytes.iend())
                : PngBytes.png(header, PngBytes.plte(random.ints(paletteEntries, 0, 1 << 24).toArray()), data,
                        PngBytes.iend());
        assertReadOrRefused(PNG_FROM_FIELDS, png);
    }

    /** Every seed reads as it is: the property above starts from valid files. */
    @Property(tries = 30)
    void theSeedsAreValid(@ForAll("seeds") Seed seed) throws Exception {
        Path file = dir.resolve("seed" + seed.extension());
        Files.write(file, seed.bytes());
        try (Arena arena = Arena.ofConfined()) {
            assertTrue(seed.reading().read(file, arena) > 0, seed::name);
        }
    }

    /** Reads {@code bytes} as {@code seed} says: a result the file's size justifies, or a format exception. */
    private static void assertReadOrRefused(Seed seed, byte[] bytes) {
        Path file = dir.resolve("fuzz" + seed.extension());
        assertTimeoutPreemptively(HANG, () -> {
            Files.write(file, bytes);
            try (Arena arena = Arena.ofConfined()) {
                long size = seed.reading().read(file, arena);
                // gzip content is bounded by what it decompresses to: at most 1032 bytes a byte
                long justified = seed.extension().endsWith(".gz") ? 1032L * bytes.length : bytes.length;
                long bound = seed.kind() == Kind.GRAPH || seed.kind() == Kind.CSR
                        ? ReadOptions.defaults().vertexLimit(justified)
                        : CELLS_PER_BYTE * justified;
                assertTrue(size <= bound, () -> seed + " gave " + size + " from " + bytes.length + " bytes");
            } catch (GraphFormatException | ImageFormatException e) {
                assertNotNull(e.getMessage());
                assertTrue(e.getMessage().startsWith(file.toString()), e::getMessage);
            }
        }, () -> seed + " did not finish within " + HANG + " on " + HexFormat.of().formatHex(bytes));
    }

    /** Recomputes the CRC of every chunk that lies inside the file, so damage inside chunks passes the CRC check. */
    private static void fixCrcs(byte[] png) {
        ByteBuffer b = ByteBuffer.wrap(png);
        int at = 8; // after the signature
        while (at + 12 <= png.length) {
            int length = b.getInt(at);
            if (length < 0 || length > png.length - at - 12) {
                return;
            }
            CRC32 crc = new CRC32();
            crc.update(png, at + 4, 4 + length);
            b.putInt(at + 8 + length, (int) crc.getValue());
            at += 12 + length;
        }
    }
}
