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
import org.ccl4j.physics.Lattice;
import org.ccl4j.physics.LatticeKind;
import org.ccl4j.physics.SwendsenWang;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j ising}: Swendsen-Wang for the Ising model on periodic square or simple cubic
 * lattices; magnetisation, energy and the Binder cumulant U = 1 - m4 / (3 m2^2) per (L, T), T_c
 * estimated from the crossings of U for successive L.
 */
@Command(name = "ising", mixinStandardHelpOptions = true,
        description = "Swendsen-Wang for the Ising model on periodic lattices: |m|, energy,"
        + " Binder cumulant; T_c from the crossings of the Binder cumulants.")
final class IsingCommand implements Callable<Integer> {
    /** Blocks of the jackknife error of the Binder cumulant. */
    private static final int BLOCKS = 20;
    /** Sweeps per native call, between two redraws of the progress bar. */
    private static final int CHUNK = 200;
    private static final String CSV_HEADER =
            "dim,L,T,sweeps,abs_m,m2,m4,energy,binder,binder_error,ns_per_spin_update,backend,algorithm";

    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Option(names = "--dim", paramLabel = "2|3", defaultValue = "2",
            description = "Square (2) or simple cubic (3) lattices (default: ${DEFAULT-VALUE}).")
    private int dim;

    @Option(names = "--L", paramLabel = "A,B,...", defaultValue = "16,32", converter = Grids.SizesConverter.class,
            description = "Linear sizes, 3 to 65536 (default: ${DEFAULT-VALUE}).")
    private Grids.Sizes lengths;

    @Option(names = "--T", paramLabel = "FROM:TO:STEP|T,T,...", converter = Grids.ValuesConverter.class,
            description = "Temperatures, a range with both ends or a comma list (default: 2.2:2.34:0.02 in 2D,"
                    + " 4.4:4.6:0.05 in 3D).")
    private Grids.Values temperatures;

    @Option(names = "--sweeps", paramLabel = "N", defaultValue = "1000",
            description = "Measured sweeps per (L, T), at least " + BLOCKS + " (default: ${DEFAULT-VALUE}).")
    private int sweeps;

    @Option(names = "--warmup", paramLabel = "N", description = "Discarded sweeps before them (default: sweeps / 5).")
    private Integer warmup;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Philox key (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.NativeBackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Backend backend;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "komura",
            completionCandidates = Converters.AlgorithmNames.class,
            description = "The graph algorithm of the cluster updates: ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}).")
    private Algorithm algorithm;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the table as CSV.")
    private Path csv;

    @Option(names = "--png", paramLabel = "FILE", description = "Plot the Binder cumulant U(T).")
    private Path png;

    @Option(names = "--json", description = "Print {\"results\":[...],\"crossings\":[...]} instead of the table.")
    private boolean json;

    @Option(names = "--from-csv", paramLabel = "FILE", description = "Analyse and plot a CSV written by --csv instead"
            + " of running.")
    private Path fromCsv;

    @Mixin
    private Progress.Options progressOptions;

    /** The averages at one (L, T). */
    record Row(int dim, int length, double temperature, int sweeps, double absM, double m2, double m4, double energy,
            double binder, double binderError, double nsPerSpin) {
    }

    @Override
    public Integer call() throws IOException {
        if (png != null) {
            Plots.requireFonts();
        }
        PrintWriter out = command.commandLine().getOut();
        Measured m = fromCsv != null ? readCsv(fromCsv) : measure();
        List<Row> rows = m.rows();
        int dim = rows.get(0).dim();
        int sweeps = rows.get(0).sweeps();
        String ran = m.backend();
        String algorithmName = m.algorithm();
        List<Crossed> crossings = crossings(rows, m.sizeCount(), rows.size() / m.sizeCount(), seed);
        double exact = dim == 2 ? 2 / Math.log(1 + Math.sqrt(2)) : Double.NaN;

        try (OutputFile.Group outputs = new OutputFile.Group()) {
            if (csv != null) {
                writeCsv(outputs, csv, rows, ran, algorithmName);
            }
            if (png != null) {
                Map<String, List<Crossing.Point>> curves = new LinkedHashMap<>();
                for (Row r : rows) {
                    curves.computeIfAbsent("L = " + r.length(), k -> new ArrayList<>())
                            .add(new Crossing.Point(r.temperature(), r.binder(), r.binderError()));
                }
                Plots.write(outputs, png, "Ising model " + dim + "D, Swendsen-Wang", "T",
                        "Binder cumulant U", curves, exact, "exact T_c", false);
            }
            outputs.commit();
        }
        if (json) {
            ObjectNode result = Json.object();
            ArrayNode list = result.putArray("results");
            for (Row r : rows) {
                ObjectNode o = list.addObject().put("dim", r.dim()).put("L", r.length());
                o.set("T", Json.fixed(r.temperature(), 6));
                o.put("sweeps", r.sweeps());
                o.set("absM", Json.fixed(r.absM(), 6));
                o.set("m2", Json.fixed(r.m2(), 6));
                o.set("m4", Json.fixed(r.m4(), 6));
                o.set("energy", Json.fixed(r.energy(), 6));
                o.set("binder", Json.fixed(r.binder(), 6));
                o.set("binderError", Json.fixed(r.binderError(), 6));
                o.set("nsPerSpinUpdate", Json.fixed(r.nsPerSpin(), 4));
            }
            ArrayNode crossed = result.putArray("crossings");
            for (Crossed c : crossings) {
                ObjectNode o = crossed.addObject().put("L1", c.small()).put("L2", c.large());
                o.set("T", c.estimate() == null ? null : Json.number(c.estimate().x()));
                o.set("error", c.estimate() == null ? null : Json.number(c.estimate().sigma()));
            }
            out.println(Json.write(result));
            return Main.OK;
        }
        out.printf("Ising model, %dD periodic, Swendsen-Wang: %d measured sweeps per point, backend %s, algorithm %s%n",
                dim, sweeps, ran, algorithmName);
        out.printf("%6s %8s %8s %8s %10s %8s %12s%n", "L", "T", "|m|", "e", "U", "error", "ns/spin");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%6d %8.4f %8.4f %8.4f %10.5f %8.5f %12.3f%n", r.length(), r.temperature(),
                    r.absM(), r.energy(), r.binder(), r.binderError(), r.nsPerSpin());
        }
        for (Crossed c : crossings) {
            out.printf(Locale.ROOT, "Binder crossing L=%d / L=%d: T = %s%n", c.small(), c.large(),
                    c.estimate() == null ? "none in the window"
                            : String.format(Locale.ROOT, "%.4f +- %.4f", c.estimate().x(), c.estimate().sigma()));
        }
        if (!Double.isNaN(exact)) {
            out.printf(Locale.ROOT, "exact T_c: %.6f%n", exact);
        }
        return Main.OK;
    }

    /** The rows of a run with its backend, algorithm and number of sizes. */
    record Measured(List<Row> rows, String backend, String algorithm, int sizeCount) {
    }

    private Measured measure() {
        if (dim != 2 && dim != 3) {
            throw new UsageException("--dim must be 2 or 3, got " + dim);
        }
        List<Long> lengths = this.lengths.list();
        for (long length : lengths) {
            if (length < 3 || length > 65536) {
                throw new UsageException("--L values must lie in [3, 65536], got " + length);
            }
        }
        List<Double> temperatures = this.temperatures != null ? this.temperatures.list()
                : Grids.values(dim == 2 ? "2.2:2.34:0.02" : "4.4:4.6:0.05");
        for (double t : temperatures) {
            if (!(t > 0)) {
                throw new UsageException("--T values must be positive, got " + t);
            }
        }
        int warmup = this.warmup != null ? this.warmup : sweeps / 5;
        if (sweeps < BLOCKS || warmup < 0) {
            throw new UsageException("--sweeps must be at least " + BLOCKS + " and --warmup not negative");
        }
        LatticeKind kind = dim == 2 ? LatticeKind.SQUARE : LatticeKind.SIMPLE_CUBIC;

        List<Row> rows = new ArrayList<>();
        String ran = null;
        try (Progress progress = progressOptions.start(main, "ising",
                (long) lengths.size() * temperatures.size() * (sweeps + warmup))) {
            for (long length : lengths) {
                try (Lattice lattice = Lattice.create(kind, (int) length, true, seed);
                        SwendsenWang chain = SwendsenWang.create(lattice, backend, algorithm, seed)) {
                    ran = CliNames.of(chain.backend());
                    // the temperatures in the order given: each starts from the previous one's state
                    for (double t : temperatures) {
                        String what = String.format(Locale.ROOT, "L=%d T=%.4f", length, t);
                        for (int done = 0; done < warmup; done += CHUNK) {
                            int count = Math.min(CHUNK, warmup - done);
                            chain.sweep(t, count);
                            progress.advance(count, what);
                        }
                        double[] m = new double[sweeps];
                        double[] e = new double[sweeps];
                        double ms = 0;
                        for (int done = 0; done < sweeps; done += CHUNK) {
                            int count = Math.min(CHUNK, sweeps - done);
                            SwendsenWang.Sweeps s = chain.sweep(t, count);
                            System.arraycopy(s.magnetisation(), 0, m, done, count);
                            System.arraycopy(s.energy(), 0, e, done, count);
                            ms += s.totalMs();
                            progress.advance(count, what);
                        }
                        rows.add(row(dim, (int) length, t, m, e, ms * 1e6 / ((double) sweeps * lattice.siteCount())));
                    }
                }
            }
        }
        return new Measured(rows, ran, CliNames.of(algorithm), lengths.size());
    }

    /** The rows of a CSV written by --csv, for a new analysis or plot without running again. */
    static Measured readCsv(Path file) throws IOException {
        SweepCsv.Sweep<Row> csv = SweepCsv.read(file, "ising", CSV_HEADER, f -> new Row(Integer.parseInt(f[0]),
                Integer.parseInt(f[1]), Double.parseDouble(f[2]), Integer.parseInt(f[3]), Double.parseDouble(f[4]),
                Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
                Double.parseDouble(f[9]), Double.parseDouble(f[10])), Row::length, "T");
        return new Measured(csv.rows(), csv.backend(), csv.algorithm(), csv.sizeCount());
    }

    /** The averages of a chain segment; the Binder cumulant's error by a jackknife over blocks. */
    static Row row(int dim, int length, double t, double[] m, double[] e, double nsPerSpin) {
        int n = m.length;
        double[] blockM2 = new double[BLOCKS];
        double[] blockM4 = new double[BLOCKS];
        double absM = 0;
        double energy = 0;
        for (int i = 0; i < n; i++) {
            double m2 = m[i] * m[i];
            absM += Math.abs(m[i]);
            energy += e[i];
            int b = (int) ((long) i * BLOCKS / n);
            blockM2[b] += m2;
            blockM4[b] += m2 * m2;
        }
        double sumM2 = 0;
        double sumM4 = 0;
        for (int b = 0; b < BLOCKS; b++) {
            sumM2 += blockM2[b];
            sumM4 += blockM4[b];
        }
        double u = binder(sumM2 / n, sumM4 / n);
        double[] jack = new double[BLOCKS];
        double mean = 0;
        for (int b = 0; b < BLOCKS; b++) {
            int size = (int) ((long) (b + 1) * n / BLOCKS) - (int) ((long) b * n / BLOCKS);
            jack[b] = binder((sumM2 - blockM2[b]) / (n - size), (sumM4 - blockM4[b]) / (n - size));
            mean += jack[b] / BLOCKS;
        }
        double variance = 0;
        for (double j : jack) {
            variance += (j - mean) * (j - mean);
        }
        double error = Math.sqrt(variance * (BLOCKS - 1) / BLOCKS);
        return new Row(dim, length, t, n, absM / n, sumM2 / n, sumM4 / n, energy / n, u, error, nsPerSpin);
    }

    static double binder(double m2, double m4) {
        return 1 - m4 / (3 * m2 * m2);
    }

    /** The crossing of the Binder curves of two successive sizes. */
    record Crossed(long small, long large, Crossing.Estimate estimate) {
    }

    static List<Crossed> crossings(List<Row> rows, int sizeCount, int tCount, long seed) {
        List<Crossed> crossings = new ArrayList<>();
        for (int s = 0; s + 1 < sizeCount; s++) {
            List<Crossing.Point> a = rows.subList(s * tCount, (s + 1) * tCount).stream()
                    .map(r -> new Crossing.Point(r.temperature(), r.binder(), r.binderError())).toList();
            List<Crossing.Point> b = rows.subList((s + 1) * tCount, (s + 2) * tCount).stream()
                    .map(r -> new Crossing.Point(r.temperature(), r.binder(), r.binderError())).toList();
            crossings.add(new Crossed(rows.get(s * tCount).length(), rows.get((s + 1) * tCount).length(),
                    Crossing.estimate(a, b, 1000, seed + s)));
        }
        return crossings;
    }

    private static void writeCsv(OutputFile.Group outputs, Path file, List<Row> rows, String backend,
            String algorithm) throws IOException {
        SweepCsv.write(outputs, file, CSV_HEADER, rows, r -> String.format(Locale.ROOT,
                "%d,%d,%.6f,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f", r.dim(), r.length(), r.temperature(), r.sweeps(),
                r.absM(), r.m2(), r.m4(), r.energy(), r.binder(), r.binderError(), r.nsPerSpin()), backend, algorithm);
    }
}
