package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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

import org.ccl4j.testing.BackendLabelers;

/**
 * {@link MeshLabels#contacts} on every backend (the labels made by that backend, int32 and int64)
 * against a straightforward count here: every cell against its whole neighbourhood, each touching
 * pair of cells seen from both ends and halved. Grids of a few labels in same-value mode (touching
 * clusters of different values) and in foreground mode counted with a wider stencil than they were
 * labelled with (clusters that meet at edges and corners only). CUDA takes part when a device is
 * present (else a notice is printed).
 */
class ContactsProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the CUDA backend is skipped in ContactsProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    /** A grid and how it is labelled and counted, described by how it was drawn. */
    record Case(int width, int height, int depth, int values, boolean sameValue, int periodicBits, int contactChoice,
                boolean wide, long seed) {
        boolean threeD() {
            return depth > 1;
        }

        int[] cells() {
            SplittableRandom random = new SplittableRandom(seed);
            int[] cells = new int[width * height * depth];
            // runs along x, so that clusters are larger than a cell
            for (int i = 0; i < cells.length; i++) {
                cells[i] = i > 0 && random.nextInt(3) > 0 ? cells[i - 1] : random.nextInt(values);
            }
            return cells;
        }

        MeshOptions options() {
            return MeshOptions.defaults().withMode(sameValue ? MeshMode.SAME_VALUE : MeshMode.FOREGROUND)
                    .withPeriodic((periodicBits & 1) != 0, (periodicBits & 2) != 0, (periodicBits & 4) != 0)
                    .withWideLabels(wide);
        }

        /** The contacts' connectivity: any that fits in same-value mode, wider than the labelling's otherwise. */
        int connectivity() {
            int[] choices = threeD() ? new int[] {0, 6, 18, 26} : new int[] {0, 4, 8, 6, 18, 26};
            int c = choices[contactChoice % choices.length];
            return sameValue ? c : threeD() ? 18 + 8 * (contactChoice % 2) : 8;
        }

        boolean periodic(int axis) {
            return (periodicBits & (1 << axis)) != 0;
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        // the periodic axes and the contacts' connectivity in one draw: jqwik combines at most 8
        return Combinators.combine(Arbitraries.integers().between(1, 9), Arbitraries.integers().between(1, 9),
                Arbitraries.of(1, 1, 2, 5), Arbitraries.integers().between(1, 5), Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 8 * 12 - 1), Arbitraries.of(true, false), Arbitraries.longs())
                .as((w, h, d, values, same, stencil, wide, seed) -> new Case(w, h, d, values, same, stencil % 8,
                        stencil / 8, wide, seed));
    }

    /** pair -> {contacts, x, y, z faces}, from every cell's whole neighbourhood. */
    static TreeMap<List<Long>, long[]> expected(MeshLabels labels, Case c) {
        int connectivity = c.connectivity() == 0 ? (c.threeD() ? 6 : 4) : c.connectivity();
        if (!c.threeD()) {
            connectivity = connectivity == 4 || connectivity == 6 ? 4 : 8;  // the planar stencils of a single layer
        }
        int[] extent = {c.width(), c.height(), c.depth()};
        TreeMap<List<Long>, long[]> rows = new TreeMap<>((p, q) -> p.get(0).equals(q.get(0))
                ? Long.compare(p.get(1), q.get(1)) : Long.compare(p.get(0), q.get(0)));
        for (int z = 0; z < c.depth(); z++) {
            for (int y = 0; y < c.height(); y++) {
                for (int x = 0; x < c.width(); x++) {
                    long a = labels.get(x, y, z);
                    for (int dz = -1; dz <= 1; dz++) {
                        for (int dy = -1; dy <= 1; dy++) {
                            for (int dx = -1; dx <= 1; dx++) {
                                int nonzero = (dx != 0 ? 1 : 0) + (dy != 0 ? 1 : 0) + (dz != 0 ? 1 : 0);
                                boolean in = switch (connectivity) {
                                    case 4 -> dz == 0 && nonzero == 1;
                                    case 8 -> dz == 0 && nonzero > 0;
                                    case 6 -> nonzero == 1;
                                    case 18 -> nonzero == 1 || nonzero == 2;
                                    default -> nonzero > 0;
                                };
                                int[] p = {x + dx, y + dy, z + dz};
                                boolean inside = true;
                                for (int axis = 0; axis < 3; axis++) {
                                    if (p[axis] < 0 || p[axis] >= extent[axis]) {
                                        inside &= c.periodic(axis);
                                        p[axis] = Math.floorMod(p[axis], extent[axis]);
                                    }
                                }
                                if (!in || !inside) {
                                    continue;
                                }
                                long b = labels.get(p[0], p[1], p[2]);
                                if (a < 0 || b < 0 || a == b) {
                                    continue;
                                }
                                long[] row = rows.computeIfAbsent(List.of(Math.min(a, b), Math.max(a, b)),
                                        k -> new long[4]);
                                row[0]++;
                                if (nonzero == 1) {
                                    row[dx != 0 ? 1 : dy != 0 ? 2 : 3]++;
                                }
                            }
                        }
                    }
                }
            }
        }
        rows.values().forEach(r -> {
            for (int i = 0; i < r.length; i++) {
                r[i] /= 2;  // each contact was seen from both cells
            }
        });
        return rows;
    }

    static void check(Contacts got, TreeMap<List<Long>, long[]> want, boolean threeD, String what) {
        assertEquals(want.size(), got.size(), what + ": pairs");
        int r = 0;
        double wx = 0.5;
        double wy = 3;
        double wz = 1.25;
        for (var e : want.entrySet()) {
            String row = what + ", row " + r;
            assertEquals(e.getKey(), List.of(got.first(r), got.second(r)), row);
            long[] c = e.getValue();
            assertArrayEquals(c, new long[] {got.contacts(r), got.xFaces(r), got.yFaces(r), got.zFaces(r)}, row);
            double area = threeD ? c[1] * wy * wz + c[2] * wx * wz + c[3] * wx * wy : c[1] * wy + c[2] * wx;
            assertEquals(area, got.area(r, wx, wy, wz), 1e-9, row + ": area");
            assertEquals(c[1] + c[2] + c[3], got.area(r), 0, row + ": unit area");
            assertEquals(r, got.row(got.second(r), got.first(r)), row + ": found by its pair");
            r++;
        }
    }

    @Property(tries = 80, edgeCases = EdgeCasesMode.NONE)
    void everyBackendCountsTheContactsOfAStraightforwardWalk(@ForAll("cases") Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.ofInts(arena, c.cells(), c.width(), c.height(), c.depth());
            for (var entry : labelers.entrySet()) {
                MeshLabels labels = entry.getValue().label(grid, c.options(), arena);
                Contacts contacts = labels.contacts(c.connectivity(), c.periodic(0), c.periodic(1), c.periodic(2));
                check(contacts, expected(labels, c), c.threeD(), entry.getKey() + " on " + c);
            }
        }
    }

    /** Labels of a shared arena: the JVM engine counts them on several threads (a confined arena's on one). */
    @Example
    void aLargerVolumeTakesTheParallelPaths() {
        Case c = new Case(61, 47, 33, 7, true, 4, 3, false, 11);
        try (Arena arena = Arena.ofShared()) {
            Grid grid = Grid.ofInts(arena, c.cells(), c.width(), c.height(), c.depth());
            TreeMap<List<Long>, long[]> want = null;
            for (var entry : labelers.entrySet()) {
                MeshLabels labels = entry.getValue().label(grid, c.options(), arena);
                want = want == null ? expected(labels, c) : want;  // canonical labels agree across backends
                check(labels.contacts(26, false, false, true), want, true, entry.getKey() + " large");
            }
            assertTrue(want.size() > 1000, "a volume of many touching clusters: " + want.size());
        }
    }

    /**
     * 0 1
     * 2 3: faces across x (0-1, 2-3) and y (0-2, 1-3), corners (0-3, 1-2), labels of the caller's.
     */
    @Example
    void aHandCountedSquare() {
        MeshLabels labels = new MeshLabels(2, 2, 1, MemorySegment.ofArray(new int[] {0, 1, 2, 3}), null);
        Contacts eight = labels.contacts(8);
        assertEquals(6, eight.size());
        assertEquals(-1, eight.row(0, 0));
        int corner = eight.row(3, 0);
        assertEquals(1, eight.contacts(corner));
        assertEquals(0, eight.area(corner, 2, 2, 2));
        int across = eight.row(0, 1);
        assertEquals(7.0, eight.area(across, 5, 7, 11), "a face across x in 2D is wy long");
        assertEquals(4, labels.contacts(4).size());
        assertEquals(4, labels.contacts(0).size());
        assertEquals(8, labels.contacts(26).connectivity());
    }

    @Example
    void theFirstBadLabelIsNamedWhicheverThreadFindsIt() {
        try (Arena arena = Arena.ofShared()) {
            int w = 50;
            int h = 400;
            MemorySegment values = arena.allocate(ValueLayout.JAVA_INT, (long) w * h);
            for (int i = 0; i < w * h; i++) {
                values.setAtIndex(ValueLayout.JAVA_INT, i, i / 7 * 7);
            }
            values.setAtIndex(ValueLayout.JAVA_INT, 9_000, -5);
            values.setAtIndex(ValueLayout.JAVA_INT, 19_000, w * h);
            for (var entry : labelers.entrySet()) {
                MeshLabels labels = new MeshLabels(w, h, 1, Integer.BYTES, values, null, entry.getValue().engine());
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> labels.contacts(8));
                assertTrue(e.getMessage().contains("entry 9000 has label -5"), entry.getKey() + ": " + e.getMessage());
            }
        }
    }

    @Example
    void badRequestsAreRefused() {
        MeshLabels volume = new MeshLabels(2, 2, 2, MemorySegment.ofArray(new int[8]), null);
        assertThrows(IllegalArgumentException.class, () -> volume.contacts(8));
        assertThrows(IllegalArgumentException.class, () -> volume.contacts(12));
        try (Arena arena = Arena.ofConfined()) {
            for (var entry : labelers.entrySet()) {
                MemorySegment bad = arena.allocateFrom(ValueLayout.JAVA_INT, 0, 0, -1, 9, 1, 1);
                ComponentLabeler labeler = entry.getValue();
                MeshLabels labels = new MeshLabels(3, 2, 1, Integer.BYTES, bad, null, labeler.engine());
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> labeler.label(Grid.ofInts(arena, new int[] {1, 1, 0, 2, 2, 2}, 3, 2), MeshOptions.defaults()
                                .withMode(MeshMode.SAME_VALUE), arena).contacts(4, false, false, false).area(0, 0, 1, 1));
                assertTrue(e.getMessage().contains("voxel sizes"), entry.getKey() + ": " + e.getMessage());
                IllegalArgumentException label = assertThrows(IllegalArgumentException.class, () -> labels.contacts(4));
                assertTrue(label.getMessage().contains("entry 3 has label 9"), entry.getKey() + ": " + label.getMessage());
            }
        }
    }
}
