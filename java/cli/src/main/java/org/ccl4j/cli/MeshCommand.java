package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.ccl4j.Backend;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.Labels;
import org.ccl4j.io.grid.ImageFormatException;
import org.ccl4j.Grid;
import org.ccl4j.GridDims;
import org.ccl4j.io.grid.GridFormat;
import org.ccl4j.io.grid.GridGenerators;
import org.ccl4j.io.grid.GridReadOptions;
import org.ccl4j.io.grid.GridReader;
import org.ccl4j.io.grid.GridWriter;
import org.ccl4j.io.grid.LabelImageWriter;
import org.ccl4j.MeshAlgorithm;
import org.ccl4j.MeshLabels;
import org.ccl4j.MeshMode;
import org.ccl4j.MeshOptions;
import org.ccl4j.Timings;

/**
 * {@code ccl4j mesh FILE [...]} and {@code ccl4j mesh --generate SPEC [...]}: reads or generates a
 * 2D or 3D grid, labels its clusters, reports and optionally writes the labels and their picture.
 */
final class MeshCommand {
    /** Options that say how a file is read: meaningless for a generated field. */
    private static final List<String> READ_OPTIONS = List.of("format", "dims", "type", "threshold", "color");

    private MeshCommand() {
    }

    static int run(List<String> args, PrintStream out) throws IOException {
        Arguments a = new Arguments(args, Set.of("format", "dims", "type", "threshold", "color", "mode", "connectivity",
                "periodic-axes", "algorithm", "backend", "device", "threads", "png", "out", "generate", "save", "top",
                "region"),
                Set.of("periodic", "json", "stats", "compact"));
        String spec = a.get("generate", null);
        Path file = source(a, spec);
        GridReadOptions readOptions = spec == null ? readOptions(a) : null;
        MeshMode mode = parse(() -> CliNames.parse(MeshMode.class, a.get("mode", "foreground")));
        Backend backend = parse(() -> CliNames.parse(Backend.class, a.get("backend", "auto")));
        MeshAlgorithm algorithm = parse(() -> CliNames.parse(MeshAlgorithm.class, a.get("algorithm", "auto")));
        int connectivity = a.getInt("connectivity", 0);
        boolean[] periodic = periodicAxes(a);
        int device = a.getInt("device", 0);
        int threads = a.getInt("threads", 0);
        if (device < 0 || threads < 0) {
            throw new UsageException("--device and --threads must not be negative");
        }
        LabelStatistics.Options bookkeeping = LabelStatistics.Options.of(a);
        MeshOptions options = parse(() -> MeshOptions.defaults().withAlgorithm(algorithm).withMode(mode)
                .withConnectivity(connectivity).withPeriodic(periodic[0], periodic[1], periodic[2])
                .withCpuThreads(threads));
        backend = backendFor(backend, algorithm);

        try (Arena arena = Arena.ofConfined(); ComponentLabeler labeler = ComponentLabeler.create(backend, device)) {
            // checked before a large file is read
            if (algorithm != MeshAlgorithm.AUTO && !algorithm.runsOn(labeler.backend())) {
                throw new UsageException("--algorithm " + CliNames.of(algorithm) + " does not run on the "
                        + CliNames.of(labeler.backend()) + " backend");
            }
            Grid input = spec == null ? read(file, readOptions, arena) : generate(spec, arena);
            String region = a.get("region", null);
            Grid grid = region == null ? input : region(input, region);
            checkConnectivity(options, grid);
            if (a.get("save", null) != null) {
                GridWriter.write(grid, Path.of(a.get("save", null)));
            }
            MeshLabels labels = labeler.label(grid, options, arena);
            if (a.get("out", null) != null) {
                MemorySegment written = bookkeeping.compact()
                        ? labels.labels().compact(Labels.Order.SMALLEST_MEMBER).segment() : labels.segment();
                LabelImageWriter.writeRaw(written, grid.width(), grid.height(), grid.depth(), Path.of(a.get("out", null)));
            }
            LabelStatistics statistics = bookkeeping.of(labels.labels());
            List<Path> pictures = a.get("png", null) == null ? List.of() : LabelImageWriter.writePng(labels.segment(),
                    grid.width(), grid.height(), grid.depth(), Path.of(a.get("png", null)));
            if (a.flag("json")) {
                Json json = json(grid, labels);
                if (region != null) {
                    json.put("region", region);
                }
                out.println(statistics == null ? json : statistics.addTo(json));
            } else {
                String source = spec == null ? file.toString() : spec;
                summary(out, region == null ? source : source + " region " + region, grid, labels, options, pictures);
                if (statistics != null) {
                    statistics.print(out);
                }
            }
        }
        return Main.OK;
    }

    /** The FILE argument, or null with --generate; exactly one of the two. */
    private static Path source(Arguments a, String spec) {
        List<String> positionals = a.positionals();
        if (spec != null) {
            if (!positionals.isEmpty()) {
                throw new UsageException("mesh takes a FILE or --generate SPEC, not both");
            }
            for (String option : READ_OPTIONS) {
                if (a.get(option, null) != null) {
                    throw new UsageException("--" + option + " applies to files, not to --generate");
                }
            }
            return null;
        }
        if (positionals.size() != 1) {
            throw new UsageException("mesh needs exactly one FILE or --generate SPEC, got " + positionals.size()
                    + " arguments");
        }
        return Path.of(positionals.get(0));
    }

    private static GridReadOptions readOptions(Arguments a) {
        GridReadOptions o = GridReadOptions.defaults()
                .withFormat(parse(() -> GridFormat.fromName(a.get("format", "auto"))))
                .withRawType(switch (a.get("type", "u8")) {
                    case "u8" -> Grid.CellType.U8;
                    case "i32" -> Grid.CellType.I32;
                    default -> throw new UsageException("unknown cell type '" + a.get("type", null)
                            + "'; expected u8 or i32");
                })
                .withColor(switch (a.get("color", "luminance")) {
                    case "luminance" -> GridReadOptions.ColorMode.LUMINANCE;
                    case "rgb" -> GridReadOptions.ColorMode.RGB;
                    default -> throw new UsageException("unknown colour mode '" + a.get("color", null)
                            + "'; expected luminance or rgb");
                });
        if (a.get("dims", null) != null) {
            o = o.withDims(parse(() -> GridDims.parse(a.get("dims", null))));
        }
        if (a.get("threshold", null) != null) {
            GridReadOptions base = o;
            o = parse(() -> base.withThreshold(a.getInt("threshold", 0)));
        }
        return o;
    }

    /** --periodic (every axis) or --periodic-axes with a subset of xyz; open boundaries otherwise. */
    private static boolean[] periodicAxes(Arguments a) {
        String axes = a.get("periodic-axes", null);
        if (axes == null) {
            boolean all = a.flag("periodic");
            return new boolean[] {all, all, all};
        }
        if (a.flag("periodic")) {
            throw new UsageException("give --periodic (every axis) or --periodic-axes, not both");
        }
        if (axes.isEmpty()) {
            throw new UsageException("--periodic-axes needs some of x, y and z");
        }
        boolean[] periodic = new boolean[3];
        for (char c : axes.toCharArray()) {
            int axis = "xyz".indexOf(c);
            if (axis < 0 || periodic[axis]) {
                throw new UsageException("--periodic-axes takes each of x, y and z at most once, got '" + axes + "'");
            }
            periodic[axis] = true;
        }
        return periodic;
    }

    /** The CPU algorithms and the Java one choose their backend when "auto" is asked for. */
    private static Backend backendFor(Backend requested, MeshAlgorithm algorithm) {
        if (requested != Backend.AUTO) {
            return requested;
        }
        return switch (algorithm) {
            case JAVA -> Backend.JAVA;
            case CPU_RASTER, CPU_EQUIVALENCE -> Backend.CPU_SERIAL;
            case CPU_PARALLEL -> Backend.CPU_PARALLEL;
            default -> Backend.AUTO;
        };
    }

    /** Reads the grid; I/O failures name the file (format errors and missing files already do). */
    private static Grid read(Path file, GridReadOptions options, Arena arena) throws IOException {
        try {
            return GridReader.read(file, options, arena);
        } catch (NoSuchFileException | ImageFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // a raw file without --dims: the command line is incomplete (the message names the file)
            throw new UsageException(e.getMessage() + ": give --dims WxH[xD] (and --type i32 for int32 cells)");
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The view of {@code grid} that {@code --region X,Y[,Z]:WxH[xD]} names: corner (X, Y, Z) and
     * extents W, H, D (Z 0 and D 1 when left out, which a 3D grid does not allow). Not a copy.
     */
    static Grid region(Grid grid, String text) {
        String form = "expected X,Y:WxH or X,Y,Z:WxHxD";
        String[] parts = text.split(":", -1);
        if (parts.length != 2) {
            throw new UsageException("bad --region '" + text + "': " + form);
        }
        String[] corner = parts[0].split(",", -1);
        if (corner.length != 2 && corner.length != 3) {
            throw new UsageException("bad --region '" + text + "': the corner needs 2 or 3 coordinates; " + form);
        }
        int[] c = new int[3];
        for (int i = 0; i < corner.length; i++) {
            try {
                c[i] = Integer.parseInt(corner[i].strip());
            } catch (NumberFormatException e) {
                throw new UsageException("bad --region '" + text + "': '" + corner[i] + "' is not an integer; " + form);
            }
        }
        GridDims extent = parse(() -> {
            try {
                return GridDims.parse(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad --region '" + text + "': " + e.getMessage());
            }
        });
        if (grid.is3d() && corner.length == 2) {
            throw new UsageException("--region '" + text + "' is 2D, the grid " + GridDims.of(grid)
                    + " is 3D: give X,Y,Z:WxHxD");
        }
        return parse(() -> grid.region(c[0], c[1], c[2], extent.width(), extent.height(), extent.depth()));
    }

    private static Grid generate(String spec, Arena arena) {
        return parse(() -> GridGenerators.fromSpec(spec, arena));
    }

    /** A connectivity that does not fit the grid is a usage error, named with the grid's dimensions. */
    private static void checkConnectivity(MeshOptions options, Grid grid) {
        try {
            options.connectivityFor(grid);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--connectivity " + options.connectivity() + " does not fit the "
                    + (grid.is3d() ? "3D" : "2D") + " grid " + GridDims.of(grid) + ": use "
                    + (grid.is3d() ? "6 or 26" : "4 or 8"));
        }
    }

    private static Json json(Grid grid, MeshLabels labels) {
        Timings t = labels.timings();
        Json timings = new Json().put("total", t.totalMs());
        t.phasesMs().forEach(timings::put);
        return new Json().put("width", grid.width()).put("height", grid.height()).put("depth", grid.depth())
                .put("cells", grid.cellCount()).put("clusters", labels.clusterCount())
                .put("largestCluster", labels.largestClusterSize()).put("backend", CliNames.of(t.backend()))
                .put("algorithm", CliNames.algorithm(t.algorithm())).put("iterations", t.iterations())
                .put("timingsMs", timings);
    }

    private static void summary(PrintStream out, String source, Grid grid, MeshLabels labels, MeshOptions options,
            List<Path> pictures) {
        Timings t = labels.timings();
        out.printf("%s: %s %s grid, %d cells%n", source, GridDims.of(grid), grid.type().name().toLowerCase(Locale.ROOT),
                grid.cellCount());
        out.printf("clusters: %d, largest: %d cells (%s, connectivity %d, %s)%n", labels.clusterCount(),
                labels.largestClusterSize(), CliNames.of(options.mode()), options.connectivityFor(grid),
                boundaries(options, grid));
        out.printf("backend: %s, algorithm: %s, %.3f ms", CliNames.of(t.backend()), CliNames.algorithm(t.algorithm()), t.totalMs());
        StringBuilder p = new StringBuilder();
        for (Map.Entry<String, Double> phase : t.phasesMs().entrySet()) {
            p.append(p.isEmpty() ? " (" : ", ").append(phase.getKey()).append(' ')
                    .append(String.format(Locale.ROOT, "%.3f", phase.getValue()));
        }
        out.println(p.isEmpty() ? "" : p + ")");
        if (pictures.size() == 1) {
            out.println("picture: " + pictures.get(0));
        } else if (!pictures.isEmpty()) {
            out.printf("pictures: %s ... %s (%d slices)%n", pictures.get(0), pictures.get(pictures.size() - 1),
                    pictures.size());
        }
    }

    private static String boundaries(MeshOptions options, Grid grid) {
        String axes = (options.periodicX() ? "x" : "") + (options.periodicY() ? "y" : "")
                + (options.periodicZ() && grid.is3d() ? "z" : "");
        return axes.isEmpty() ? "open" : "periodic " + axes;
    }

    private static <T> T parse(Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
