package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;

/**
 * The input checks, in Java ({@link CsrGraph#check()}, the JAVA backend) and in the native library
 * (every native backend), accept every symmetric multigraph (duplicate arcs, self loops, lists in
 * any order) and refuse the same graph with one arc added, removed or redirected, naming the fault.
 */
class InputCheckProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the CUDA backend is skipped in InputCheckProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    /** A symmetric multigraph as lists of arcs per vertex, each list shuffled. */
    private static List<List<Integer>> symmetric(Random random, int n, int edges) {
        List<List<Integer>> lists = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            lists.add(new ArrayList<>());
        }
        for (int e = 0; e < edges; e++) {
            int u = random.nextInt(n);
            // small ids repeat often: duplicate edges and self loops
            int v = random.nextInt(4) == 0 ? u : random.nextInt(Math.min(n, 1 + random.nextInt(n)));
            lists.get(u).add(v);
            if (u != v || random.nextBoolean()) {
                lists.get(v).add(u); // a self loop is its own reverse, once or twice
            } else {
                lists.get(u).add(u);
            }
        }
        lists.forEach(l -> Collections.shuffle(l, random));
        return lists;
    }

    private static CsrGraph wrap(Arena arena, List<List<Integer>> lists) {
        int n = lists.size();
        MemorySegment offsets = arena.allocate(ValueLayout.JAVA_INT, n + 1L);
        int arcs = lists.stream().mapToInt(List::size).sum();
        MemorySegment neighbors = arena.allocate(ValueLayout.JAVA_INT, arcs);
        int a = 0;
        for (int v = 0; v < n; v++) {
            for (int w : lists.get(v)) {
                neighbors.setAtIndex(ValueLayout.JAVA_INT, a++, w);
            }
            offsets.setAtIndex(ValueLayout.JAVA_INT, v + 1L, a);
        }
        return CsrGraph.wrap(offsets, Integer.BYTES, neighbors);
    }

    @Property(tries = 60)
    void symmetricMultigraphsPassAndOneArcOffFails(@ForAll long seed, @ForAll @IntRange(min = 1, max = 300) int n,
                                                   @ForAll @IntRange(min = 1, max = 900) int edges) {
        Random random = new Random(seed);
        List<List<Integer>> lists = symmetric(random, n, edges);
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph good = wrap(arena, lists);
            good.check();
            int[] expected = labelers.get(Backend.JAVA).label(good).toArray();
            for (ComponentLabeler labeler : labelers.values()) {
                assertArrayEquals(expected, labeler.label(good).toArray(), labeler.backend() + " labels it");
            }

            List<List<Integer>> bad = copy(lists);
            int u = random.nextInt(n);
            switch (random.nextInt(3)) {
                case 0 -> bad.get(u).add(random.nextInt(n) == u ? (u + 1) % n : random.nextInt(n));
                case 1 -> removeOne(bad, random);
                default -> redirectOne(bad, random);
            }
            if (isSymmetric(bad)) {
                return; // the change undid itself (a self loop added, say): nothing to refuse
            }
            CsrGraph asymmetric = wrap(arena, bad);
            IllegalArgumentException java = assertThrows(IllegalArgumentException.class, asymmetric::check);
            assertTrue(java.getMessage().contains("not symmetric"), java.getMessage());
            for (ComponentLabeler labeler : labelers.values()) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> labeler.label(asymmetric), labeler.backend() + " refuses the asymmetric graph");
                assertEquals(java.getMessage(), e.getMessage(), labeler.backend() + " names the fault as Java does");
            }
        }
    }

    private static List<List<Integer>> copy(List<List<Integer>> lists) {
        List<List<Integer>> copy = new ArrayList<>();
        lists.forEach(l -> copy.add(new ArrayList<>(l)));
        return copy;
    }

    private static void removeOne(List<List<Integer>> lists, Random random) {
        List<List<Integer>> nonEmpty = lists.stream().filter(l -> !l.isEmpty()).toList();
        if (!nonEmpty.isEmpty()) {
            List<Integer> l = nonEmpty.get(random.nextInt(nonEmpty.size()));
            l.remove(random.nextInt(l.size()));
        }
    }

    private static void redirectOne(List<List<Integer>> lists, Random random) {
        List<List<Integer>> nonEmpty = lists.stream().filter(l -> !l.isEmpty()).toList();
        if (!nonEmpty.isEmpty()) {
            List<Integer> l = nonEmpty.get(random.nextInt(nonEmpty.size()));
            l.set(random.nextInt(l.size()), random.nextInt(lists.size()));
        }
    }

    /** The plain definition: every arc (u, v) occurs as often as (v, u). */
    private static boolean isSymmetric(List<List<Integer>> lists) {
        Map<Long, Integer> balance = new java.util.HashMap<>();
        for (int u = 0; u < lists.size(); u++) {
            for (int v : lists.get(u)) {
                balance.merge((long) u << 32 | v, 1, Integer::sum);
                balance.merge((long) v << 32 | u, -1, Integer::sum);
            }
        }
        return balance.values().stream().allMatch(b -> b == 0);
    }
}
