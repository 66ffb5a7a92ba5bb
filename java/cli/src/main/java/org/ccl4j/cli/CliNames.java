package org.ccl4j.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.Grid;
import org.ccl4j.LabelingAlgorithm;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.io.grid.GridReadOptions;
import org.ccl4j.physics.LatticeKind;

/**
 * The command line's names of the API's enum constants: the constant's name in lower case with
 * dashes ({@code CPU_SERIAL} is {@code cpu-serial}), except for the short names below. The API's
 * enums carry no command-line names of their own.
 */
public final class CliNames {
    private static final Map<Enum<?>, String> SHORT_NAMES = Map.of(
            Algorithm.ECL_CC, "ecl",
            Backend.CPU_PARALLEL, "cpu",
            LatticeKind.TRIANGULAR, "triangle",
            LatticeKind.SIMPLE_CUBIC, "cubic");

    private static final Map<Class<?>, String> WHAT = Map.of(
            Algorithm.class, "algorithm",
            Backend.class, "backend",
            MeshAlgorithm.class, "mesh algorithm",
            MeshMode.class, "mesh mode",
            LatticeKind.class, "lattice",
            Grid.CellType.class, "cell type",
            GridReadOptions.ColorMode.class, "colour mode",
            GenerateGraphCommand.Format.class, "graph format",
            GraphInput.Header.class, "header setting");

    private CliNames() {
    }

    /** The command-line name of {@code constant}. */
    public static String of(Enum<?> constant) {
        String name = SHORT_NAMES.get(constant);
        return name != null ? name : constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The command-line name of a graph or mesh algorithm. */
    public static String algorithm(LabelingAlgorithm algorithm) {
        return of((Enum<?>) algorithm);
    }

    /**
     * The constant of {@code type} whose command-line name is {@code name} (case-sensitive).
     *
     * @throws IllegalArgumentException "unknown WHAT 'NAME'; expected one of ..." when there is none
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String name) {
        for (E constant : type.getEnumConstants()) {
            if (of(constant).equals(name)) {
                return constant;
            }
        }
        throw new IllegalArgumentException("unknown " + WHAT.getOrDefault(type, type.getSimpleName()) + " '" + name
                + "'; expected one of " + Arrays.stream(type.getEnumConstants()).map(CliNames::of)
                        .collect(Collectors.joining(", ")));
    }
}
