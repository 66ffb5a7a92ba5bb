package org.ccl4j.io;

import static org.ccl4j.io.TestSupport.assertLists;
import static org.ccl4j.io.TestSupport.lists;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.ccl4j.CsrGraph;
import org.ccl4j.GraphBuilder;

/**
 * Any graph written as {@code .csr}, with 4- or 8-byte offsets, reads back as the graph that
 * {@link GraphReader} makes of its arcs: the same lists, in place, when they are canonical (and the
 * file is flagged so), rebuilt when they are not; and a {@code .csr} file converted to any other
 * format and back is the file it was.
 */
class CsrRoundTripProperties {
    private static Path dir;

    @BeforeContainer
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("csr-round-trip");
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

    /** Some arcs: the vertex count, then pairs of ids below it. */
    record Arcs(int vertices, List<int[]> arcs) {
        @Override
        public String toString() {
            return vertices + " vertices, arcs " + arcs.stream().map(Arrays::toString).toList();
        }
    }

    @Provide
    Arbitrary<Arcs> arcs() {
        return Arbitraries.integers().between(0, 40).flatMap(n -> n == 0
                ? Arbitraries.just(new Arcs(0, List.of()))
                : Combinators.combine(Arbitraries.integers().between(0, n - 1), Arbitraries.integers().between(0, n - 1))
                        .as((u, v) -> new int[] {u, v}).list().ofMaxSize(120).map(list -> new Arcs(n, list)));
    }

    /** The canonical graph of the arcs, as every reader makes it. */
    private static CsrGraph canonical(Arcs arcs, Arena arena) {
        GraphBuilder builder = new GraphBuilder().vertexCount(arcs.vertices());
        arcs.arcs().forEach(a -> builder.addEdge(a[0], a[1]));
        return builder.build(arena);
    }

    /** The arcs as they come, each list in the order given: repeats, self loops, missing reverses and all. */
    private static CsrGraph asGiven(Arcs arcs, boolean wide, Arena arena) {
        int n = arcs.vertices();
        long[] offsets = new long[n + 1];
        arcs.arcs().forEach(a -> offsets[a[0] + 1]++);
        Arrays.parallelPrefix(offsets, Long::sum);
        int[] neighbors = new int[arcs.arcs().size()];
        long[] fill = offsets.clone();
        arcs.arcs().forEach(a -> neighbors[(int) fill[a[0]]++] = a[1]);
        return wrap(offsets, neighbors, wide, arena);
    }

    private static CsrGraph wrap(long[] offsets, int[] neighbors, boolean wide, Arena arena) {
        MemorySegment o = wide ? arena.allocateFrom(ValueLayout.JAVA_LONG, offsets)
                : arena.allocateFrom(ValueLayout.JAVA_INT, Arrays.stream(offsets).mapToInt(x -> (int) x).toArray());
        return CsrGraph.wrap(o, wide ? Long.BYTES : Integer.BYTES,
                arena.allocate(Math.max(4, 4L * neighbors.length), 4).asSlice(0, 4L * neighbors.length)
                        .copyFrom(MemorySegment.ofArray(neighbors)));
    }

    /** The neighbours of {@code g}, list after list. */
    private static int[] neighbors(CsrGraph g) {
        return Arrays.stream(lists(g)).flatMapToInt(Arrays::stream).toArray();
    }

    /** The offsets of {@code g} as longs. */
    private static long[] offsets(CsrGraph g) {
        long[] offsets = new long[g.vertexCount() + 1];
        Arrays.setAll(offsets, v -> g.offset(v));
        return offsets;
    }

    @Property(tries = 200)
    void aCanonicalGraphReadsBackInPlace(@ForAll("arcs") Arcs arcs, @ForAll boolean wide) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph built = canonical(arcs, arena);
            CsrGraph written = wrap(offsets(built), neighbors(built), wide, arena);
            Path file = dir.resolve("canonical.csr");
            GraphWriter.write(written, file, GraphFormat.AUTO);
            assertEquals(1, Files.readAllBytes(file)[12], "the canonical flag");
            CsrGraph read = GraphReader.read(file, arena).graph();
            assertEquals(wide ? 8 : 4, read.offsetBytes());
            assertTrue(read.neighbors().isMapped());
            assertLists(lists(built), read);
        }
    }

    /**
     * Arcs as they come are written as they are, flagged exactly when they are canonical already
     * (the reader's lists equal to the builder's), and read back as the builder's graph.
     */
    @Property(tries = 300)
    void anyArcsReadBackAsTheirCanonicalGraph(@ForAll("arcs") Arcs arcs, @ForAll boolean wide) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph given = asGiven(arcs, wide, arena);
            int[][] expected = lists(canonical(arcs, arena));
            Path file = dir.resolve("any.csr");
            GraphWriter.write(given, file, GraphFormat.CSR);
            byte[] bytes = Files.readAllBytes(file);
            boolean alreadyCanonical = Arrays.deepEquals(expected, lists(given));
            assertEquals(alreadyCanonical ? 1 : 0, bytes[12], "the canonical flag");
            assertArrayEquals(new CsrBytes(offsets(given), neighbors(given)).width(wide ? 8 : 4)
                    .flags(alreadyCanonical ? 1 : 0).bytes(), bytes);
            assertLists(expected, GraphReader.read(file, arena).graph());
        }
    }

    @Provide
    Arbitrary<GraphFormat> otherFormats() {
        return Arbitraries.of(GraphFormat.EGR, GraphFormat.MTX, GraphFormat.DIMACS, GraphFormat.SNAP, GraphFormat.EDGES);
    }

    /** What {@code ccl4j convert} does both ways: .csr to another format, then back to .csr. */
    @Property(tries = 200)
    void aCsrFileConvertsToAnotherFormatAndBack(@ForAll("arcs") Arcs arcs, @ForAll("otherFormats") GraphFormat format)
            throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Path csr = dir.resolve("there.csr");
            GraphWriter.write(canonical(arcs, arena), csr, GraphFormat.CSR);
            Path other = dir.resolve("other");
            GraphWriter.write(GraphReader.read(csr, arena).graph(), other, format);
            // ids kept: SNAP would renumber them by first appearance
            CsrGraph back = GraphReader.read(other, format, new ReadOptions(true), arena).graph();
            Path again = dir.resolve("back.csr");
            GraphWriter.write(back, again, GraphFormat.AUTO);
            assertArrayEquals(Files.readAllBytes(csr), Files.readAllBytes(again), format.formatName());
        }
    }
}
