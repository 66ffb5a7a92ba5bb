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

import org.ccl4j.Backend;
import org.ccl4j.GridDims;
import org.ccl4j.physics.CahnHilliard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ccl4j coarsening}: a quenched alloy under the Cahn-Hilliard equation ({@link CahnHilliard}),
 * its domains (c above a threshold) labelled every K steps where the field lies: their number, mean
 * size and length L (the mean size's square root in 2D, cube root in 3D), and the late-time growth
 * exponent of L, which Lifshitz-Slyozov coarsening takes to 1/3.
 */
@Command(name = "coarsening", mixinStandardHelpOptions = true,
        description = "Cahn-Hilliard phase separation: the domains labelled every K steps (count, mean size,"
        + " length L) and the late-time growth exponent of L (Lifshitz-Slyozov: 1/3).")
final class CoarseningCommand implements Callable<Integer> {
    private static final String CSV_HEADER = "steps,time,domains,foreground,largest,mean_size,length,backend,kernel";

    @Spec
    private CommandSpec command;

    @ParentCommand
    private Main main;

    @Option(names = "--size", paramLabel = "WxH[xD]", defaultValue = "256x256",
            description = "The field (default: ${DEFAULT-VALUE}); D > 1 is 3D.")
    private GridDims size;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "20000",
            description = "Runge-Kutta steps in all (default: ${DEFAULT-VALUE}).")
    private long steps;

    @Option(names = "--every", paramLabel = "K", defaultValue = "500",
            description = "Label the domains every K steps (default: ${DEFAULT-VALUE}).")
    private long every;

    @Option(names = "--concentration", paramLabel = "C0", defaultValue = "-0.4",
            description = "Mean concentration in [-1, 1]; the domains are the minority phase c > threshold when"
                    + " C0 < 0 (default: ${DEFAULT-VALUE}, 30 %% of the cells).")
    private double concentration;

    @Option(names = "--noise", paramLabel = "A", defaultValue = "0.05",
            description = "Amplitude of the quench's uniform noise (default: ${DEFAULT-VALUE}).")
    private double noise;

    @Option(names = "--dt", paramLabel = "DT", defaultValue = "0",
            description = "Time step; 0 for the library's default, 0.01 (2D stability limit 0.025, 3D 0.0119).")
    private double dt;

    @Option(names = "--boundary", paramLabel = "periodic|no-flux", defaultValue = "periodic",
            description = "Periodic or closed (no-flux) walls (default: ${DEFAULT-VALUE}).")
    private String boundary;

    @Option(names = "--kernel", paramLabel = "auto|global|shared", defaultValue = "auto",
            description = "The GPU kernel: global memory or shared-memory tiles (default: ${DEFAULT-VALUE}).")
    private String kernel;

    @Option(names = "--threshold", paramLabel = "T", defaultValue = "0",
            description = "A domain is a cluster of cells with c > T (default: ${DEFAULT-VALUE}).")
    private double threshold;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Philox key of the quench (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "auto",
            completionCandidates = Converters.NativeBackendNames.class,
            description = "Where to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Backend backend;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the samples as CSV.")
    private Path csv;

    @Option(names = {"--plot", "--png"}, paramLabel = "FILE", description = "Plot ln L against ln t with the fit.")
    private Path plot;

    @Option(names = "--from-csv", paramLabel = "FILE", description = "Fit and plot the samples of a CSV written by"
            + " --csv instead of running (a plot drawn later on a machine with fonts).")
    private Path fromCsv;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    private boolean json;

    @Mixin
    private Progress.Options progressOptions;

    /** The domains after {@code steps} steps, at time {@code time}. */
    record Sample(long steps, double time, long domains, long foreground, long largest, double meanSize,
            double length) {
    }

    /** The least-squares slope of ln L against ln t over {@code points} samples from {@code from} to {@code to}. */
    record Fit(double exponent, double intercept, double from, double to, int points) {
    }

    @Override
    public Integer call() throws IOException {
        if (fromCsv != null) {
            return fromCsv();
        }
        checkOptions();
        if (plot != null) {
            Plots.requireFonts();
            OutputFile.check(plot);
        }
        if (csv != null) {
            OutputFile.check(csv);
        }
        CahnHilliard.Parameters parameters = CahnHilliard.Parameters.defaults()
                .withBoundary(boundary.equals("periodic") ? CahnHilliard.Boundary.PERIODIC
                        : CahnHilliard.Boundary.NO_FLUX)
                .withKernel(CahnHilliard.Kernel.valueOf(kernel.toUpperCase(Locale.ROOT)))
                .withDt(dt);
        List<Sample> samples = new ArrayList<>();
        double stepMs = 0;
        double labelMs = 0;
        String ran;
        CahnHilliard.Parameters resolved;
        try (CahnHilliard field = UsageException.whenInvalid(() -> CahnHilliard.create(size.width(), size.height(),
                size.depth(), parameters, backend));
                Progress progress = progressOptions.start(main, "coarsening", steps)) {
            ran = CliNames.of(field.backend());
            resolved = field.parameters();
            field.init(concentration, noise, seed);
            for (long done = 0; done < steps;) {
                long count = Math.min(every, steps - done);
                stepMs += field.step(count);
                done += count;
                CahnHilliard.Domains d = field.label(threshold);
                labelMs += d.totalMs();
                samples.add(new Sample(done, done * resolved.dt(), d.count(), d.foreground(), d.largest(),
                        d.meanSize(), d.length()));
                progress.advance(count, String.format(Locale.ROOT, "t=%.1f", done * resolved.dt()));
            }
        }
        Fit fit = fit(samples);
        String kernelName = resolved.kernel().name().toLowerCase(Locale.ROOT);
        try (OutputFile.Group outputs = new OutputFile.Group()) {
            if (csv != null) {
                SweepCsv.write(outputs, csv, CSV_HEADER, samples, s -> String.format(Locale.ROOT,
                        "%d,%.6f,%d,%d,%d,%.6f,%.6f", s.steps(), s.time(), s.domains(), s.foreground(), s.largest(),
                        s.meanSize(), s.length()), ran, kernelName);
            }
            if (plot != null) {
                writePlot(outputs, plot, samples, fit);
            }
            outputs.commit();
        }
        PrintWriter out = command.commandLine().getOut();
        if (json) {
            ObjectNode result = Json.object();
            result.put("size", size.toString()).put("steps", steps).put("every", every);
            result.set("concentration", Json.fixed(concentration, 6));
            result.set("noise", Json.fixed(noise, 6));
            result.set("dt", Json.fixed(resolved.dt(), 6));
            result.put("boundary", boundary).put("seed", seed).put("backend", ran).put("kernel", kernelName);
            addSamples(result, samples, fit);
            ObjectNode timings = result.putObject("timingsMs");
            timings.set("steps", Json.number(stepMs));
            timings.set("labelling", Json.number(labelMs));
            out.println(Json.write(result));
            return Main.OK;
        }
        out.printf(Locale.ROOT, "Cahn-Hilliard %s %s, c0 = %.4f, noise %.4f, dt %.4f, seed %d: backend %s, kernel %s%n",
                size, boundary, concentration, noise, resolved.dt(), seed, ran, kernelName);
        printSamples(out, samples, fit);
        out.printf(Locale.ROOT, "time: %.1f ms integrating (%.4f ms per step), %.1f ms labelling (%.3f ms per"
                + " labelling)%n", stepMs, stepMs / steps, labelMs, labelMs / samples.size());
        return Main.OK;
    }

    /** --from-csv: the samples of an earlier run, their fit, table or JSON, and the plot. */
    private int fromCsv() throws IOException {
        if (plot != null) {
            Plots.requireFonts();
            OutputFile.check(plot);
        }
        SweepCsv.Sweep<Sample> csv = SweepCsv.read(fromCsv, "coarsening", CSV_HEADER,
                f -> new Sample(Long.parseLong(f[0]), Double.parseDouble(f[1]), Long.parseLong(f[2]),
                        Long.parseLong(f[3]), Long.parseLong(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6])),
                r -> 0, "steps");
        List<Sample> samples = csv.rows();
        Fit fit = fit(samples);
        if (plot != null) {
            try (OutputFile.Group output = new OutputFile.Group()) {
                writePlot(output, plot, samples, fit);
                output.commit();
            }
        }
        PrintWriter out = command.commandLine().getOut();
        if (json) {
            ObjectNode result = Json.object().put("fromCsv", fromCsv.toString()).put("backend", csv.backend())
                    .put("kernel", csv.algorithm());
            addSamples(result, samples, fit);
            out.println(Json.write(result));
            return Main.OK;
        }
        out.printf("Cahn-Hilliard samples of %s: backend %s, kernel %s%n", fromCsv, csv.backend(), csv.algorithm());
        printSamples(out, samples, fit);
        return Main.OK;
    }

    /** Adds "samples" and "fit" to a JSON result. */
    private static void addSamples(ObjectNode result, List<Sample> samples, Fit fit) {
        ArrayNode list = result.putArray("samples");
        for (Sample s : samples) {
            ObjectNode o = list.addObject().put("steps", s.steps());
            o.set("t", Json.fixed(s.time(), 4));
            o.put("domains", s.domains()).put("foreground", s.foreground()).put("largest", s.largest());
            o.set("meanSize", Json.fixed(s.meanSize(), 4));
            o.set("length", Json.fixed(s.length(), 4));
        }
        ObjectNode f = result.putObject("fit");
        f.set("exponent", Json.fixed(fit.exponent(), 4));
        f.set("from", Json.fixed(fit.from(), 4));
        f.set("to", Json.fixed(fit.to(), 4));
        f.put("points", fit.points());
    }

    /** The samples as a table, and the fit. */
    private static void printSamples(PrintWriter out, List<Sample> samples, Fit fit) {
        out.printf("%10s %12s %10s %12s %10s %10s%n", "steps", "t", "domains", "mean size", "L", "largest");
        for (Sample s : samples) {
            out.printf(Locale.ROOT, "%10d %12.2f %10d %12.2f %10.4f %10d%n", s.steps(), s.time(), s.domains(),
                    s.meanSize(), s.length(), s.largest());
        }
        out.printf(Locale.ROOT, "growth exponent of L, log-log least squares over t in [%.2f, %.2f] (%d samples):"
                + " %.4f (Lifshitz-Slyozov: 1/3)%n", fit.from(), fit.to(), fit.points(), fit.exponent());
    }

    private void checkOptions() {
        if (steps < 1 || every < 1 || every > steps) {
            throw new UsageException("--steps must be positive and --every in 1.." + Math.max(1, steps) + ", got "
                    + steps + " and " + every);
        }
        if (!(concentration >= -1 && concentration <= 1)) {
            throw new UsageException("--concentration must lie in [-1, 1], got " + concentration);
        }
        if (!(noise >= 0 && noise <= 1)) {
            throw new UsageException("--noise must lie in [0, 1], got " + noise);
        }
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            throw new UsageException("--dt must be positive (0 for the default), got " + dt);
        }
        if (!Double.isFinite(threshold)) {
            throw new UsageException("--threshold must be finite, got " + threshold);
        }
        if (!boundary.equals("periodic") && !boundary.equals("no-flux")) {
            throw new UsageException("--boundary must be periodic or no-flux, got '" + boundary + "'");
        }
        if (!List.of("auto", "global", "shared").contains(kernel)) {
            throw new UsageException("--kernel must be auto, global or shared, got '" + kernel + "'");
        }
        if (backend == Backend.JAVA) {
            throw new UsageException("--backend java: the Cahn-Hilliard field runs natively (auto, cuda, cpu or"
                    + " cpu-serial)");
        }
    }

    /**
     * The growth exponent: the least-squares slope of ln L against ln t over the samples in the later
     * half of the run's logarithmic time range (those with ln t at least midway between the first
     * and the last sample's), where coarsening has taken over from the early separation. NaN when
     * fewer than two samples with domains lie there.
     */
    static Fit fit(List<Sample> samples) {
        List<Sample> found = samples.stream().filter(s -> s.domains() > 0).toList();
        if (found.size() < 2) {
            return new Fit(Double.NaN, Double.NaN, Double.NaN, Double.NaN, found.size());
        }
        double middle = (Math.log(found.getFirst().time()) + Math.log(found.getLast().time())) / 2;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        int n = 0;
        double from = Double.NaN;
        for (Sample s : found) {
            double x = Math.log(s.time());
            if (x < middle) {
                continue;
            }
            if (n == 0) {
                from = s.time();
            }
            double y = Math.log(s.length());
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
            n++;
        }
        double denominator = n * sxx - sx * sx;
        if (n < 2 || denominator <= 0) {
            return new Fit(Double.NaN, Double.NaN, from, found.getLast().time(), n);
        }
        double slope = (n * sxy - sx * sy) / denominator;
        return new Fit(slope, (sy - slope * sx) / n, from, found.getLast().time(), n);
    }

    private static void writePlot(OutputFile.Group outputs, Path file, List<Sample> samples, Fit fit)
            throws IOException {
        Map<String, List<Crossing.Point>> curves = new LinkedHashMap<>();
        List<Crossing.Point> measured = new ArrayList<>();
        for (Sample s : samples) {
            if (s.domains() > 0) {
                measured.add(new Crossing.Point(Math.log(s.time()), Math.log(s.length()), 0));
            }
        }
        if (measured.isEmpty()) {
            // nothing above the threshold yet (too few steps): the plot shows that, not an empty axis
            curves.put("domains", samples.stream().map(s -> new Crossing.Point(s.time(), s.domains(), 0)).toList());
            Plots.write(outputs, file, "Cahn-Hilliard coarsening: no domains above the threshold yet", "t", "domains",
                    curves, Double.NaN, "", true);
            return;
        }
        curves.put("ln L (L = mean domain size^(1/d), cells)", measured);
        if (!Double.isNaN(fit.exponent())) {
            double a = Math.log(fit.from());
            double b = Math.log(fit.to());
            curves.put(String.format(Locale.ROOT, "fit: L ~ t^%.3f", fit.exponent()),
                    List.of(new Crossing.Point(a, fit.intercept() + fit.exponent() * a, 0),
                            new Crossing.Point(b, fit.intercept() + fit.exponent() * b, 0)));
        }
        Plots.write(outputs, file, "Cahn-Hilliard coarsening", "ln t", "ln L", curves, Double.NaN, "", true);
    }
}
