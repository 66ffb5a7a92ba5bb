package org.ccl4j;

import org.ccl4j.testing.Oracle;
import org.ccl4j.testing.BackendLabelers;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The book-keeping of {@link Labels} on every backend against a straightforward computation on
 * random labellings: canonical and arbitrary labels, -1 entries, one huge component, all
 * singletons, empty arrays. CUDA takes part when a device is present (else a notice is printed).
 */
class LabelBookkeepingProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the CUDA backend is skipped in LabelBookkeepingProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    /** A labelling described by how it was drawn, so that failures are readable. */
    record Labelling(String kind, int n, int groups, int holesPercent, long seed) {
        int[] labels() {
            SplittableRandom random = new SplittableRandom(seed);
            int[] l = new int[n];
            switch (kind) {
                case "singletons" -> Arrays.setAll(l, i -> i);
                case "reversed singletons" -> Arrays.setAll(l, i -> n - 1 - i);
                case "huge" -> Arrays.fill(l, n / 2);
                default -> {
                    int[] name = new int[Math.max(groups, 1)];
                    Arrays.fill(name, -1);
                    int[] group = new int[n];
                    for (int i = 0; i < n; i++) {
                        group[i] = random.nextInt(Math.max(groups, 1));
                    }
                    if (kind.equals("canonical")) {
                        for (int i = 0; i < n; i++) {
                            if (name[group[i]] < 0) {
                                name[group[i]] = i;
                            }
                        }
                    } else {
                        int[] values = n == 0 ? new int[0] : random.ints(0, n).distinct().limit(Math.min(groups, n)).toArray();
                        for (int g = 0; g < values.length; g++) {
                            name[g] = values[g];
                        }
                    }
                    for (int i = 0; i < n; i++) {
                        l[i] = name[group[i]];
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (random.nextInt(100) < holesPercent) {
                    l[i] = -1;
                }
            }
            return l;
        }
    }

    @Provide
    Arbitrary<Labelling> labellings() {
        return Combinators.combine(
                Arbitraries.of("canonical", "arbitrary", "singletons", "reversed singletons", "huge"),
                Arbitraries.integers().between(0, 3000), Arbitraries.integers().between(1, 400),
                Arbitraries.of(0, 0, 5, 50, 100), Arbitraries.longs()).as(Labelling::new);
    }

    // ---- the straightforward computation ------------------------------------------------------------

    record Expected(List<int[]> byMember, List<int[]> bySize, long labelled) {
        // each entry: {label, size, first member}
        List<int[]> in(Labels.Order order) {
            return order == Labels.Order.SMALLEST_MEMBER ? byMember : bySize;
        }
    }

    static Expected expect(int[] labels) {
        TreeMap<Integer, int[]> perLabel = new TreeMap<>();
        long labelled = 0;
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] >= 0) {
                int index = i;
                perLabel.computeIfAbsent(labels[i], l -> new int[] {l, 0, index})[1]++;
                labelled++;
            }
        }
        List<int[]> byMember = new ArrayList<>(perLabel.values());
        List<int[]> bySize = new ArrayList<>(perLabel.values());
        byMember.sort(Comparator.comparingInt(c -> c[2]));
        bySize.sort(Comparator.<int[]>comparingInt(c -> -c[1]).thenComparingInt(c -> c[0]));
        return new Expected(byMember, bySize, labelled);
    }

    static int[] ints(MemorySegment s) {
        return s.byteSize() == 0 ? new int[0] : s.toArray(ValueLayout.JAVA_INT);
    }

    static void checkAll(Labels labels, int[] array, String what) {
        Expected e = expect(array);
        int k = e.byMember().size();
        assertEquals(k, labels.count(), what + ": count");
        LabelSummary s = labels.summary();
        assertEquals(new LabelSummary(array.length, e.labelled(), k, k == 0 ? 0 : e.bySize().get(0)[1],
                k == 0 ? -1 : e.bySize().get(0)[0], k == 0 ? 0 : e.bySize().get(k - 1)[1]), s, what + ": summary");
        for (Labels.Order order : Labels.Order.values()) {
            String w = what + " in " + order;
            List<int[]> expected = e.in(order);
            assertArrayEquals(expected.stream().mapToInt(c -> c[1]).toArray(), ints(labels.sizes(order)), w + ": sizes");
            assertArrayEquals(expected.stream().mapToInt(c -> c[0]).toArray(), ints(labels.componentLabels(order)),
                    w + ": labels");
            assertEquals(expected.stream().map(c -> new Component(c[0], c[1], null)).toList(),
                    labels.components(order).toList(), w + ": components");
            int[] position = new int[array.length];
            for (int p = 0; p < k; p++) {
                position[expected.get(p)[0]] = p;
            }
            int[] compact = Arrays.stream(array).map(l -> l < 0 ? -1 : position[l]).toArray();
            assertArrayEquals(compact, labels.compact(order).toArray(), w + ": compaction");
            MemberLists members = labels.members(order);
            assertEquals(k, members.count(), w + ": member lists");
            for (int p = 0; p < k; p++) {
                Component c = members.component(p);
                int label = expected.get(p)[0];
                int[] want = java.util.stream.IntStream.range(0, array.length).filter(i -> array[i] == label).toArray();
                assertEquals(label, c.label(), w + ": member list " + p);
                assertArrayEquals(want, c.memberArray(), w + ": members of " + label);
            }
        }
        assertEquals(e.bySize().subList(0, Math.min(3, k)).stream().map(c -> new Component(c[0], c[1], null)).toList(),
                labels.largest(3), what + ": three largest");
        assertArrayEquals(ints(labels.sizes(Labels.Order.SMALLEST_MEMBER)), ints(labels.sizes()), what + ": sizes()");

        TreeMap<Integer, Integer> exact = new TreeMap<>();
        TreeMap<Integer, Integer> log2 = new TreeMap<>();
        for (int[] c : e.byMember()) {
            exact.merge(c[1], 1, Integer::sum);
            log2.merge(Integer.highestOneBit(c[1]), 1, Integer::sum);
        }
        for (int b = 1; k > 0 && b <= e.bySize().get(0)[1] && b > 0; b *= 2) {
            log2.putIfAbsent(b, 0);
        }
        checkHistogram(exact, labels.histogram(), what + ": exact histogram");
        checkHistogram(log2, labels.histogram(Histogram.Binning.LOG2), what + ": log2 histogram");

        Map<Integer, Integer> sizeOf = new TreeMap<>();
        e.byMember().forEach(c -> sizeOf.put(c[0], c[1]));
        int[] filtered = Arrays.stream(array).map(l -> l >= 0 && sizeOf.get(l) >= 2 && sizeOf.get(l) <= 10 ? l : -1)
                .toArray();
        assertArrayEquals(filtered, labels.filter(2, 10).toArray(), what + ": filter 2..10");
        if (k > 0) {
            int largest = e.bySize().get(0)[0];
            int[] want = java.util.stream.IntStream.range(0, array.length).filter(i -> array[i] == largest).toArray();
            assertArrayEquals(want, ints(labels.largestComponent()), what + ": largest component");
        } else {
            assertEquals(0, labels.largestComponent().byteSize(), what + ": no largest component");
        }
    }

    static void checkHistogram(TreeMap<Integer, Integer> expected, Histogram h, String what) {
        assertArrayEquals(expected.keySet().stream().mapToInt(Integer::intValue).toArray(), h.sizes(), what + " sizes");
        assertArrayEquals(expected.values().stream().mapToInt(Integer::intValue).toArray(), h.counts(),
                what + " counts");
    }

    static Labels wrap(int[] array, Arena arena, ComponentLabeler labeler) {
        MemorySegment s = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, array.length));
        MemorySegment.copy(array, 0, s, ValueLayout.JAVA_INT, 0, array.length);
        return Labels.of(s, array.length).using(labeler);
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void everyOperationOnEveryBackendMatchesAStraightforwardComputation(@ForAll("labellings") Labelling labelling) {
        int[] array = labelling.labels();
        try (Arena arena = Arena.ofConfined()) {
            for (var entry : labelers.entrySet()) {
                checkAll(wrap(array, arena, entry.getValue()), array, entry.getKey() + " on " + labelling);
            }
        }
    }

    @Example
    void largeArraysTakeTheParallelPaths() {
        int n = 300_000;
        List<int[]> cases = List.of(new Labelling("huge", n, 1, 0, 1).labels(),
                new Labelling("singletons", n, 1, 5, 2).labels(), new Labelling("arbitrary", n, 5000, 20, 3).labels());
        try (Arena arena = Arena.ofConfined()) {
            for (int[] array : cases) {
                for (Backend b : List.of(Backend.CPU_PARALLEL, Backend.CUDA)) {
                    if (labelers.containsKey(b)) {
                        Labels labels = wrap(array, arena, labelers.get(b));
                        Expected e = expect(array);
                        assertEquals(e.byMember().size(), labels.count(), b + ": count");
                        assertArrayEquals(e.bySize().stream().mapToInt(c -> c[1]).toArray(),
                                ints(labels.sizes(Labels.Order.SIZE_DESCENDING)), b + ": sizes");
                    }
                }
            }
        }
    }

    @Example
    void emptyLabelsHaveNoComponents() {
        try (Arena arena = Arena.ofConfined()) {
            for (ComponentLabeler labeler : labelers.values()) {
                checkAll(wrap(new int[0], arena, labeler), new int[0], labeler.backend() + ": empty");
            }
        }
    }

    @Example
    void labelsOutOfRangeAreReportedWithTheirIndex() {
        try (Arena arena = Arena.ofConfined()) {
            for (ComponentLabeler labeler : labelers.values()) {
                for (int bad : new int[] {-2, 6, Integer.MAX_VALUE}) {
                    Labels labels = wrap(new int[] {0, 0, -1, bad, 1, bad}, arena, labeler);
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, labels::summary);
                    assertTrue(e.getMessage().contains("entry 3") && e.getMessage().contains(Integer.toString(bad)),
                            labeler.backend() + ": " + e.getMessage());
                }
            }
        }
    }

    @Example
    void theExistingStatisticsSkipUnlabelledEntries() {
        try (Arena arena = Arena.ofConfined()) {
            Labels labels = wrap(new int[] {-1, 1, 1, -1, 4, -1}, arena, labelers.get(Backend.CPU_SERIAL));
            assertEquals(2, labels.count());
            assertEquals(2, labels.largestComponentSize());
            assertEquals(1, labels.largestComponentLabel());
            assertEquals(0, labels.componentSize(0));
            assertEquals(1, labels.componentSize(4));
        }
    }

    @Example
    void theLargestComponentsSubgraphMatchesTheGraph() {
        try (Arena arena = Arena.ofConfined()) {
            // components {0,1,2,3} (a path with a chord) and {4,5}; 6 alone
            CsrGraph g = CsrGraph.fromEdges(arena, 7, new int[] {0, 1, 2, 0, 4}, new int[] {1, 2, 3, 2, 5});
            for (ComponentLabeler labeler : labelers.values()) {
                Labels labels = labeler.label(g);
                assertArrayEquals(new int[] {0, 1, 2, 3}, ints(labels.largestComponent()));
                CsrGraph sub = labels.largestComponentGraph(g, arena);
                assertEquals(4, sub.vertexCount(), labeler.backend() + ": subgraph vertices");
                assertEquals(g.offset(4), sub.arcCount(), labeler.backend() + ": subgraph arcs");
                for (int v = 0; v < 4; v++) {
                    for (long a = 0; a < g.degree(v); a++) {
                        assertEquals(g.neighbor(g.offset(v) + a), sub.neighbor(sub.offset(v) + a));
                    }
                }
            }
        }
    }

    @Example
    void statisticsOfLabelsLeftOnTheDevice() {
        ComponentLabeler cuda = labelers.get(Backend.CUDA);
        if (cuda == null) {
            System.out.println("NOTICE: no CUDA device present - statistics of device-resident labels not tested");
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph g = CsrGraph.fromEdges(arena, 9, new int[] {0, 1, 4, 5, 7}, new int[] {3, 3, 5, 6, 8});
            DeviceGraph resident = cuda.upload(g);
            cuda.label(resident, LabelOptions.defaults(), null);
            Labels onDevice = cuda.deviceLabels();
            assertTrue(onDevice.isOnDevice());
            int[] expected = Oracle.labels(g);
            checkAll(onDevice, expected, "labels on the device");
            assertThrows(IllegalStateException.class, () -> onDevice.get(0));
            cuda.label(resident, LabelOptions.defaults(), null);
            assertThrows(IllegalStateException.class, onDevice::histogram, "replaced by a later labelling");
            resident.close();
        }
    }
}
