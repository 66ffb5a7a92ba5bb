package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import org.ccl4j.engine.Engines;
import org.ccl4j.engine.spi.AlgorithmInfo;
import org.ccl4j.engine.spi.AlgorithmTable;

/**
 * The one algorithm table (the native registry's entries and the JVM's) and the API's view of the
 * algorithms agree: every entry is a constant of the enum of its kind and every constant but AUTO
 * an entry, {@link MeshAlgorithm#backends()} is where the table runs each mesh algorithm, and the
 * table's label widths are what labelling does: an algorithm writes int64 labels on a backend
 * exactly when the table says so.
 */
class AlgorithmTableTest {
    private static final AlgorithmTable TABLE = Engines.algorithms();

    @Test
    void everyEntryIsAConstantOfItsKindAndEveryConstantAnEntry() {
        for (AlgorithmInfo a : TABLE.entries()) {
            if (a.kind() == AlgorithmInfo.Kind.GRAPH) {
                Algorithm.valueOf(a.name());
            } else {
                MeshAlgorithm.valueOf(a.name());
            }
        }
        assertTrue(Engines.nativeLibrary(), "the tests run with the native library");
        for (Algorithm a : Algorithm.values()) {
            assertTrue(a == Algorithm.AUTO || TABLE.find(AlgorithmInfo.Kind.GRAPH, a.name()).isPresent(), a.name());
        }
        for (MeshAlgorithm a : MeshAlgorithm.values()) {
            assertTrue(a == MeshAlgorithm.AUTO || TABLE.find(AlgorithmInfo.Kind.MESH, a.name()).isPresent(), a.name());
        }
    }

    @Test
    void meshAlgorithmsRunWhereTheTableSays() {
        boolean cuda = ComponentLabeler.capabilities().cudaCompiled();
        for (MeshAlgorithm a : MeshAlgorithm.values()) {
            if (a == MeshAlgorithm.AUTO) {
                continue;
            }
            Set<String> declared = new TreeSet<>();
            a.backends().stream().filter(b -> b != Backend.AUTO).forEach(b -> declared.add(b.name()));
            Set<String> table = new TreeSet<>(TABLE.find(AlgorithmInfo.Kind.MESH, a.name()).orElseThrow().backends());
            if (!cuda) {
                declared.remove("CUDA");  // a GPU algorithm runs nowhere in a build without CUDA
            }
            assertEquals(declared, table, a.name());
        }
    }

    /** Labels a small grid with int64 labels by each algorithm on each backend here: it works where the table says. */
    @Test
    void int64LabelsAreWrittenWhereTheTableSays() {
        Set<Backend> here = EnumSet.copyOf(ComponentLabeler.capabilities().backends());
        for (Backend backend : here) {
            try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(backend)) {
                Grid grid = Grid.ofBytes(arena, new byte[] {1, 1, 0, 1}, 2, 2);
                for (MeshAlgorithm a : MeshAlgorithm.values()) {
                    if (a == MeshAlgorithm.AUTO || !a.runsOn(backend)) {
                        continue;
                    }
                    MeshOptions wide = MeshOptions.defaults().withAlgorithm(a).withWideLabels(true);
                    boolean writes = TABLE.find(AlgorithmInfo.Kind.MESH, a.name()).orElseThrow().wideBackends()
                            .contains(backend.name());
                    String what = a + " on " + backend;
                    if (writes) {
                        assertEquals(0, labeler.label(grid, wide, arena).get(3), what);
                    } else {
                        assertThrows(UnsupportedOperationException.class, () -> labeler.label(grid, wide, arena), what);
                    }
                }
            }
        }
    }
}
