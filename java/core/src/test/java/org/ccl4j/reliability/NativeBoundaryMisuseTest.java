package org.ccl4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.CsrGraph;
import org.ccl4j.EdgeList;
import org.ccl4j.Grid;
import org.ccl4j.LabelOptions;
import org.ccl4j.Labels;
import org.ccl4j.MeshLabels;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.physics.CahnHilliard;
import org.ccl4j.testing.ForkedJvm;
import org.ccl4j.testing.Misuses;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Misuses of the public API that once crashed the JVM, killed the process or answered wrongly:
 * memory used after its arena was closed (by this thread or, during a labelling, by another),
 * neighbour ids written out of range after {@link CsrGraph#wrap}, absurd thread counts, outputs
 * that alias inputs, asymmetric graphs; edge lists with ids out of range (written before a
 * labelling or by another thread during it), labels over the edges, freed edges; progress listeners
 * that throw, from the library's threads too (an exception out of an upcall ends the JVM). Each
 * scenario runs in a JVM of its own on every backend that JVM has (JAVA, CPU_SERIAL and
 * CPU_PARALLEL; CUDA with a device), so that a crash fails the
 * scenario instead of ending the test run; the test asserts that the JVM survived and that every
 * misuse ended in the exception it should.
 */
class NativeBoundaryMisuseTest {
    @ParameterizedTest
    @ValueSource(strings = {"labelsOfClosedArena", "labelsAfterTheirArenaClosed", "graphInClosedArena",
            "gridInClosedArena", "idsOutOfRangeAfterWrap", "tooManyThreads", "outputsAliasingInputs",
            "asymmetricGraph", "arenaClosedByAnotherThread", "int64LabelsMisused", "edgeListsMisused",
            "edgeIdsChangedDuringLabelling", "distancesMisused",
            "cahnHilliardMisused", "throwingProgressListener"})
    void theJvmSurvivesAndTheMisuseIsRefused(String scenario, @TempDir Path dir) throws Exception {
        ForkedJvm.Result r = ForkedJvm.run(dir, Scenarios.class, List.of("-Xmx512m"), List.of(scenario), 2,
                TimeUnit.MINUTES);
        System.out.print(r.output());
        assertTrue(r.finished(), scenario + " did not finish: " + r.describe());
        assertEquals(0, r.exitCode(), scenario + ": " + r.describe());
        assertTrue(r.output().contains("survived " + scenario + " on JAVA"), r.describe());
    }

    /**
     * The forked program: runs scenario {@code args[0]} on every backend, printing each refusal and
     * "survived SCENARIO on BACKEND"; exits 1 when a misuse was not refused as it should be.
     */
    public static final class Scenarios {
        public static void main(String[] args) {
            String scenario = args[0];
            for (Backend backend : Misuses.backends()) {
                try (ComponentLabeler labeler = ComponentLabeler.create(backend)) {
                    run(scenario, labeler);
                }
                System.out.println("survived " + scenario + " on " + backend);
            }
            Misuses.exit();
        }

        private static void run(String scenario, ComponentLabeler labeler) {
            switch (scenario) {
                case "labelsOfClosedArena" -> labelsOfClosedArena(labeler);
                case "labelsAfterTheirArenaClosed" -> labelsAfterTheirArenaClosed(labeler);
                case "graphInClosedArena" -> graphInClosedArena(labeler);
                case "gridInClosedArena" -> gridInClosedArena(labeler);
                case "idsOutOfRangeAfterWrap" -> idsOutOfRangeAfterWrap(labeler);
                case "tooManyThreads" -> tooManyThreads(labeler);
                case "outputsAliasingInputs" -> outputsAliasingInputs(labeler);
                case "asymmetricGraph" -> asymmetricGraph(labeler);
                case "arenaClosedByAnotherThread" -> arenaClosedByAnotherThread(labeler);
                case "int64LabelsMisused" -> int64LabelsMisused(labeler);
                case "edgeListsMisused" -> edgeListsMisused(labeler);
                case "edgeIdsChangedDuringLabelling" -> edgeIdsChangedDuringLabelling(labeler);
                case "distancesMisused" -> distancesMisused(labeler);
                case "cahnHilliardMisused" -> cahnHilliardMisused(labeler);
                case "throwingProgressListener" -> throwingProgressListener(labeler);
                default -> throw new IllegalArgumentException("no scenario " + scenario);
            }
        }

        /**
         * A Cahn-Hilliard field given outputs that are freed, too small, on the heap or read-only,
         * and used after it is closed; the Java backend has none.
         */
        private static void cahnHilliardMisused(ComponentLabeler labeler) {
            CahnHilliard.Parameters p = CahnHilliard.Parameters.defaults();
            if (labeler.backend() == Backend.JAVA) {
                Misuses.expect(UnsupportedOperationException.class, "Cahn-Hilliard on JAVA",
                        () -> CahnHilliard.create(8, 8, 1, p, Backend.JAVA));
                return;
            }
            CahnHilliard field = CahnHilliard.create(16, 8, 2, p, labeler.backend());
            field.init(0, 0.1, 1);
            field.step(10);
            MemorySegment freed;
            try (Arena gone = Arena.ofConfined()) {
                freed = gone.allocate(4L * 256);
            }
            MemorySegment dead = freed;
            Misuses.expect(IllegalStateException.class, "field into a freed segment", () -> field.copyField(dead));
            Misuses.expect(IllegalStateException.class, "threshold into a freed segment", () -> field.threshold(0, dead));
            Misuses.expect(IllegalStateException.class, "labels into a freed segment",
                    () -> field.label(0, MeshOptions.defaults(), dead));
            try (Arena arena = Arena.ofConfined()) {
                Misuses.expect(IllegalArgumentException.class, "field into too few floats",
                        () -> field.copyField(arena.allocate(ValueLayout.JAVA_FLOAT, 255)));
                Misuses.expect(IllegalArgumentException.class, "threshold into a heap array",
                        () -> field.threshold(0, MemorySegment.ofArray(new byte[256])));
                Misuses.expect(IllegalArgumentException.class, "labels into a read-only segment",
                        () -> field.label(0, MeshOptions.defaults(), arena.allocate(4L * 256).asReadOnly()));
                float[] nan = new float[256];
                nan[77] = Float.NaN;
                Misuses.expect(IllegalArgumentException.class, "a NaN in the field", () -> field.setField(nan));
                Misuses.check(field.label(0).foreground() > 0, "the field still labels after the refusals");
            }
            field.close();
            field.close();
            Misuses.expect(IllegalStateException.class, "a closed field", () -> field.step(1));
            Misuses.expect(IllegalStateException.class, "a closed field's domains", () -> field.label(0));
        }

        /**
         * A graph's progress listener that throws, an exception or an error, at its first call: at
         * the end of the labelling, in Java for UNION_FIND, and on CUDA from the library's threads
         * while a graph is streamed in many blocks. The labelling runs to its end, writes the labels
         * and throws what the listener threw; the listener hears nothing more.
         */
        private static void throwingProgressListener(ComponentLabeler labeler) {
            int n = 20_000;
            int[] sources = new int[n - 1];
            int[] targets = new int[n - 1];
            for (int v = 1; v < n; v++) {
                sources[v - 1] = v - 1;
                targets[v - 1] = v;
            }
            List<LabelOptions> runs = new ArrayList<>(List.of(LabelOptions.defaults(),
                    LabelOptions.defaults().withAlgorithm(Algorithm.UNION_FIND)));
            if (labeler.backend() == Backend.CUDA) {
                // the parent array and two staging buffers of a few hundred bytes; on a labeler of
                // several devices STREAMED shares the graph out, and each device also holds the
                // forest of another while the forests merge
                long merging = labeler.devices().size() > 1 ? 4L * n : 0;
                long budget = 4L * n + (n / 32 + 1) * 4L + 512 + 700 + merging;
                runs.add(LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED).withDeviceMemory(budget));
            }
            try (Arena arena = Arena.ofConfined()) {
                CsrGraph path = CsrGraph.fromEdges(arena, n, sources, targets);
                for (LabelOptions options : runs) {
                    for (Throwable planted : List.of(new IllegalStateException("planted"), new AssertionError("planted"))) {
                        String what = planted.getClass().getSimpleName() + " from the listener of "
                                + options.algorithm();
                        AtomicInteger heard = new AtomicInteger();
                        MemorySegment labels = arena.allocate(ValueLayout.JAVA_INT, n).fill((byte) -1);
                        Throwable thrown = null;
                        try {
                            labeler.label(path, options.withProgress((stage, done, total) -> {
                                heard.incrementAndGet();
                                if (planted instanceof Error e) {
                                    throw e;
                                }
                                throw (RuntimeException) planted;
                            }), labels);
                        } catch (Throwable e) {
                            thrown = e;
                        }
                        Misuses.check(thrown == planted, what + ": the labelling threw " + thrown);
                        Misuses.check(heard.get() == 1, what + ": the listener heard " + heard + " calls, not 1");
                        long written = labels.elements(ValueLayout.JAVA_INT)
                                .filter(label -> label.get(ValueLayout.JAVA_INT, 0) == 0).count();
                        Misuses.check(written == n, what + ": " + written + " of " + n + " labels written");
                        System.out.println("rethrown " + what + " after the labels");
                    }
                }
            }
        }

        /** Two components, {0, 1, 2} and {3, 4}. */
        private static CsrGraph pathsGraph(Arena arena) {
            return CsrGraph.fromEdges(arena, 5, new int[] {0, 1, 3}, new int[] {1, 2, 4});
        }

        private static void labelsOfClosedArena(ComponentLabeler labeler) {
            Arena arena = Arena.ofConfined();
            MemorySegment segment = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 0, 2, 2, 2);
            Labels labels = Labels.of(segment, 5).using(labeler);
            arena.close();
            Misuses.expect(IllegalStateException.class, "count() of Labels.of(segment) after its arena closed", labels::count);
            Misuses.expect(IllegalStateException.class, "sizes() of Labels.of(segment) after its arena closed", labels::sizes);
            Misuses.expect(IllegalStateException.class, "compact() of Labels.of(segment) after its arena closed",
                    () -> labels.compact(Labels.Order.SIZE_DESCENDING));
        }

        private static void labelsAfterTheirArenaClosed(ComponentLabeler labeler) {
            try (Arena graphArena = Arena.ofConfined()) {
                CsrGraph graph = pathsGraph(graphArena);
                Arena arena = Arena.ofConfined();
                Labels labels = labeler.label(graph, LabelOptions.defaults(), arena);
                arena.close();
                Misuses.expect(IllegalStateException.class, "sizes() after the labels' arena closed", labels::sizes);
                Misuses.expect(IllegalStateException.class, "count() after the labels' arena closed", labels::count);
                Misuses.expect(IllegalStateException.class, "members() after the labels' arena closed", labels::members);
                Misuses.expect(IllegalStateException.class, "largestComponentGraph() after the labels' arena closed",
                        () -> labels.largestComponentGraph(graph, graphArena));

                Grid grid = Grid.ofBytes(graphArena, new byte[] {1, 0, 1, 1}, 2, 2);
                Arena meshArena = Arena.ofConfined();
                MeshLabels meshLabels = labeler.label(grid, MeshOptions.defaults(), meshArena);
                meshArena.close();
                Misuses.expect(IllegalStateException.class, "count() of mesh labels after their arena closed",
                        meshLabels::count);
                Misuses.expect(IllegalStateException.class, "get() of mesh labels after their arena closed",
                        () -> meshLabels.get(0, 0, 0));
                Misuses.expect(IllegalStateException.class, "contacts() of mesh labels after their arena closed",
                        () -> meshLabels.contacts(8));
                Arena wideArena = Arena.ofConfined();
                MeshLabels wide = labeler.label(grid, MeshOptions.defaults().withWideLabels(true), wideArena);
                wideArena.close();
                Misuses.expect(IllegalStateException.class, "contacts() of int64 mesh labels after their arena closed",
                        () -> wide.contacts(8));
            }
        }

        private static void graphInClosedArena(ComponentLabeler labeler) {
            Arena arena = Arena.ofConfined();
            CsrGraph built = pathsGraph(arena);
            CsrGraph wrapped = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 2), Integer.BYTES,
                    arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0));
            arena.close();
            for (CsrGraph graph : List.of(built, wrapped)) {
                Misuses.expect(IllegalStateException.class, "label() of a graph whose arena closed", () -> labeler.label(graph));
                Misuses.expect(IllegalStateException.class, "unchecked label() of a graph whose arena closed",
                        () -> labeler.label(graph, LabelOptions.defaults().withCheckInput(false)));
            }
        }

        private static void gridInClosedArena(ComponentLabeler labeler) {
            Arena arena = Arena.ofConfined();
            Grid bytes = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1}, 2, 2);
            Grid ints = Grid.ofInts(arena, new int[] {3, 3, 0, 3}, 2, 2, 1);
            Grid region = Grid.ofInts(arena, new int[9], 3, 3, 1).region(1, 1, 2, 2);
            arena.close();
            for (Grid grid : List.of(bytes, ints, region)) {
                Misuses.expect(IllegalStateException.class, "label() of " + grid + " whose arena closed",
                        () -> labeler.label(grid));
            }
        }

        private static void idsOutOfRangeAfterWrap(ComponentLabeler labeler) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment offsets = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 2, 3, 4);
                MemorySegment neighbors = arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0, 3, 2);
                CsrGraph graph = CsrGraph.wrap(offsets, Integer.BYTES, neighbors);
                Misuses.check(labeler.label(graph).count() == 2, "the wrapped graph before the change has 2 components");
                for (int bad : new int[] {-100_000_000, -1, 4, Integer.MAX_VALUE}) {
                    neighbors.setAtIndex(ValueLayout.JAVA_INT, 2, bad);
                    Misuses.expect(IllegalArgumentException.class, "id " + bad + " written after wrap",
                            () -> labeler.label(graph));
                }
                offsets.setAtIndex(ValueLayout.JAVA_INT, 2, 4);
                Misuses.expect(IllegalArgumentException.class, "offsets made to decrease after wrap", () -> labeler.label(graph));
            }
        }

        private static void tooManyThreads(ComponentLabeler labeler) {
            try (Arena arena = Arena.ofConfined()) {
                CsrGraph graph = pathsGraph(arena);
                Grid grid = Grid.ofBytes(arena, new byte[] {1, 0, 1, 1}, 2, 2);
                // the JAVA backend's ForkJoin threads are refused beyond the native backends' limit too
                Misuses.expect(IllegalArgumentException.class, "100000 threads",
                        () -> labeler.label(graph, LabelOptions.defaults().withCpuThreads(100_000)));
                Misuses.expect(IllegalArgumentException.class, "100000 threads on a mesh",
                        () -> labeler.label(grid, MeshOptions.defaults().withCpuThreads(100_000)));
            }
        }

        private static void outputsAliasingInputs(ComponentLabeler labeler) {
            try (Arena arena = Arena.ofConfined()) {
                Grid grid = Grid.ofInts(arena, new int[] {7, 7, 8, 7, 8, 8, 7, 7, 7}, 3, 3, 1);
                MeshOptions sameValue = MeshOptions.defaults().withMode(MeshMode.SAME_VALUE);
                Misuses.expect(IllegalArgumentException.class, "mesh labels written into the grid's own cells",
                        () -> labeler.label(grid, sameValue, grid.cells()));
                MemorySegment offsets = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 2, 3, 4, 4);
                MemorySegment neighbors = arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0, 3, 2, 0);
                CsrGraph graph = CsrGraph.wrap(offsets, Integer.BYTES, neighbors.asSlice(0, 16));
                Misuses.expect(IllegalArgumentException.class, "graph labels written over the graph's neighbours",
                        () -> labeler.label(graph, LabelOptions.defaults(), neighbors));
                Misuses.expect(IllegalArgumentException.class, "graph labels written over the graph's offsets",
                        () -> labeler.label(graph, LabelOptions.defaults(), offsets));
            }
        }

        /**
         * Int64 mesh labels ({@code ccl4j_label_mesh64}) into room for ints, misaligned, over the
         * cells, or freed; and a grid past 2^31 cells over no memory, which must be refused for the
         * memory it needs before a cell is read.
         */
        private static void int64LabelsMisused(ComponentLabeler labeler) {
            MeshOptions wide = MeshOptions.defaults().withWideLabels(true);
            try (Arena arena = Arena.ofConfined()) {
                Grid grid = Grid.ofInts(arena, new int[] {7, 7, 0, 0, 0, 0, 7, 7, 7}, 3, 3, 1);
                Misuses.expect(IllegalArgumentException.class, "int64 labels into room for 9 ints",
                        () -> labeler.label(grid, wide, arena.allocate(ValueLayout.JAVA_INT, 9)));
                Misuses.expect(IllegalArgumentException.class, "int64 labels misaligned by 4 bytes",
                        () -> labeler.label(grid, wide, arena.allocate(80, 8).asSlice(4, 72)));
                MemorySegment overCells = arena.allocate(ValueLayout.JAVA_LONG, 9);
                Grid inside = Grid.wrap(overCells.asSlice(8, 36), Grid.CellType.I32, 3, 3);
                Misuses.expect(IllegalArgumentException.class, "int64 labels written over the grid's cells",
                        () -> labeler.label(inside, wide, overCells));
                Arena labelsArena = Arena.ofConfined();
                MeshLabels labels = labeler.label(grid, wide, labelsArena);
                Misuses.check(labels.count() == 2, "two clusters before the labels' arena closed");
                labelsArena.close();
                // the count and the largest cluster were counted before; a cluster's size reads a label
                Misuses.expect(IllegalStateException.class, "componentSize() of int64 labels after their arena closed",
                        () -> labels.componentSize(0));
                Misuses.expect(IllegalStateException.class, "get() of int64 labels after their arena closed",
                        () -> labels.get(0, 0, 0));
            }
            if (!java.nio.file.Files.isReadable(Path.of("/proc/meminfo"))) {
                return;  // no MemAvailable, no check: the labelling would read the cells
            }
            Grid huge = Grid.wrap(MemorySegment.NULL.reinterpret(1L << 39), Grid.CellType.U8, 8192, 8192, 8192);
            Misuses.expect(org.ccl4j.Ccl4jException.class, "labelling 8192^3 cells that are not there",
                    () -> labeler.label(huge, MeshOptions.defaults(), Arena.ofAuto()));
        }

        /**
         * Edge lists, labelled and built into graphs: ids out of range (each kind, first, last, in
         * wrapped segments and pairs), labels over the edges, edges or labels freed, a CSR
         * algorithm, absurd threads; all refused, and a good list labelled right afterwards.
         */
        private static void edgeListsMisused(ComponentLabeler labeler) {
            for (Algorithm algorithm : List.of(Algorithm.AUTO, Algorithm.UNION_FIND)) {
                LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm);
                try (Arena arena = Arena.ofConfined()) {
                    // the sources, then the targets, in one block: labels can overlap either
                    MemorySegment block = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 3, 4, 1, 2, 4, 0, 0);
                    MemorySegment sources = block.asSlice(0, 16);
                    MemorySegment targets = block.asSlice(16, 16);
                    MemorySegment pairs = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 1, 2, 3, 4, 4, 0);
                    EdgeList separate = EdgeList.wrap(5, sources, targets);
                    EdgeList interleaved = EdgeList.wrapPairs(5, pairs);
                    for (int bad : new int[] {-1, 5, Integer.MAX_VALUE, Integer.MIN_VALUE, -100_000_000}) {
                        for (long index : new long[] {0, 3}) {
                            int source = sources.getAtIndex(ValueLayout.JAVA_INT, index);
                            int target = pairs.getAtIndex(ValueLayout.JAVA_INT, 2 * index + 1);
                            sources.setAtIndex(ValueLayout.JAVA_INT, index, bad);
                            pairs.setAtIndex(ValueLayout.JAVA_INT, 2 * index + 1, bad);
                            for (EdgeList edges : List.of(separate, interleaved)) {
                                Misuses.expect(IllegalArgumentException.class, "id " + bad + " in edge " + index + " of " + edges
                                        + ", " + algorithm, () -> labeler.label(edges, options));
                                Misuses.expect(IllegalArgumentException.class, "id " + bad + " in edge " + index + " of " + edges
                                        + ", built into a graph", () -> CsrGraph.fromEdges(arena, edges));
                            }
                            sources.setAtIndex(ValueLayout.JAVA_INT, index, source);
                            pairs.setAtIndex(ValueLayout.JAVA_INT, 2 * index + 1, target);
                        }
                    }
                    Misuses.expect(IllegalArgumentException.class, "labels written over the edges' sources",
                            () -> labeler.label(separate, options, block.asSlice(0, 20)));
                    Misuses.expect(IllegalArgumentException.class, "labels written over the edges' targets",
                            () -> labeler.label(separate, options, block.asSlice(16, 20)));
                    Misuses.expect(IllegalArgumentException.class, "labels written over the pairs",
                            () -> labeler.label(interleaved, options, pairs.asSlice(8)));
                    Misuses.expect(IllegalArgumentException.class, "labels in room for 4 of 5 vertices",
                            () -> labeler.label(separate, options, arena.allocate(ValueLayout.JAVA_INT, 4)));
                    Misuses.expect(IllegalArgumentException.class, "100000 threads over edges",
                            () -> labeler.label(separate, options.withCpuThreads(100_000)));
                    Misuses.expect(IllegalArgumentException.class, "ids past the labels: 2^31-1 vertices, labels for 5",
                            () -> labeler.label(EdgeList.wrap(Integer.MAX_VALUE, sources, targets), options,
                                    arena.allocate(ValueLayout.JAVA_INT, 5)));
                    Arena labelsArena = Arena.ofConfined();
                    MemorySegment freedLabels = labelsArena.allocate(ValueLayout.JAVA_INT, 5);
                    labelsArena.close();
                    Misuses.expect(IllegalStateException.class, "labels of a closed arena",
                            () -> labeler.label(separate, options, freedLabels));
                    Misuses.check(labeler.label(separate, options).count() == 1, "the repaired list has one component");
                    Misuses.check(labeler.label(interleaved, options).count() == 1, "the repaired pairs have one component");
                }
                Arena arena = Arena.ofConfined();
                EdgeList freed = EdgeList.fromArrays(arena, 5, new int[] {0, 3}, new int[] {1, 4});
                EdgeList freedPairs = EdgeList.fromPairs(arena, 5, new int[] {0, 1, 3, 4});
                arena.close();
                for (EdgeList edges : List.of(freed, freedPairs)) {
                    Misuses.expect(IllegalStateException.class, "label() of " + edges + " whose arena closed, " + algorithm,
                            () -> labeler.label(edges, options));
                    try (Arena target = Arena.ofConfined()) {
                        Misuses.expect(IllegalStateException.class, "fromEdges of " + edges + " whose arena closed",
                                () -> CsrGraph.fromEdges(target, edges));
                    }
                }
            }
            Misuses.expect(IllegalArgumentException.class, "ECL_CC on an edge list", () -> labeler.labelEdges(2, new int[] {0},
                    new int[] {1}, LabelOptions.defaults().withAlgorithm(Algorithm.ECL_CC)));
        }

        /**
         * Another thread writes ids out of range into an edge list of the global arena (which the
         * JAVA backend reads in place, as native code does) and back, while it is labelled again
         * and again: every labelling must end in labels within range or in an
         * IllegalArgumentException, never outside the labels.
         */
        private static void edgeIdsChangedDuringLabelling(ComponentLabeler labeler) {
            int n = 100_000;
            int m = 200_000;
            // the global arena: never freed, so a list of it is read in place by every backend
            MemorySegment sources = Arena.global().allocate(ValueLayout.JAVA_INT, m);
            MemorySegment targets = Arena.global().allocate(ValueLayout.JAVA_INT, m);
            java.util.Random random = new java.util.Random(3);
            for (long e = 0; e < m; e++) {
                sources.setAtIndex(ValueLayout.JAVA_INT, e, random.nextInt(n));
                targets.setAtIndex(ValueLayout.JAVA_INT, e, random.nextInt(n));
            }
            EdgeList edges = EdgeList.wrap(n, sources, targets);
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
            Thread writer = Thread.ofPlatform().start(() -> {
                java.util.Random r = new java.util.Random(4);
                int[] bad = {-1, n, Integer.MAX_VALUE, Integer.MIN_VALUE};
                while (System.nanoTime() < until) {
                    long e = r.nextInt(m);
                    MemorySegment side = r.nextBoolean() ? sources : targets;
                    int good = side.getAtIndex(ValueLayout.JAVA_INT, e);
                    side.setAtIndex(ValueLayout.JAVA_INT, e, bad[r.nextInt(bad.length)]);
                    // held for 20 us, so that a labelling's one pass over the ids (a fraction of a
                    // millisecond) meets it often: held a spin, CPU_SERIAL at times met none in 250
                    long hold = System.nanoTime() + 20_000;
                    while (System.nanoTime() < hold) {
                        Thread.onSpinWait();
                    }
                    side.setAtIndex(ValueLayout.JAVA_INT, e, good);
                }
            });
            int labelled = 0;
            int refused = 0;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment labels = arena.allocate(ValueLayout.JAVA_INT, n);
                while (System.nanoTime() < until) {
                    for (Algorithm algorithm : List.of(Algorithm.AUTO, Algorithm.UNION_FIND)) {
                        try {
                            labeler.label(edges, LabelOptions.defaults().withAlgorithm(algorithm), labels);
                            labelled++;
                            for (long v = 0; v < n; v++) {
                                int l = labels.getAtIndex(ValueLayout.JAVA_INT, v);
                                if (l < 0 || l > v) {
                                    Misuses.check(false, "vertex " + v + " labelled " + l + " while ids changed");
                                    break;
                                }
                            }
                        } catch (IllegalArgumentException e) {
                            refused++;
                        }
                    }
                }
            }
            join(writer);
            System.out.println("edge ids changed during labellings on " + labeler.backend() + ": " + labelled
                    + " labelled, " + refused + " refused");
            Misuses.check(refused > 0, "no labelling saw an id out of range on " + labeler.backend());
        }

        /**
         * Distances (a search from every vertex follows every arc): a graph whose arena closed, ids
         * written out of range and offsets made to decrease after wrap, an asymmetric graph.
         */
        private static void distancesMisused(ComponentLabeler labeler) {
            Arena closed = Arena.ofConfined();
            CsrGraph gone = pathsGraph(closed);
            closed.close();
            Misuses.expect(IllegalStateException.class, "distances() of a graph whose arena closed", () -> labeler.distances(gone));
            Misuses.expect(IllegalStateException.class, "distanceMatrix() of a graph whose arena closed",
                    () -> labeler.distanceMatrix(gone));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment offsets = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 2, 3, 4);
                MemorySegment neighbors = arena.allocateFrom(ValueLayout.JAVA_INT, 1, 0, 3, 2);
                CsrGraph graph = CsrGraph.wrap(offsets, Integer.BYTES, neighbors);
                Misuses.check(labeler.distances(graph).count() == 2, "the wrapped graph before the change has 2 components");
                for (int bad : new int[] {-100_000_000, -1, 4, Integer.MAX_VALUE}) {
                    neighbors.setAtIndex(ValueLayout.JAVA_INT, 2, bad);
                    Misuses.expect(IllegalArgumentException.class, "distances(), id " + bad + " written after wrap",
                            () -> labeler.distances(graph));
                    Misuses.expect(IllegalArgumentException.class, "distanceMatrix(), id " + bad + " written after wrap",
                            () -> labeler.distanceMatrix(graph));
                }
                neighbors.setAtIndex(ValueLayout.JAVA_INT, 2, 3);
                offsets.setAtIndex(ValueLayout.JAVA_INT, 2, 4);
                Misuses.expect(IllegalArgumentException.class, "distances(), offsets made to decrease after wrap",
                        () -> labeler.distances(graph));
                CsrGraph oneWay = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 2, 2, 3), Integer.BYTES,
                        arena.allocateFrom(ValueLayout.JAVA_INT, 1, 2, 2));
                Misuses.expect(IllegalArgumentException.class, "distances() of an asymmetric graph", () -> labeler.distances(oneWay));
            }
        }

        private static void asymmetricGraph(ComponentLabeler labeler) {
            try (Arena arena = Arena.ofConfined()) {
                // arcs 0 -> 1, 1 -> 2 and 3 -> 2, none of them reversed
                CsrGraph wrapped = CsrGraph.wrap(arena.allocateFrom(ValueLayout.JAVA_INT, 0, 1, 2, 2, 3), Integer.BYTES,
                        arena.allocateFrom(ValueLayout.JAVA_INT, 1, 2, 2));
                CsrGraph copied = CsrGraph.fromArrays(arena, new int[] {0, 1, 2, 2, 3}, new int[] {1, 2, 2});
                for (Algorithm algorithm : Algorithm.values()) {
                    LabelOptions options = LabelOptions.defaults().withAlgorithm(algorithm);
                    for (CsrGraph graph : List.of(wrapped, copied)) {
                        Misuses.expect(IllegalArgumentException.class, "an asymmetric graph, " + algorithm, () -> {
                            try {
                                labeler.label(graph, options);
                            } catch (UnsupportedOperationException notOnThisBackend) {
                                throw new IllegalArgumentException("(" + algorithm + " does not run here)");
                            }
                        });
                    }
                }
            }
        }

        /**
         * Threads label graphs and edge lists held in shared arenas while another closes those
         * arenas: a close during a native call fails (the call holds the arena), a labelling after
         * it throws IllegalStateException, and every labelling that returns is right.
         */
        private static void arenaClosedByAnotherThread(ComponentLabeler ignored) {
            Backend backend = ignored.backend();
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
            AtomicInteger labelled = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try (ComponentLabeler labeler = ComponentLabeler.create(backend)) {
                        while (System.nanoTime() < until) {
                            labelWhileClosing(labeler, seed, labelled, refused);
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                join(t);
            }
            System.out.println("arenas closed during labellings on " + backend + ": " + labelled + " labelled, "
                    + refused + " refused");
            Misuses.check(labelled.get() + refused.get() > 0, "no labelling ran on " + backend);
        }

        private static void labelWhileClosing(ComponentLabeler labeler, int seed, AtomicInteger labelled,
                                              AtomicInteger refused) {
            Arena arena = Arena.ofShared();
            int n = 20_000 + seed;
            int[] sources = new int[n - 1];
            int[] targets = new int[n - 1];
            for (int v = 0; v + 1 < n; v++) {
                sources[v] = v;
                targets[v] = v + 1;
            }
            // odd seeds label the edge list itself, even ones its graph
            CsrGraph graph = seed % 2 == 0 ? CsrGraph.fromEdges(arena, n, sources, targets) : null;
            EdgeList edges = EdgeList.fromArrays(arena, n, sources, targets);
            Thread closer = Thread.ofPlatform().start(closeSoon(arena));
            try {
                Labels labels = graph != null ? labeler.label(graph, LabelOptions.defaults(), arena)
                        : labeler.label(edges, LabelOptions.defaults(), arena);
                long count = labels.count();
                Misuses.check(count == 1, "a path labelled while its arena was being closed has " + count + " components");
                labelled.incrementAndGet();
            } catch (IllegalStateException e) {
                refused.incrementAndGet();
            }
            join(closer);
        }

        /** Closes {@code arena} as soon as it can: a close during a native call throws, so it retries. */
        private static Runnable closeSoon(Arena arena) {
            return () -> {
                while (true) {
                    try {
                        arena.close();
                        return;
                    } catch (IllegalStateException stillInUse) {
                        Thread.onSpinWait();
                    }
                }
            };
        }

        private static void join(Thread t) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
