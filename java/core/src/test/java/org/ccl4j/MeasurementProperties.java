package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import org.ccl4j.testing.BackendLabelers;
import org.ccl4j.testing.Fields;

/**
 * The measurement columns and {@link Measurements} agree with a reference computed here from
 * breadth-first-search labels ({@link Fields#bfsLabels}) by the definitions themselves: moments
 * of the scaled cell centres in two passes, the inertia tensor's eigenvalues in closed form (2D) or
 * through the tensor's invariants (3D), scikit-image's perimeter by eroding
 * each component's mask, convolving its border with the weights 1, 2, 10 and looking the codes up,
 * and exposed faces cell by cell. Every mesh algorithm on every backend, every numbering, through
 * {@link ComponentLabeler#labelWithStatistics} and {@link MeshLabels#statistics}, with a random
 * anisotropic spacing. The GPU takes part when a CUDA device is present.
 */
class MeasurementProperties {
    private static final Map<Backend, ComponentLabeler> labelers = new EnumMap<>(Backend.class);
    private static final double TOLERANCE = 1e-9;

    @BeforeContainer
    static void openLabelers() {
        BackendLabelers.open(labelers, "the GPU measurements are skipped in MeasurementProperties");
    }

    @AfterContainer
    static void closeLabelers() {
        BackendLabelers.close(labelers);
    }

    @Provide
    Arbitrary<Fields.Case> cases() {
        return Fields.cases();
    }

    @Provide
    Arbitrary<Spacing> spacings() {
        Arbitrary<Double> s = Arbitraries.of(0.5, 1.0, 1.0, 2.0, 3.25);
        return net.jqwik.api.Combinators.combine(s, s, s).as(Spacing::new);
    }

    /** One component's expected measures. */
    private record Expected(long first, long size, double[][] moments, double perimeter, double perimeter8,
                            long[] faces) {
    }

    private static List<Expected> reference(int[] labels, int w, int h, int d) {
        Map<Integer, long[]> sums = new TreeMap<>();  // size, sum x, sum y, sum z
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] >= 0) {
                long[] s = sums.computeIfAbsent(labels[i], k -> new long[4]);
                s[0]++;
                s[1] += i % w;
                s[2] += i / w % h;
                s[3] += i / w / h;
            }
        }
        List<Expected> rows = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : sums.entrySet()) {
            int l = e.getKey();
            long[] s = e.getValue();
            double[] centre = {(double) s[1] / s[0], (double) s[2] / s[0], (double) s[3] / s[0]};
            double[][] m = new double[3][3];
            long[] faces = new long[3];
            for (int i = 0; i < labels.length; i++) {
                if (labels[i] != l) {
                    continue;
                }
                int[] c = {i % w, i / w % h, i / w / h};
                for (int a = 0; a < 3; a++) {
                    for (int b = 0; b < 3; b++) {
                        m[a][b] += (c[a] - centre[a]) * (c[b] - centre[b]);
                    }
                    for (int step : a == 2 && d == 1 ? new int[0] : new int[] {-1, 1}) {  // no z faces in 2D
                        int[] n = c.clone();
                        n[a] += step;
                        if (at(labels, w, h, d, n[0], n[1], n[2]) != l) {
                            faces[a]++;
                        }
                    }
                }
            }
            double p4 = d == 1 ? perimeter(labels, w, h, l, false) : 0;
            double p8 = d == 1 ? perimeter(labels, w, h, l, true) : 0;
            rows.add(new Expected(l, s[0], m, p4, p8, faces));
        }
        return rows;
    }

    private static int at(int[] labels, int w, int h, int d, int x, int y, int z) {
        return x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d ? -1 : labels[x + w * (y + h * z)];
    }

    /** scikit-image's perimeter of the mask of component l: erode, take the border, convolve, weigh the codes. */
    private static double perimeter(int[] labels, int w, int h, int l, boolean eight) {
        int[] border = new int[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (labels[x + w * y] != l) {
                    continue;
                }
                boolean eroded = true;
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        if ((eight || dx == 0 || dy == 0) && at(labels, w, h, 1, x + dx, y + dy, 0) != l) {
                            eroded = false;
                        }
                    }
                }
                border[x + w * y] = eroded ? 0 : 1;
            }
        }
        double[] weights = new double[50];
        for (int code : new int[] {5, 7, 15, 17, 25, 27}) {
            weights[code] = 1;
        }
        weights[21] = Math.sqrt(2);
        weights[33] = Math.sqrt(2);
        weights[13] = (1 + Math.sqrt(2)) / 2;
        weights[23] = (1 + Math.sqrt(2)) / 2;
        int[][] kernel = {{10, 2, 10}, {2, 1, 2}, {10, 2, 10}};
        double total = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int code = 0;
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx;
                        int ny = y + dy;
                        if (nx >= 0 && ny >= 0 && nx < w && ny < h) {
                            code += kernel[dy + 1][dx + 1] * border[nx + w * ny];
                        }
                    }
                }
                total += weights[code];
            }
        }
        return total;
    }

    /** The eigenvalues of a 2 x 2 symmetric tensor in closed form, largest first. */
    private static double[] eigenvalues(double[][] t) {
        double mean = (t[0][0] + t[1][1]) / 2;
        double r = Math.hypot((t[0][0] - t[1][1]) / 2, t[0][1]);
        return new double[] {Math.max(0, mean + r), Math.max(0, mean - r)};
    }

    /**
     * Checks 3D eigenvalues through the invariants of the tensor, which they determine: their sum
     * is its trace, the sum of their pairwise products the sum of its principal 2 x 2 minors, their
     * product its determinant; and they come largest first.
     */
    private static void assertEigenvalues3d(double[][] t, double[] e, double scale, String what) {
        double trace = t[0][0] + t[1][1] + t[2][2];
        double minors = t[0][0] * t[1][1] - t[0][1] * t[0][1] + t[0][0] * t[2][2] - t[0][2] * t[0][2]
                + t[1][1] * t[2][2] - t[1][2] * t[1][2];
        double det = t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[1][2]) - t[0][1] * (t[0][1] * t[2][2] - t[1][2] * t[0][2])
                + t[0][2] * (t[0][1] * t[1][2] - t[1][1] * t[0][2]);
        assertEquals(trace, e[0] + e[1] + e[2], TOLERANCE * Math.max(1, scale), what + ": eigenvalues' sum");
        assertEquals(minors, e[0] * e[1] + e[0] * e[2] + e[1] * e[2], TOLERANCE * Math.max(1, scale * scale),
                what + ": eigenvalues' products");
        assertEquals(det, e[0] * e[1] * e[2], TOLERANCE * Math.max(1, scale * scale * scale),
                what + ": eigenvalues' product");
        assertEquals(true, e[0] >= e[1] && e[1] >= e[2] && e[2] >= 0, what + ": eigenvalues in order");
    }

    private static void close(double want, double got, double scale, String what) {
        if (Double.isNaN(want)) {
            assertEquals(want, got, what);
            return;
        }
        assertEquals(want, got, TOLERANCE * Math.max(1, scale), what);
    }

    private static void assertMeasures(List<Expected> raster, MeshStatistics table, Spacing spacing, String what) {
        List<Expected> rows = new ArrayList<>(raster);
        if (table.numbering() == Numbering.SIZE) {
            rows.sort((a, b) -> Long.compare(b.size, a.size));  // stable: equal sizes stay in raster order
        }
        assertEquals(rows.size(), table.count(), what + ": rows");
        boolean threeD = table.depth() > 1;
        Measurements m = table.measurements(spacing);
        double[] s = {spacing.x(), spacing.y(), spacing.z()};
        int dims = threeD ? 3 : 2;
        for (int r = 0; r < rows.size(); r++) {
            Expected e = rows.get(r);
            String at = what + ", row " + r + " (first cell " + e.first + ")";
            assertEquals(e.first, table.first(r), at + ": first");
            double spread = 0;
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) {
                    double want = e.moments[a][b] * s[a] * s[b];
                    spread = Math.max(spread, Math.abs(want));
                    close(want, m.centralMoment(r, a, b), want, at + ": moment " + a + b);
                }
            }
            // the inertia tensor of the scaled coordinates, divided by the cells
            double[][] t = new double[dims][dims];
            double trace = 0;
            for (int a = 0; a < dims; a++) {
                trace += e.moments[a][a] * s[a] * s[a];
            }
            for (int a = 0; a < dims; a++) {
                for (int b = 0; b < dims; b++) {
                    t[a][b] = (a == b ? trace - e.moments[a][a] * s[a] * s[a] : -e.moments[a][b] * s[a] * s[b]) / e.size;
                }
            }
            double[][] got = m.inertiaTensor(r);
            double scale = spread / e.size;
            for (int a = 0; a < dims; a++) {
                for (int b = 0; b < dims; b++) {
                    close(t[a][b], got[a][b], scale, at + ": inertia tensor " + a + b);
                }
            }
            double[] eigen = m.inertiaTensorEigenvalues(r);
            double[] l = threeD ? eigen : eigenvalues(t);
            if (threeD) {
                assertEigenvalues3d(t, eigen, scale, at);
            }
            for (int i = 0; i < dims; i++) {
                close(l[i], eigen[i], scale, at + ": eigenvalue " + i);
            }
            double cell = s[0] * s[1] * (threeD ? s[2] : 1);
            close(e.size * cell, m.area(r), e.size * cell, at + ": area");
            double diameter = threeD ? Math.cbrt(6 * e.size * cell / Math.PI) : Math.sqrt(4 * e.size * cell / Math.PI);
            close(diameter, m.equivalentDiameterArea(r), diameter, at + ": equivalent diameter");
            if (threeD) {
                // lengths under a root that rounding may make negative, compared through their squares
                double major = 10 * (l[0] + l[1] - l[2]);
                assertEquals(major, Math.pow(m.axisMajorLength(r), 2), 1e-7 * Math.max(1, 10 * scale), at + ": major");
                assertEquals(Double.NaN, m.orientation(r), at + ": orientation in 3D");
                assertEquals(Double.NaN, m.eccentricity(r), at + ": eccentricity in 3D");
                assertEquals(Double.NaN, m.perimeter(r), at + ": perimeter in 3D");
            } else {
                assertEquals(16 * l[0], Math.pow(m.axisMajorLength(r), 2), 1e-7 * Math.max(1, 16 * scale), at + ": major");
                assertEquals(16 * l[1], Math.pow(m.axisMinorLength(r), 2), 1e-7 * Math.max(1, 16 * scale), at + ": minor");
                // orientation: the angle from y to the major axis; a = T[y][y], b = T[x][y], c = T[x][x]
                double a = t[1][1];
                double b = t[0][1];
                double c = t[0][0];
                double orientation = Math.abs(a - c) <= 1e-12 * Math.max(1, scale)
                        ? Double.NaN : 0.5 * Math.atan2(-2 * b, c - a);
                if (!Double.isNaN(orientation) && Math.abs(Math.abs(orientation) - Math.PI / 2) > 1e-6) {
                    close(orientation, m.orientation(r), 1, at + ": orientation");
                }
                boolean isotropic = s[0] == s[1];
                close(isotropic ? e.perimeter * s[0] : Double.NaN, m.perimeter(r), e.perimeter * s[0], at + ": perimeter");
                close(isotropic ? e.perimeter8 * s[0] : Double.NaN, m.perimeter8(r), e.perimeter8 * s[0],
                        at + ": perimeter 8");
            }
            double surface = e.faces[0] * s[1] * (threeD ? s[2] : 1) + e.faces[1] * s[0] * (threeD ? s[2] : 1)
                    + e.faces[2] * s[0] * s[1];
            close(surface, m.surfaceArea(r), surface, at + ": surface area");
        }
    }

    private record Run(Backend backend, MeshAlgorithm algorithm) {
    }

    private static List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        runs.add(new Run(Backend.JAVA, MeshAlgorithm.AUTO));
        for (Backend b : labelers.keySet()) {
            if (b == Backend.JAVA) {
                continue;
            }
            for (MeshAlgorithm a : MeshAlgorithm.values()) {
                if (a != MeshAlgorithm.AUTO && a != MeshAlgorithm.JAVA && a.runsOn(b)) {
                    runs.add(new Run(b, a));
                }
            }
        }
        return runs;
    }

    @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
    void labellingWithMeasurementsMatchesTheDefinitions(@ForAll("cases") Fields.Case c, @ForAll Numbering numbering,
                                                        @ForAll("spacings") Spacing spacing) {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = c.grid(arena);
            List<Expected> raster = reference(Fields.bfsLabels(grid, c.options()), grid.width(), grid.height(),
                    grid.depth());
            StatisticsOptions options = StatisticsOptions.defaults().withNumbering(numbering).withMeasurements();
            for (Run run : runs()) {
                ComponentLabeler labeler = labelers.get(run.backend());
                MeshOptions mesh = c.options().withAlgorithm(run.algorithm());
                try (MeshStatistics fused = labeler.labelWithStatistics(grid, mesh, options);
                     MeshStatistics later = labeler.label(grid, mesh, arena).statistics(grid, mesh, options)) {
                    assertMeasures(raster, fused, spacing, run + " " + numbering + " " + spacing + " on " + c);
                    assertMeasures(raster, later, spacing, run + " later, " + numbering + " " + spacing + " on " + c);
                }
            }
        }
    }

    @Example
    void aTableWithoutMeasurementsSaysHowToGetThem() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 4, 3, 1);
            grid.set(5, 1);
            for (ComponentLabeler labeler : labelers.values()) {
                try (MeshStatistics table = labeler.labelWithStatistics(grid, MeshOptions.defaults(),
                        StatisticsOptions.defaults())) {
                    assertFalse(table.measured());
                    IllegalStateException e = assertThrows(IllegalStateException.class, table::measurements);
                    assertEquals(true, e.getMessage().contains("withMeasurements"), e.getMessage());
                    IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
                            () -> table.column(StatisticsColumn.MOMENT_XX));
                    assertEquals(true, c.getMessage().contains("withMeasurements"), c.getMessage());
                }
            }
        }
    }

    @Example
    void aBarAndADiagonalChainHaveTheirWorkedOutMeasures() {
        try (Arena arena = Arena.ofConfined()) {
            Grid grid = Grid.allocate(arena, Grid.CellType.U8, 9, 9, 1);
            for (int x = 1; x < 8; x++) {
                grid.set(x, 1, 0, 1);  // a bar of 7 cells along x in row 1
            }
            for (int i = 1; i < 6; i++) {
                grid.set(i, i + 2, 0, 1);  // a chain of 5 cells down the diagonal, from (1, 3)
            }
            for (ComponentLabeler labeler : labelers.values()) {
                try (MeshStatistics table = labeler.labelWithStatistics(grid, MeshOptions.defaults().withConnectivity(8),
                        StatisticsOptions.defaults().withMeasurements())) {
                    String what = labeler.backend().toString();
                    assertEquals(2, table.count(), what);
                    Measurements m = table.measurements();
                    // the bar: mu_xx = (7^3 - 7) / 12 = 28, l1 = 28 / 7 = 4, l2 = 0, along x: pi / 2 from y;
                    // its 5 inner cells weigh 1 (code 5), its ends nothing (code 3)
                    assertEquals(28.0, m.centralMoment(0, 0, 0), what);
                    assertEquals(8.0, m.axisMajorLength(0), what);
                    assertEquals(0.0, m.axisMinorLength(0), what);
                    assertEquals(1.0, m.eccentricity(0), what);
                    assertEquals(Math.PI / 2, m.orientation(0), 1e-15, what);
                    assertEquals(5.0, m.perimeter(0), what);
                    assertEquals(2 * 7 + 2, m.surfaceArea(0), what);
                    // the chain: offsets -2 .. 2 on both axes, mu_xx = mu_yy = mu_xy = 10, tensor
                    // [[2, -2], [-2, 2]]: l1 = 4, equal diagonal and b < 0 give pi / 4; its 3 inner
                    // cells weigh sqrt(2) (code 21), its ends nothing (code 11)
                    assertEquals(10.0, m.centralMoment(1, 0, 1), what);
                    assertEquals(8.0, m.axisMajorLength(1), 1e-12, what);
                    assertEquals(Math.PI / 4, m.orientation(1), what);
                    assertEquals(3 * Math.sqrt(2), m.perimeter(1), 1e-12, what);
                    assertEquals(2 * 5 + 2 * 5, m.surfaceArea(1), what);
                    // spacing scales: x twice as long makes mu_xx four times and the area twice
                    Measurements scaled = table.measurements(Spacing.of(2, 1));
                    assertEquals(112.0, scaled.centralMoment(0, 0, 0), what);
                    assertEquals(14.0, scaled.area(0), what);
                    assertEquals(Double.NaN, scaled.perimeter(0), what);  // anisotropic: scikit-image raises
                }
            }
        }
    }
}
