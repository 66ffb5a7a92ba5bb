package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.ccl4j.testing.Graphs;
import org.ccl4j.testing.Oracle;

/**
 * Graphs shared out among several devices ({@link Devices}, {@link Algorithm#STREAMED}) get the
 * oracle's labels, with the merge's phases and each device's own: on partitions of device 0 (two,
 * three and five), and where the machine has several GPUs on all of them and on two in reverse
 * order; under budgets down to two staging buffers of a few hundred bytes; AUTO streams what
 * does not fit on the first device alone. CUDA only: without a device the property prints a notice and checks nothing.
 */
class SeveralDevicesProperties {
    private static final List<ComponentLabeler> labelers = new ArrayList<>();

    @BeforeContainer
    static void openLabelers() {
        int count = ComponentLabeler.capabilities().devices().size();
        if (count == 0) {
            System.out.println("NOTICE: no CUDA device present - labelling across several devices is skipped in"
                    + " SeveralDevicesProperties");
            return;
        }
        List<Devices> lists = new ArrayList<>(List.of(Devices.of(0, 0), Devices.of(0, 0, 0), Devices.of(0, 0, 0, 0, 0)));
        if (count > 1) {
            lists.add(Devices.all());
            lists.add(Devices.of(1, 0));
        }
        for (Devices devices : lists) {
            labelers.add(ComponentLabeler.create(Backend.CUDA, devices));
        }
    }

    @AfterContainer
    static void closeLabelers() {
        labelers.forEach(ComponentLabeler::close);
        labelers.clear();
    }

    @Provide
    Arbitrary<Graphs.EdgeList> graphs() {
        return Graphs.any();
    }

    /** Per device: the parent array, the bitmap and the merge room, as the streamed engine counts them, plus {@code spare}. */
    private static long budget(int n, long spare) {
        return 8L * n + (n / 32 + 1) * 4L + 512 + spare;
    }

    @Property(tries = 40, edgeCases = EdgeCasesMode.NONE)
    void labelsAcrossDevicesAreTheOracles(@ForAll("graphs") Graphs.EdgeList edges) {
        try (Arena arena = Arena.ofConfined()) {
            CsrGraph narrow = edges.toCsr(arena);
            int[] expected = Oracle.labels(narrow);
            int n = narrow.vertexCount();
            for (ComponentLabeler labeler : labelers) {
                List<Integer> devices = labeler.devices();
                for (CsrGraph g : List.of(narrow, Graphs.withWideOffsets(narrow, arena))) {
                    for (long budget : new long[] {0, budget(n, 1 << 16), budget(n, 700)}) {
                        LabelOptions options = LabelOptions.defaults().withAlgorithm(Algorithm.STREAMED)
                                .withDeviceMemory(budget);
                        String what = "STREAMED across devices " + devices + " on " + edges + ", budget " + budget + ", "
                                + g.offsetBytes() + "-byte offsets";
                        Labels labels = labeler.label(g, options);
                        assertArrayEquals(expected, labels.toArray(), what);
                        assertEquals(Algorithm.STREAMED, labels.timings().algorithm(), what);
                        if (n > 0) {
                            for (String phase : List.of("sample", "merge samples", "broadcast", "link", "merge forests")) {
                                assertTrue(labels.timings().phasesMs().containsKey(phase), what + ": phase " + phase);
                            }
                            IntStream.range(0, devices.size()).forEach(d -> assertTrue(
                                    labels.timings().phasesMs().containsKey("link " + d), what + ": link " + d));
                        }
                    }
                    // The copy of any graph takes more than this (4 KiB of working arrays alone).
                    Labels auto = labeler.label(g, LabelOptions.defaults().withDeviceMemory(budget(n, 700)));
                    assertArrayEquals(expected, auto.toArray(), "AUTO under a budget across " + devices + " on " + edges);
                    if (n > 0) {
                        assertEquals(Algorithm.STREAMED, auto.timings().algorithm(), "AUTO under a budget streams");
                        assertFalse(auto.timings().phasesMs().containsKey("merge samples"),
                                "AUTO keeps the graph on the first device: " + auto.timings());
                    }
                }
            }
        }
    }
}
