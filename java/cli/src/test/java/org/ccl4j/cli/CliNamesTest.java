package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.physics.LatticeKind;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.grid.GridFormat;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.junit.jupiter.api.Test;

class CliNamesTest {
    /** Every constant parses back from its name; an unknown name is reported with every valid one. */
    private static <E extends Enum<E>> void parsesItsNames(String what, Class<E> type) {
        parsesItsNames(what, type.getEnumConstants(), CliNames::of, name -> CliNames.parse(type, name));
    }

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
        parsesItsNames("backend", Backend.class);
        parsesItsNames("algorithm", Algorithm.class);
        parsesItsNames("lattice", LatticeKind.class);
        parsesItsNames("mesh algorithm", MeshAlgorithm.class);
        parsesItsNames("mesh mode", MeshMode.class);
        parsesItsNames("grid format", GridFormat.values(), GridFormat::formatName, GridFormat::fromName);
        parsesItsNames("graph format", GraphFormat.values(), GraphFormat::formatName, GraphFormat::fromName);
    }

    @Test
    void theMessageNamesTheInputAndTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CliNames.parse(Backend.class, "gpu"));
        assertEquals("unknown backend 'gpu'; expected one of auto, cuda, cpu, cpu-serial, java", e.getMessage());
    }

    @Test
    void formatsIgnoreCaseAndTheOthersDoNot() {
        assertEquals(GridFormat.PNG, GridFormat.fromName("PNG"));
        assertEquals(GraphFormat.MTX, GraphFormat.fromName("Mtx"));
        assertThrows(IllegalArgumentException.class, () -> CliNames.parse(Backend.class, "CUDA"));
        assertThrows(IllegalArgumentException.class, () -> CliNames.parse(MeshMode.class, "Foreground"));
    }
}
