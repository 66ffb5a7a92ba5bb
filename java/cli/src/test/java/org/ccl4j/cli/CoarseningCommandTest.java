package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class CoarseningCommandTest {
    private static CliTestSupport.Result run(int expectedExit, String... args) {
        CliTestSupport.Result r = CliTestSupport.run(args);
        assertEquals(expectedExit, r.code(), r.err());
        return r;
    }

    @Test
    void theFitIsTheSlopeOverTheLaterHalfOfLogTime() {
        List<CoarseningCommand.Sample> samples = new ArrayList<>();
        samples.add(new CoarseningCommand.Sample(10, 0.1, 0, 0, 0, 0, 0)); // no domains yet: left out
        for (int k = 1; k <= 64; k++) {
            double t = k;
            double length = 2 * Math.cbrt(t) * (k < 8 ? 1.5 : 1); // early times off the power law
            samples.add(new CoarseningCommand.Sample(k * 100L, t, 5, 5, 5, length * length, length));
        }
        CoarseningCommand.Fit fit = CoarseningCommand.fit(samples);
        assertEquals(1.0 / 3, fit.exponent(), 1e-12);
        assertEquals(Math.log(2), fit.intercept(), 1e-12);
        assertEquals(8.0, fit.from(), 1e-12, "ln t from midway between ln 1 and ln 64");
        assertEquals(64.0, fit.to(), 1e-12);
        assertEquals(57, fit.points());
        assertTrue(Double.isNaN(CoarseningCommand.fit(samples.subList(0, 2)).exponent()));
    }

    @Test
    void domainsCoarsenAndAreWritten(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("runs/coarsening.csv");
        Files.createDirectories(csv.getParent());
        String json = run(Main.OK, "coarsening", "--size", "48x48", "--steps", "8000", "--every", "1000", "--dt",
                "0.02", "--concentration", "-0.3", "--backend", "cpu", "--seed", "3", "--csv", csv.toString(),
                "--json").out();
        JsonNode root = new ObjectMapper().readTree(json);
        assertEquals("48x48", root.get("size").asText());
        assertEquals("cpu", root.get("backend").asText());
        assertEquals(0.02, root.get("dt").asDouble());
        JsonNode samples = root.get("samples");
        assertEquals(8, samples.size());
        JsonNode third = samples.get(2);
        JsonNode last = samples.get(7);
        assertEquals(8000, last.get("steps").asLong());
        assertEquals(160.0, last.get("t").asDouble(), 1e-9);
        assertTrue(third.get("domains").asLong() > last.get("domains").asLong() && last.get("domains").asLong() > 0,
                json);
        assertTrue(last.get("meanSize").asDouble() > third.get("meanSize").asDouble(), json);
        assertEquals(Math.sqrt(last.get("meanSize").asDouble()), last.get("length").asDouble(), 1e-3);
        double exponent = root.get("fit").get("exponent").asDouble();
        assertTrue(exponent > 0 && exponent < 1, json);
        List<String> lines = Files.readAllLines(csv);
        assertEquals(9, lines.size());
        assertTrue(lines.get(0).startsWith("steps,time,domains,"), lines.get(0));
        assertTrue(lines.get(8).startsWith("8000,160.000000," + last.get("domains").asLong() + ","), lines.get(8));
        assertTrue(lines.get(8).endsWith(",cpu,auto"), lines.get(8));
        // read back: the same samples and fit, without running
        JsonNode again = new ObjectMapper().readTree(run(Main.OK, "coarsening", "--from-csv", csv.toString(), "--json")
                .out());
        assertEquals(samples, again.get("samples"));
        assertEquals(root.get("fit"), again.get("fit"));
        assertEquals("cpu", again.get("backend").asText());
        if (Plots.fontsAvailable()) {
            Path png = dir.resolve("coarsening.png");
            String text = run(Main.OK, "coarsening", "--size", "24x24x6", "--steps", "6000", "--every", "1500",
                    "--concentration", "-0.3", "--backend", "cpu", "--boundary", "no-flux", "--plot", png.toString())
                    .out();
            assertTrue(Files.size(png) > 1000);
            assertTrue(text.lines().anyMatch(l -> l.startsWith("      6000 ") && !l.contains(" 0.00 ")), text);
            // too early for domains: the plot says so instead of failing on an empty curve
            Path early = dir.resolve("early.png");
            String none = run(Main.OK, "coarsening", "--size", "24x24x6", "--steps", "200", "--every", "100",
                    "--backend", "cpu", "--plot", early.toString()).out();
            assertTrue(none.contains("(0 samples): NaN"), none);
            assertTrue(Files.size(early) > 1000);
        }
    }

    @Test
    void theTableEndsWithTheFit() {
        String text = run(Main.OK, "coarsening", "--size", "16x16x4", "--steps", "300", "--every", "100", "--backend",
                "cpu-serial", "--kernel", "shared").out();
        assertTrue(text.startsWith("Cahn-Hilliard 16x16x4 periodic, c0 = -0.4000"), text);
        assertTrue(text.contains("growth exponent of L"), text);
        assertEquals(2 + 3 + 2, text.lines().count(), text); // two headers, three samples, fit and times
    }

    @Test
    void mistakesAreUsageErrors() {
        run(Main.USAGE, "coarsening", "--every", "0");
        run(Main.USAGE, "coarsening", "--steps", "10", "--every", "20");
        run(Main.USAGE, "coarsening", "--boundary", "open");
        run(Main.USAGE, "coarsening", "--kernel", "texture");
        run(Main.USAGE, "coarsening", "--concentration", "1.5");
        run(Main.USAGE, "coarsening", "--backend", "java");
        run(Main.USAGE, "coarsening", "--size", "0x8");
        CliTestSupport.Result unstable = run(Main.USAGE, "coarsening", "--size", "8x8", "--steps", "1", "--every",
                "1", "--dt", "0.5", "--backend", "cpu");
        assertTrue(unstable.err().contains("stability limit"), unstable.err());
    }
}
