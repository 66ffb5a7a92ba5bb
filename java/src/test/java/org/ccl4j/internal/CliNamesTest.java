package org.ccl4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.LatticeKind;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.mesh.GridFormat;
import org.ccl4j.mesh.MeshAlgorithm;
import org.ccl4j.mesh.MeshMode;
import org.junit.jupiter.api.Test;

class CliNamesTest {
    /** Every constant parses back from its name; an unknown name is reported with every valid one. */
    private static <E> void parsesItsNames(String what, E[] values, Function<E, String> cliName,
            Function<String, E> parse) {
        for (E value : values) {
            assertEquals(value, parse.apply(cliName.apply(value)));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse.apply("nope"));
        assertEquals("unknown " + what + " 'nope'; expected one of "
                + Arrays.stream(values).map(cliName).collect(Collectors.joining(", ")), e.getMessage());
    }

    @Test
    void everyEnumParsesItsNamesAndListsThemWhenUnknown() {
        parsesItsNames("backend", Backend.values(), Backend::cliName, Backend::fromCliName);
        parsesItsNames("algorithm", Algorithm.values(), Algorithm::cliName, Algorithm::fromCliName);
        parsesItsNames("lattice", LatticeKind.values(), LatticeKind::cliName, LatticeKind::fromCliName);
        parsesItsNames("mesh algorithm", MeshAlgorithm.values(), MeshAlgorithm::cliName, MeshAlgorithm::fromCliName);
        parsesItsNames("mesh mode", MeshMode.values(), MeshMode::cliName, MeshMode::fromCliName);
        parsesItsNames("grid format", GridFormat.values(), GridFormat::cliName, GridFormat::fromName);
        parsesItsNames("graph format", GraphFormat.values(), GraphFormat::cliName, GraphFormat::fromName);
    }

    @Test
    void theMessageNamesTheInputAndTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backend.fromCliName("gpu"));
        assertEquals("unknown backend 'gpu'; expected one of auto, cuda, cpu, cpu-serial, java", e.getMessage());
    }

    @Test
    void formatsIgnoreCaseAndTheOthersDoNot() {
        assertEquals(GridFormat.PNG, GridFormat.fromName("PNG"));
        assertEquals(GraphFormat.MTX, GraphFormat.fromName("Mtx"));
        assertThrows(IllegalArgumentException.class, () -> Backend.fromCliName("CUDA"));
        assertThrows(IllegalArgumentException.class, () -> MeshMode.fromCliName("Foreground"));
    }
}
