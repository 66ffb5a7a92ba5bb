package org.ccl4j;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Fields;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;


/**
 * For any grid, connectivity, boundaries, mode and cell type, every mesh algorithm on every
 * backend returns exactly {@link MeshUnionFind}'s canonical labels. The GPU algorithms take part
 * when a CUDA device is present; otherwise they are skipped with a printed notice.
 */
class MeshLabelingProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the GPU mesh algorithms are skipped in MeshLabelingProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void everyAlgorithmOnEveryBackendMatchesTheOracle(@ForAll("cases") Fields.Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            int[] expected = MeshUnionFind.label(grid, c.options()).toArray();
            for (Run run : runs()) {
                MeshLabels labels = labelers.get(run.backend()).label(grid, c.options().withAlgorithm(run.algorithm()),
                        arena);
                assertArrayEquals(expected, labels.toArray(), run + " on " + c);
                Backend ran = run.algorithm() == MeshAlgorithm.JAVA ? Backend.JAVA : run.backend();
                assertEquals(ran, labels.timings().backend(), run + ": timings backend");
                if (run.algorithm() != MeshAlgorithm.AUTO) {
                    assertEquals(run.algorithm(), labels.timings().algorithm(), run + ": timings algorithm");
                }
            }
        }
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
    void theOracleAgreesWithBreadthFirstSearch(@ForAll("cases") Fields.Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            assertArrayEquals(Fields.bfsLabels(grid, c.options()), MeshUnionFind.label(grid, c.options()).toArray(),
                    c.toString());
        }
    }

    @Property(tries = 60, edgeCases = EdgeCasesMode.NONE)
    void clusterStatisticsMatchTheLabels(@ForAll("cases") Fields.Case c) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            MeshLabels labels = labelers.get(Backend.CPU_PARALLEL).label(grid, c.options());
            int[] l = labels.toArray();
            Map<Integer, Integer> sizes = new HashMap<>();
            for (int x : l) {
                if (x >= 0) {
                    sizes.merge(x, 1, Integer::sum);
                }
            }
            assertEquals(sizes.size(), labels.count(), c.toString());
            assertEquals(sizes.values().stream().mapToInt(Integer::intValue).max().orElse(0), labels.largestComponentSize());
            for (int i = 0; i < l.length; i++) {
                assertEquals(l[i] < 0 ? 0 : sizes.get(l[i]), labels.componentSize(i), "cell " + i);
            }
        }
    }

    private record Run(Backend backend, MeshAlgorithm algorithm) {
    }

    private static List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(Backend.JAVA, MeshAlgorithm.AUTO));
        runs.add(new Run(Backend.CPU_PARALLEL, MeshAlgorithm.JAVA));
        for (Backend b : List.of(Backend.CPU_SERIAL, Backend.CPU_PARALLEL)) {
            runs.add(new Run(b, MeshAlgorithm.AUTO));
            for (MeshAlgorithm a : MeshAlgorithm.values()) {
                if (a != MeshAlgorithm.AUTO && a != MeshAlgorithm.JAVA && a.runsOn(b)) {
                    runs.add(new Run(b, a));
                }
            }
        }
        if (labelers.containsKey(Backend.CUDA)) {
            runs.add(new Run(Backend.CUDA, MeshAlgorithm.AUTO));
            for (MeshAlgorithm a : MeshAlgorithm.values()) {
                if (a != MeshAlgorithm.AUTO && a != MeshAlgorithm.JAVA && a.runsOn(Backend.CUDA)) {
                    runs.add(new Run(Backend.CUDA, a));
                }
            }
        }
        return runs;
    }
}
