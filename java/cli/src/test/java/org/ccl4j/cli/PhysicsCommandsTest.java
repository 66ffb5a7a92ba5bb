package org.ccl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhysicsCommandsTest {
    private static CliTestSupport.Result execute(int expectedExit, String... args) {
        CliTestSupport.Result r = CliTestSupport.run(args);
        assertEquals(expectedExit, r.code(), r.err());
        return r;
    }

    private static String run(int expectedExit, String... args) {
        return execute(expectedExit, args).out();
    }

    @Test
    void crossingOfTwoLinesIsFound() {
        List<Crossing.Point> a = new ArrayList<>();
        List<Crossing.Point> b = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            double x = i / 10.0;
            a.add(new Crossing.Point(x, 0.2 + 0.5 * x, 0.01));
            b.add(new Crossing.Point(x, 2 * x - 0.43, 0.01));
        }
        Crossing.Estimate e = Crossing.estimate(a, b, 200, 1);
        assertNotNull(e);
        assertEquals(0.42, e.x(), 1e-12);
        assertTrue(e.sigma() > 0 && e.sigma() < 0.02, "sigma " + e.sigma());
    }

    @Test
    void honeycombCurvesCrossNearTheThreshold() {
        List<PercolationCommand.Row> rows = new ArrayList<>();
        String json = run(Main.OK, "percolation", "--lattice", "honeycomb", "--sizes", "576,2304", "--p", "0.60:0.71:0.01",
                "--trials", "300", "--backend", "cpu", "--json");
        assertTrue(json.startsWith("{\"results\":[{\"lattice\":\"honeycomb\",\"size\":576,\"p\":0.600000,\"trials\":300,"
                + "\"spanning\":"), json);
        for (String item : json.substring(json.indexOf('[') + 2, json.lastIndexOf(']') - 1).split("\\},\\{")) {
            String[] f = item.split(",");
            rows.add(new PercolationCommand.Row("honeycomb", Long.parseLong(f[1].split(":")[1]), 0,
                    Double.parseDouble(f[2].split(":")[1]), 300, 0, Double.parseDouble(f[4].split(":")[1]),
                    Double.parseDouble(f[5].split(":")[1]), 0, 0));
        }
        assertEquals(24, rows.size());
        List<PercolationCommand.Crossed> crossings = PercolationCommand.crossings(rows, 2, 12, 1);
        double p = crossings.get(0).estimate().x();
        assertEquals(1 - 2 * Math.sin(Math.PI / 18), p, 0.03, "crossing " + p);
    }

    @Test
    void isingWritesCsv(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("ising.csv");
        String text = run(Main.OK, "ising", "--dim", "2", "--L", "8,12", "--T", "1.5,2.27,4", "--sweeps", "200",
                "--backend", "cpu", "--csv", csv.toString());
        assertTrue(text.contains("Binder crossing L=8 / L=12"), text);
        List<String> lines = Files.readAllLines(csv);
        assertEquals(7, lines.size());
        String[] cold = lines.get(1).split(",");
        String[] hot = lines.get(3).split(",");
        assertTrue(Double.parseDouble(cold[4]) > 0.95, "|m| at T = 1.5: " + cold[4]);
        assertTrue(Double.parseDouble(hot[4]) < 0.3, "|m| at T = 4: " + hot[4]);
    }

    /** Where the runtime has fonts the plot is drawn; where it has none, --png is refused before any work. */
    @Test
    void isingPlotIsDrawnOrRefusedClearly(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("ising.png");
        String[] args = {"ising", "--dim", "2", "--L", "8", "--T", "2,3", "--sweeps", "50", "--backend", "cpu",
                "--png", png.toString()};
        if (Plots.fontsAvailable()) {
            run(Main.OK, args);
            assertTrue(Files.size(png) > 1000);
        } else {
            String err = execute(Main.USAGE, args).err();
            assertTrue(err.contains("no fonts"), err);
            assertFalse(Files.exists(png));
        }
    }

    @Test
    void aSweepReadBackFromItsCsvReportsWhatTheRunDid(@TempDir Path dir) throws Exception {
        Path percolation = dir.resolve("percolation.csv");
        String ran = run(Main.OK, "percolation", "--lattice", "triangle", "--sizes", "64,256", "--p", "0.3:0.4:0.05",
                "--trials", "20", "--backend", "cpu", "--csv", percolation.toString(), "--json");
        assertEquals(ran, run(Main.OK, "percolation", "--from-csv", percolation.toString(), "--json"));
        Path ising = dir.resolve("ising.csv");
        ran = run(Main.OK, "ising", "--dim", "2", "--L", "4,6", "--T", "2,3", "--sweeps", "20", "--backend", "cpu",
                "--csv", ising.toString(), "--json");
        assertEquals(ran, run(Main.OK, "ising", "--from-csv", ising.toString(), "--json"));
        assertEquals(ran, run(Main.OK, "ising", "--from-csv", ising.toString(), "--csv", ising.toString(), "--json"),
                "written again from what it read");
        Files.writeString(ising, Files.readString(ising).replace("\n2,6,", "\n2,six,"));
        assertTrue(run(Main.INVALID_INPUT, "ising", "--from-csv", ising.toString()).isEmpty());
        run(Main.INVALID_INPUT, "percolation", "--from-csv", ising.toString());
    }

    @Test
    void badOptionsAreUsageErrors() {
        run(Main.USAGE, "percolation", "--lattice", "kagome");
        run(Main.USAGE, "percolation", "--p", "0.5:0.4:0.1");
        run(Main.USAGE, "percolation", "--sizes", "2^x");
        run(Main.USAGE, "ising", "--dim", "4");
    }
}
