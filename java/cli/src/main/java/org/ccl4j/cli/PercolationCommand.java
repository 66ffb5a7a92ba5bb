package org.ccl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.ccl4j.Algorithm;
import org.ccl4j.Backend;
import org.ccl4j.physics.BondPercolation;
import org.ccl4j.physics.Lattice;
import org.ccl4j.physics.LatticeKind;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j percolation}: the spanning probability R(p) of bond percolation on open lattices of
 * several sizes, the thresholds estimated from the crossings of the curves of successive sizes.
 */
@Command(name = "percolation", mixinStandardHelpOptions = true,
        description = "Bond percolation: the spanning probability R(p) per lattice size,"
        + " p_c from the crossings of the curves.")
final class PercolationCommand implements Callable<Integer> {
    /** Realisations per native call, between two redraws of the progress bar. */
    private static final int CHUNK = 50;
    private static final String CSV_HEADER = "lattice,size,length,p,trials,spanning,R,error,ms_per_realisation,"
            + "label_ms_per_realisation,backend,algorithm";

    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Option(names = "--lattice", paramLabel = "NAME", defaultValue = "honeycomb",
            completionCandidates = Converters.LatticeNames.class,
            description = "The lattice: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private LatticeKind kind;

    @Option(names = "--sizes", paramLabel = "N,N,...", defaultValue = "2^12,2^14",
            converter = Grids.SizesConverter.class,
            description = "Site counts (2^k allowed); the nearest lattice of each is used (default: ${DEFAULT-VALUE}).")
    private Grids.Sizes sizes;

    @Option(names = "--p", paramLabel = "FROM:TO:STEP|p,p,...", defaultValue = "0.60:0.70:0.01",
            converter = Grids.ValuesConverter.class,
            description = "Bond probabilities, a range with both ends or a comma list (default: ${DEFAULT-VALUE}).")
    private Grids.Values probabilities;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "100",
            description = "Realisations per (size, p) (default: ${DEFAULT-VALUE}).")
    private int trials;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Philox key (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.NativeBackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Backend backend;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "komura",
            completionCandidates = Converters.AlgorithmNames.class,
            description = "The graph algorithm: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Algorithm algorithm;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the table as CSV.")
    private Path csv;

    @Option(names = "--png", paramLabel = "FILE", description = "Plot R(p).")
    private Path png;

    @Option(names = "--json", description = "Print {\"results\":[{\"lattice\",\"size\",\"p\",\"trials\",\"spanning\","
            + "\"error\"},...]} instead of the table.")
    private boolean json;

    @Option(names = "--from-csv", paramLabel = "FILE", description = "Analyse and plot a CSV written by --csv instead"
            + " of running.")
    private Path fromCsv;

    @Mixin
    private Progress.Options progressOptions;

    /** One (size, p) point of the sweep. */
    record Row(String lattice, long size, int length, double p, int trials, long spanning, double probability,
            double error, double msPerRealisation, double labelMsPerRealisation) {
    }

    @Override
    public Integer call() throws IOException {
        if (png != null) {
            Plots.requireFonts();
        }
        PrintWriter out = command.commandLine().getOut();
        Measured m = fromCsv != null ? readCsv(fromCsv) : measure();
        List<Row> rows = m.rows();
        LatticeKind kind = m.kind();
        String ran = m.backend();
        String algorithmName = m.algorithm();
        int trials = rows.get(0).trials();
        List<Crossed> crossings = crossings(rows, m.sizeCount(), rows.size() / m.sizeCount(), seed);

        try (OutputFile.Group outputs = new OutputFile.Group()) {
            if (csv != null) {
                writeCsv(outputs, csv, rows, ran, algorithmName);
            }
            if (png != null) {
                Map<String, List<Crossing.Point>> curves = new LinkedHashMap<>();
                for (Row r : rows) {
                    curves.computeIfAbsent("N = " + r.size(), k -> new ArrayList<>())
                            .add(new Crossing.Point(r.p(), r.probability(), r.error()));
                }
                Plots.write(outputs, png, "Bond percolation, " + CliNames.of(kind) + " lattice", "p",
                        "spanning probability R(p)", curves, exactThreshold(kind), "exact p_c", true);
            }
            outputs.commit();
        }
        if (json) {
            ObjectNode result = Json.object();
            ArrayNode list = result.putArray("results");
            for (Row r : rows) {
                ObjectNode o = list.addObject().put("lattice", r.lattice()).put("size", r.size());
                o.set("p", Json.fixed(r.p(), 6));
                o.put("trials", r.trials());
                o.set("spanning", Json.fixed(r.probability(), 6));
                o.set("error", Json.fixed(r.error(), 6));
            }
            out.println(Json.write(result));
            return Main.OK;
        }
        out.printf("bond percolation on the %s lattice (open), %d trials per point, backend %s, algorithm %s%n",
                CliNames.of(kind), trials, ran, algorithmName);
        out.printf("%10s %6s %10s %8s %10s %12s %12s%n", "N", "L", "p", "R", "error", "ms/real.", "label ms");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%10d %6d %10.6f %8.4f %10.4f %12.4f %12.4f%n", r.size(), r.length(), r.p(),
                    r.probability(), r.error(), r.msPerRealisation(), r.labelMsPerRealisation());
        }
        for (Crossed c : crossings) {
            out.printf(Locale.ROOT, "crossing N=%d / N=%d: p = %s%n", c.small(), c.large(),
                    c.estimate() == null ? "none in the window"
                            : String.format(Locale.ROOT, "%.5f +- %.5f", c.estimate().x(), c.estimate().sigma()));
        }
        double exact = exactThreshold(kind);
        if (!Double.isNaN(exact)) {
            out.printf(Locale.ROOT, "exact threshold: %.6f%n", exact);
        }
        return Main.OK;
    }

    /** The rows of a sweep with its lattice, backend, algorithm and number of sizes. */
    record Measured(List<Row> rows, LatticeKind kind, String backend, String algorithm, int sizeCount) {
    }

    private Measured measure() {
        List<Long> sizes = this.sizes.list();
        List<Double> ps = probabilities.list();
        for (double p : ps) {
            if (!(p >= 0 && p <= 1)) {
                throw new UsageException("--p values must lie in [0, 1], got " + p);
            }
        }
        if (trials < 1) {
            throw new UsageException("--trials must be positive, got " + trials);
        }

        List<Row> rows = new ArrayList<>();
        String ran = null;
        try (Progress progress = progressOptions.start(main, "percolation", (long) sizes.size() * ps.size() * trials)) {
            for (int sizeIndex = 0; sizeIndex < sizes.size(); sizeIndex++) {
                long size = sizes.get(sizeIndex);
                try (Lattice lattice = Lattice.withSites(kind, size, false, seed);
                        BondPercolation percolation = BondPercolation.create(lattice, backend, algorithm)) {
                    ran = CliNames.of(percolation.backend());
                    // one untimed realisation (numbered apart from the measured ones) keeps the first
                    // launches' costs, such as loading the kernels, out of the times per realisation
                    percolation.run(ps.get(0), seed, -1L - sizeIndex, 1);
                    for (int i = 0; i < ps.size(); i++) {
                        double p = ps.get(i);
                        // realisation numbers never repeat across sizes and p, so all points are independent
                        long spanning = 0;
                        double totalMs = 0;
                        double labelMs = 0;
                        for (int done = 0; done < trials; done += CHUNK) {
                            int count = Math.min(CHUNK, trials - done);
                            BondPercolation.Result r = percolation.run(p, seed,
                                    ((long) sizeIndex * ps.size() + i) * trials + done, count);
                            spanning += r.spanning();
                            totalMs += r.totalMs();
                            labelMs += r.labelMs();
                            progress.advance(count, String.format(Locale.ROOT, "N=%d p=%.6f", lattice.siteCount(), p));
                        }
                        BondPercolation.Result all = new BondPercolation.Result(trials, spanning, totalMs, labelMs);
                        rows.add(new Row(CliNames.of(kind), lattice.siteCount(), lattice.length(), p, trials, spanning,
                                all.probability(), all.error(), totalMs / trials, labelMs / trials));
                    }
                }
            }
        }
        return new Measured(rows, kind, ran, CliNames.of(algorithm), sizes.size());
    }

    /** The rows of a CSV written by --csv, for a new analysis or plot without running again. */
    static Measured readCsv(Path file) throws IOException {
        SweepCsv.Sweep<Row> csv = SweepCsv.read(file, "percolation", CSV_HEADER, f -> new Row(f[0],
                Long.parseLong(f[1]), Integer.parseInt(f[2]), Double.parseDouble(f[3]), Integer.parseInt(f[4]),
                Long.parseLong(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
                Double.parseDouble(f[9])), Row::size, "p");
        return new Measured(csv.rows(), CliNames.parse(LatticeKind.class, csv.rows().getLast().lattice()), csv.backend(),
                csv.algorithm(), csv.sizeCount());
    }

    /** The crossing of the R(p) curves of two successive sizes. */
    record Crossed(long small, long large, Crossing.Estimate estimate) {
    }

    static List<Crossed> crossings(List<Row> rows, int sizeCount, int pCount, long seed) {
        List<Crossed> crossings = new ArrayList<>();
        for (int s = 0; s + 1 < sizeCount; s++) {
            List<Crossing.Point> a = points(rows.subList(s * pCount, (s + 1) * pCount));
            List<Crossing.Point> b = points(rows.subList((s + 1) * pCount, (s + 2) * pCount));
            crossings.add(new Crossed(rows.get(s * pCount).size(), rows.get((s + 1) * pCount).size(),
                    Crossing.estimate(a, b, 1000, seed + s)));
        }
        return crossings;
    }

    private static List<Crossing.Point> points(List<Row> rows) {
        return rows.stream().map(r -> new Crossing.Point(r.p(), r.probability(), r.error())).toList();
    }

    /** The exact bond thresholds known in closed form (NaN otherwise). */
    static double exactThreshold(LatticeKind kind) {
        double s = 2 * Math.sin(Math.PI / 18);
        return switch (kind) {
            case SQUARE, BETHE, BETHE_RANDOM -> 0.5;
            case TRIANGULAR -> s;
            case HONEYCOMB -> 1 - s;
            default -> Double.NaN;
        };
    }

    private static void writeCsv(OutputFile.Group outputs, Path file, List<Row> rows, String backend,
            String algorithm) throws IOException {
        SweepCsv.write(outputs, file, CSV_HEADER, rows, r -> String.format(Locale.ROOT,
                "%s,%d,%d,%.6f,%d,%d,%.6f,%.6f,%.5f,%.5f", r.lattice(), r.size(), r.length(), r.p(), r.trials(),
                r.spanning(), r.probability(), r.error(), r.msPerRealisation(), r.labelMsPerRealisation()), backend,
                algorithm);
    }
}
