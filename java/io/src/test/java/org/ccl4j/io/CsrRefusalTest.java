package org.ccl4j.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every way a {@code .csr} file can be damaged or lie is refused with a {@link GraphFormatException}
 * that names the byte offset and the value at fault (docs/FORMATS.md, "What the reader checks"):
 * one test per check. The headers that lie carry a correct checksum, so that each check is reached
 * on its own.
 */
class CsrRefusalTest {
    /** A triangle 0-1-2 and the isolated vertex 3: with 4-byte offsets, 4 bytes of padding at byte 60. */
    private static final long[] OFFSETS = {0, 2, 4, 6, 6};
    private static final int[] NEIGHBORS = {1, 2, 0, 2, 0, 1};
    /** Its file's size: the header, 5 offsets, the padding, 6 neighbours. */
    private static final int SIZE = 40 + 20 + 4 + 24;

    @TempDir
    Path dir;

    private static CsrBytes graph() {
        return new CsrBytes(OFFSETS, NEIGHBORS);
    }

    /** Reads {@code bytes} as g.csr and expects the message {@code file: at byte OFFSET: reason}. */
    private GraphFormatException refused(byte[] bytes, long offset, String reason) throws IOException {
        Path file = dir.resolve("g.csr");
        Files.write(file, bytes);
        GraphFormatException e = assertThrows(GraphFormatException.class, () -> {
            try (Arena arena = Arena.ofConfined()) {
                GraphReader.read(file, arena);
            }
        });
        assertEquals(offset, e.byteOffset(), e::getMessage);
        assertEquals(-1, e.line());
        assertEquals(file + (offset >= 0 ? ": at byte " + offset : "") + ": " + reason, e.getMessage());
        return e;
    }

    @Test
    void theUndamagedFileIsRead() throws IOException {
        Path file = dir.resolve("g.csr");
        Files.write(file, graph().bytes());
        assertEquals(SIZE, Files.size(file));
        try (Arena arena = Arena.ofConfined()) {
            TestSupport.assertLists(new int[][] {{1, 2}, {0, 2}, {0, 1}, {}}, GraphReader.read(file, arena).graph());
        }
    }

    @Test
    void anEmptyFile() throws IOException {
        refused(new byte[0], -1, "the file is empty");
    }

    @Test
    void badMagicBytes() throws IOException {
        byte[] bytes = graph().bytes();
        bytes[3] = 'X';
        refused(bytes, 0, "the file starts with 89 43 53 58 0d 0a 1a 0a, not with the 8 bytes 89 43 53 52 0d 0a 1a 0a"
                + " of a .csr file");
        // the line endings converted, as a text transfer would
        byte[] converted = graph().bytes();
        converted[4] = '\n';
        refused(converted, 0, "the file starts with 89 43 53 52 0a 0a 1a 0a, not with the 8 bytes"
                + " 89 43 53 52 0d 0a 1a 0a of a .csr file");
    }

    /** Cut inside the magic bytes, the header, the offsets, the padding and the neighbours. */
    @ParameterizedTest
    @ValueSource(ints = {3, 8, 20, 39})
    void truncatedInTheHeader(int size) throws IOException {
        refused(Arrays.copyOf(graph().bytes(), size), size, "the file ends after " + size
                + " bytes, inside the 40-byte .csr header: it is truncated");
    }

    @ParameterizedTest
    @ValueSource(ints = {40, 52, 60, 62, 64, SIZE - 1})
    void truncatedInTheArrays(int size) throws IOException {
        refused(Arrays.copyOf(graph().bytes(), size), size, "the file is " + size + " bytes but its header"
                + " (4 vertices, 6 arcs, 4-byte offsets) needs " + SIZE + " bytes: it is truncated");
    }

    @Test
    void bytesAfterTheNeighbours() throws IOException {
        refused(graph().trailing(8).bytes(), SIZE, "the file is " + (SIZE + 8) + " bytes but its header (4 vertices,"
                + " 6 arcs, 4-byte offsets) needs " + SIZE + " bytes: 8 bytes follow the neighbours");
    }

    @Test
    void anUnknownVersion() throws IOException {
        refused(graph().version(2).bytes(), 8, "format version 2 is not supported: this reader reads version 1");
        refused(graph().version(-1).bytes(), 8, "format version 4294967295 is not supported: this reader reads"
                + " version 1");
    }

    @Test
    void aDamagedHeaderFailsItsChecksum() throws IOException {
        byte[] bytes = graph().bytes();
        int crc = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(36);
        bytes[17] ^= 0x01; // the vertex count: 4 becomes 260
        refused(bytes, 36, String.format("header checksum 0x%08x is not 0x%08x, the CRC-32 of bytes 0..35: the"
                + " header is damaged", crc, ByteBuffer.wrap(graph().vertices(260).bytes())
                .order(ByteOrder.LITTLE_ENDIAN).getInt(36)));
        refused(graph().checksum(0).bytes(), 36, String.format("header checksum 0x00000000 is not 0x%08x, the CRC-32"
                + " of bytes 0..35: the header is damaged", crc));
    }

    @Test
    void unknownFlags() throws IOException {
        refused(graph().flags(0x80000003).bytes(), 12, "flags 0x80000003 set bits that version 1 does not define"
                + " (0x80000002); bit 0 (canonical) is the only one");
    }

    @Test
    void aVertexCountOutOfRange() throws IOException {
        refused(graph().vertices(-1).bytes(), 16, "vertex count -1 is outside 0..2147483647 (vertex ids are 32-bit)");
        refused(graph().vertices(1L << 31).bytes(), 16, "vertex count 2147483648 is outside 0..2147483647 (vertex ids"
                + " are 32-bit)");
    }

    @Test
    void aVertexCountThatDisagreesWithTheFile() throws IOException {
        refused(graph().vertices(6).bytes(), SIZE, "the file is " + SIZE + " bytes but its header (6 vertices, 6 arcs,"
                + " 4-byte offsets) needs 96 bytes: it is truncated");
        refused(graph().vertices(Integer.MAX_VALUE).bytes(), SIZE, "the file is " + SIZE + " bytes but its header"
                + " (2147483647 vertices, 6 arcs, 4-byte offsets) needs 8589934656 bytes: it is truncated");
    }

    /** One more vertex fills the padding, so the size agrees: the padding read as an offset gives the lie away. */
    @Test
    void aVertexCountThatTheSizeCannotTellFrom() throws IOException {
        refused(graph().vertices(5).bytes(), 60, "invalid CSR structure: offsets[5] is 0, less than offsets[4] = 6:"
                + " offsets must not decrease");
    }

    @Test
    void aNegativeArcCount() throws IOException {
        refused(graph().arcs(-6).bytes(), 24, "arc count -6 is negative");
    }

    @Test
    void anArcCountThatDisagreesWithTheFile() throws IOException {
        refused(graph().arcs(5).bytes(), SIZE - 4, "the file is " + SIZE + " bytes but its header (4 vertices, 5 arcs,"
                + " 4-byte offsets) needs " + (SIZE - 4) + " bytes: 4 bytes follow the neighbours");
        refused(graph().width(8).arcs(Long.MAX_VALUE / 2).bytes(), 104, "the file is 104 bytes but its header"
                + " (4 vertices, 4611686018427387903 arcs, 8-byte offsets) needs more than 9223372036854775807 bytes:"
                + " it is truncated");
    }

    /** Past 2^31 arcs, with 8-byte offsets: the header is accepted and the size it needs computed in 64 bits. */
    @Test
    void moreThan2To31ArcsWith8ByteOffsets() throws IOException {
        refused(graph().width(8).arcs((1L << 31) + 1).bytes(), 104, "the file is 104 bytes but its header (4 vertices,"
                + " 2147483649 arcs, 8-byte offsets) needs 8589934676 bytes: it is truncated");
    }

    @Test
    void anOffsetWidthOtherThan4Or8() throws IOException {
        refused(graph().width(3).bytes(), 32, "offset width 3 is not 4 or 8 bytes");
        refused(graph().width(0).bytes(), 32, "offset width 0 is not 4 or 8 bytes");
    }

    @Test
    void moreArcsThan4ByteOffsetsHold() throws IOException {
        refused(graph().arcs(1L << 31).bytes(), 24, "arc count 2147483648 does not fit the 4-byte offsets that byte 32"
                + " declares (at most 2147483647)");
    }

    @Test
    void paddingThatIsNotZero() throws IOException {
        refused(graph().padding(7).bytes(), 60, "the padding after the offsets is 07 07 07 07, must be zero bytes");
    }

    @Test
    void aFirstOffsetOtherThanZero() throws IOException {
        refused(new CsrBytes(new long[] {1, 2, 4, 6, 6}, NEIGHBORS).bytes(), 40,
                "invalid CSR structure: offsets[0] is 1, must be 0");
    }

    @Test
    void offsetsThatDecrease() throws IOException {
        refused(new CsrBytes(new long[] {0, 4, 2, 6, 6}, NEIGHBORS).bytes(), 48,
                "invalid CSR structure: offsets[2] is 2, less than offsets[1] = 4: offsets must not decrease");
        refused(new CsrBytes(new long[] {0, 4, 2, 6, 6}, NEIGHBORS).width(8).bytes(), 56,
                "invalid CSR structure: offsets[2] is 2, less than offsets[1] = 4: offsets must not decrease");
    }

    @Test
    void offsetsThatOverrunTheArcs() throws IOException {
        refused(new CsrBytes(new long[] {0, 2, 7, 6, 6}, NEIGHBORS).bytes(), 48,
                "invalid CSR structure: offsets[2] is 7, past the 6 arcs that the header declares");
        refused(new CsrBytes(new long[] {0, 2, 1L << 40, 6, 6}, NEIGHBORS).width(8).bytes(), 56,
                "invalid CSR structure: offsets[2] is 1099511627776, past the 6 arcs that the header declares");
    }

    @Test
    void aLastOffsetOtherThanTheArcCount() throws IOException {
        refused(new CsrBytes(new long[] {0, 2, 4, 5, 5}, NEIGHBORS).bytes(), 56,
                "invalid CSR structure: offsets[4] is 5, but the header declares 6 arcs");
    }

    @Test
    void neighbourIdsOutOfRange() throws IOException {
        refused(new CsrBytes(OFFSETS, new int[] {1, 2, 0, 4, 0, 1}).bytes(), 76,
                "invalid CSR structure: neighbour id 4 of arc 3 is outside 0..3");
        refused(new CsrBytes(OFFSETS, new int[] {1, 2, 0, 2, 0, -1}).width(8).bytes(), 100,
                "invalid CSR structure: neighbour id -1 of arc 5 is outside 0..3");
    }

    /** The header is checked before anything is mapped or allocated: a huge claim fails at once. */
    @Test
    void aHugeClaimFailsFast() {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> refused(graph().width(8).vertices(Integer.MAX_VALUE)
                .arcs(Long.MAX_VALUE / 8).bytes(), 104, "the file is 104 bytes but its header (2147483647 vertices,"
                + " 1152921504606846975 arcs, 8-byte offsets) needs 4611686035607257124 bytes: it is truncated"));
    }

    /** A .csr name promises the magic bytes: without them the file is refused, not read as something else. */
    @Test
    void aCsrNameWithoutTheMagicBytes() throws IOException {
        refused("0 1\n1 2\n".getBytes(StandardCharsets.US_ASCII), 0, "the file starts with 30 20 31"
                + " 0a 31 20 32 0a, not with the 8 bytes 89 43 53 52 0d 0a 1a 0a of a .csr file");
    }
}
