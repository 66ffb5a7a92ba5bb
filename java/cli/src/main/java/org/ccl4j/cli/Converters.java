package org.ccl4j.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.Devices;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshMode;
import org.ccl4j.io.GraphFormat;
import org.ccl4j.io.GraphGenerator;
import org.ccl4j.io.Input;
import org.ccl4j.io.grid.GridFormat;
import org.ccl4j.io.grid.GridReadOptions;
import org.ccl4j.physics.LatticeKind;

import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

/**
 * How picocli turns option values into the API's types: enum constants by their {@link CliNames}
 * ({@code --backend cpu-serial}), file formats by their format names, dimensions by
 * {@link GridDims#parse}, the files that commands read by {@link Input#of(String)} ({@code -} is
 * standard input). The parsers' own messages name the value and the valid choices; picocli
 * puts the option's name in front. Also the completion candidates that list the names in the help
 * ({@code ${COMPLETION-CANDIDATES}}) and for shell completion.
 */
final class Converters {
    private Converters() {
    }

    /** Registers the converters with {@code commandLine} and its subcommands (call it after adding them). */
    static void register(CommandLine commandLine) {
        byCliName(commandLine, Backend.class);
        byCliName(commandLine, Algorithm.class);
        byCliName(commandLine, MeshAlgorithm.class);
        byCliName(commandLine, MeshMode.class);
        byCliName(commandLine, LatticeKind.class);
        byCliName(commandLine, Grid.CellType.class);
        byCliName(commandLine, GridReadOptions.ColorMode.class);
        byCliName(commandLine, GenerateGraphCommand.Format.class);
        byCliName(commandLine, GraphInput.Header.class);
        commandLine.registerConverter(GraphFormat.class, text -> convert(() -> GraphFormat.fromName(text)));
        commandLine.registerConverter(GridFormat.class, text -> convert(() -> GridFormat.fromName(text)));
        commandLine.registerConverter(GridDims.class, text -> convert(() -> GridDims.parse(text)));
        commandLine.registerConverter(Devices.class, text -> convert(() -> Devices.parse(text)));
        // FILE arguments of the readers: - is standard input (a name that cannot be a file's is refused)
        commandLine.registerConverter(Input.class, text -> convert(() -> Input.of(text)));
    }

    private static <E extends Enum<E>> void byCliName(CommandLine commandLine, Class<E> type) {
        commandLine.registerConverter(type, text -> convert(() -> CliNames.parse(type, text)));
    }

    /** The parser's result; its IllegalArgumentException becomes picocli's "Invalid value for option ..." error. */
    static <T> T convert(Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** The names of an option's values, for {@code completionCandidates} (picocli needs a class for each). */
    static class Names implements Iterable<String> {
        private final List<String> names;

        Names(Class<? extends Enum<?>> type, String... more) {
            names = new ArrayList<>(Arrays.stream(type.getEnumConstants()).map(CliNames::of).toList());
            names.addAll(List.of(more));
        }

        Names(List<String> names) {
            this.names = names;
        }

        @Override
        public Iterator<String> iterator() {
            return names.iterator();
        }
    }

    static final class BackendNames extends Names {
        BackendNames() {
            super(Backend.class);
        }
    }

    /** The backends of the physics commands, whose simulations run natively: all but java. */
    static final class NativeBackendNames extends Names {
        NativeBackendNames() {
            super(Arrays.stream(Backend.values()).filter(b -> b != Backend.JAVA).map(CliNames::of).toList());
        }
    }

    static final class AlgorithmNames extends Names {
        AlgorithmNames() {
            super(Algorithm.class);
        }
    }

    /** bench --algorithm: one name, or all of them. */
    static final class AlgorithmNamesOrAll extends Names {
        AlgorithmNamesOrAll() {
            super(Algorithm.class, "all");
        }
    }

    static final class MeshAlgorithmNames extends Names {
        MeshAlgorithmNames() {
            super(MeshAlgorithm.class);
        }
    }

    /** bench --mesh-algorithm: one name, or all of them. */
    static final class MeshAlgorithmNamesOrAll extends Names {
        MeshAlgorithmNamesOrAll() {
            super(MeshAlgorithm.class, "all");
        }
    }

    static final class MeshModeNames extends Names {
        MeshModeNames() {
            super(MeshMode.class);
        }
    }

    static final class LatticeNames extends Names {
        LatticeNames() {
            super(LatticeKind.class);
        }
    }

    static final class CellTypeNames extends Names {
        CellTypeNames() {
            super(Grid.CellType.class);
        }
    }

    static final class ColorNames extends Names {
        ColorNames() {
            super(GridReadOptions.ColorMode.class);
        }
    }

    static final class GraphFormatNames extends Names {
        GraphFormatNames() {
            super(Arrays.stream(GraphFormat.values()).map(GraphFormat::formatName).toList());
        }
    }

    /** generate-graph --format. */
    static final class GraphOutputFormatNames extends Names {
        GraphOutputFormatNames() {
            super(GenerateGraphCommand.Format.class);
        }
    }

    /** label and distances --header. */
    static final class HeaderNames extends Names {
        HeaderNames() {
            super(GraphInput.Header.class);
        }
    }

    static final class GridFormatNames extends Names {
        GridFormatNames() {
            super(Arrays.stream(GridFormat.values()).map(GridFormat::formatName).toList());
        }
    }

    static final class SuiteNames extends Names {
        SuiteNames() {
            super(List.of("quick", "full"));
        }
    }

    static final class GraphKindNames extends Names {
        GraphKindNames() {
            super(GraphGenerator.kinds());
        }
    }
}
