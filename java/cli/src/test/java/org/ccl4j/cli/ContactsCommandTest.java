package org.ccl4j.cli;

import static org.ccl4j.cli.CliTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import org.ccl4j.cli.CliTestSupport.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mesh --contacts}: every line of the CSV against a labelling and a count written here
 * (breadth-first search for the canonical labels, every cell's whole neighbourhood for the
 * contacts), on every CPU and Java backend, and the errors.
 */
class ContactsCommandTest {
    private static final List<String> BACKENDS = List.of("cpu", "cpu-serial", "java");

    @TempDir
    Path dir;

    /** Canonical labels of same-value clusters: each cluster's smallest index, found by breadth-first search. */
    private static int[] canonical(int[] cells, int[] dims, int connectivity) {
        int[] label = new int[cells.length];
        Arrays.fill(label, -1);
        for (int start = 0; start < cells.length; start++) {
            if (label[start] >= 0) {
                continue;
            }
            label[start] = start;
            ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(start));
            while (!queue.isEmpty()) {
                int i = queue.poll();
                for (int j : neighbours(i, dims, connectivity)) {
                    if (label[j] < 0 && cells[j] == cells[i]) {
                        label[j] = start;
                        queue.add(j);
                    }
                }
            }
        }
        return label;
    }

    /** The neighbours of cell i on open boundaries, with the kind of each: -1 edge or corner, else the face's axis. */
    private static List<Integer> neighbours(int i, int[] dims, int connectivity) {
        List<Integer> out = new ArrayList<>();
        for (int[] n : neighbourKinds(i, dims, connectivity)) {
            out.add(n[0]);
        }
        return out;
    }

    private static List<int[]> neighbourKinds(int i, int[] dims, int connectivity) {
        int x = i % dims[0];
        int y = i / dims[0] % dims[1];
        int z = i / dims[0] / dims[1];
        List<int[]> out = new ArrayList<>();
        for (int dz = -1; dz <= 1; dz++) {
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int nonzero = Math.abs(dx) + Math.abs(dy) + Math.abs(dz);
                    boolean in = nonzero > 0 && (connectivity == 26 || connectivity == 8 || nonzero == 1
                            || (connectivity == 18 && nonzero == 2));
                    int nx = x + dx;
                    int ny = y + dy;
                    int nz = z + dz;
                    if (in && nx >= 0 && ny >= 0 && nz >= 0 && nx < dims[0] && ny < dims[1] && nz < dims[2]) {
                        out.add(new int[] {nx + dims[0] * (ny + dims[1] * nz),
                            nonzero > 1 ? -1 : dx != 0 ? 0 : dy != 0 ? 1 : 2});
                    }
                }
            }
        }
        return out;
    }

    /** The expected CSV lines: each touching pair of cells seen from both ends, halved. */
    private static List<String> reference(int[] cells, int[] dims, int connectivity, int contactConnectivity,
                                          double[] voxel) {
        int[] label = canonical(cells, dims, connectivity);
        TreeMap<Long, long[]> pairs = new TreeMap<>();
        for (int i = 0; i < cells.length; i++) {
            for (int[] n : neighbourKinds(i, dims, contactConnectivity)) {
                int a = label[i];
                int b = label[n[0]];
                if (a != b) {
                    long[] row = pairs.computeIfAbsent((long) Math.min(a, b) << 32 | Math.max(a, b), k -> new long[4]);
                    row[0]++;
                    if (n[1] >= 0) {
                        row[1 + n[1]]++;
                    }
                }
            }
        }
        List<String> lines = new ArrayList<>(List.of("label1,label2,contacts,x_faces,y_faces,z_faces,area"));
        boolean threeD = dims[2] > 1;
        pairs.forEach((key, c) -> {
            long x = c[1] / 2;
            long y = c[2] / 2;
            long z = c[3] / 2;
            double area = threeD ? x * (voxel[1] * voxel[2]) + y * (voxel[0] * voxel[2]) + z * (voxel[0] * voxel[1])
                    : x * voxel[1] + y * voxel[0];
            lines.add((key >>> 32) + "," + (key & 0xffffffffL) + "," + c[0] / 2 + "," + x + "," + y + "," + z + ","
                    + area);
        });
        return lines;
    }

    private Path raw(String name, int[] cells) throws IOException {
        byte[] bytes = new byte[cells.length];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) cells[i];
        }
        return Files.write(dir.resolve(name), bytes);
    }

    private static int[] random(int n, int values, long seed) {
        Random random = new Random(seed);
        int[] cells = new int[n];
        for (int i = 0; i < n; i++) {
            cells[i] = i > 0 && random.nextInt(3) > 0 ? cells[i - 1] : random.nextInt(values);
        }
        return cells;
    }

    private void assertContacts(List<String> expected, String... args) throws IOException {
        for (String backend : BACKENDS) {
            Path csv = dir.resolve("contacts-" + backend + ".csv");
            List<String> all = new ArrayList<>(List.of(args));
            all.addAll(List.of("--backend", backend, "--contacts", csv.toString()));
            Result r = run(all.toArray(String[]::new));
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("contacts: " + csv + " (" + (expected.size() - 1) + " pairs"), r.out());
            assertEquals(expected, Files.readAllLines(csv), backend + " " + all);
        }
    }

    @Test
    void volumeContactsAreThoseOfTheReference() throws IOException {
        int[] dims = {13, 9, 7};
        int[] cells = random(13 * 9 * 7, 4, 5);
        Path file = raw("volume.raw", cells);
        double[] voxel = {0.5, 2, 3};
        for (int connectivity : new int[] {6, 26}) {
            for (int contact : new int[] {6, 18, 26}) {
                assertContacts(reference(cells, dims, connectivity, contact, voxel), "mesh", file.toString(), "--dims",
                        "13x9x7", "--mode", "same-value", "--connectivity", Integer.toString(connectivity),
                        "--contacts-connectivity", Integer.toString(contact), "--spacing", "0.5,2,3");
            }
        }
    }

    @Test
    void imageContactsDefaultToTheLabellingsConnectivity() throws IOException {
        int[] dims = {31, 17, 1};
        int[] cells = random(31 * 17, 3, 6);
        Path file = raw("image.raw", cells);
        assertContacts(reference(cells, dims, 8, 8, new double[] {1, 1, 1}), "mesh", file.toString(), "--dims",
                "31x17", "--mode", "same-value", "--connectivity", "8");
        assertContacts(reference(cells, dims, 4, 4, new double[] {3, 5, 1}), "mesh", file.toString(), "--dims", "31x17",
                "--mode", "same-value", "--spacing", "3,5", "--int64-labels");
    }

    /** 1 2 1 in one row: the middle cluster touches both others across one face each. */
    @Test
    void aHandCountedRow() throws IOException {
        Path file = raw("row.raw", new int[] {1, 2, 1});
        Path csv = dir.resolve("row.csv");
        Result r = run("mesh", file.toString(), "--dims", "3x1", "--mode", "same-value", "--contacts", csv.toString(),
                "--spacing", "2,7", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("label1,label2,contacts,x_faces,y_faces,z_faces,area", "0,1,1,1,0,0,7.0",
                "1,2,1,1,0,0,7.0"), Files.readAllLines(csv));
        assertTrue(r.out().contains("\"contacts\":{\"pairs\":2,\"connectivity\":4}"), r.out());
    }

    @Test
    void errorsAreNamed() throws IOException {
        Path file = raw("cube.raw", new int[8]);
        Path csv = dir.resolve("c.csv");
        String[][] cases = {
            {"--spacing", "1,1,1"},
            {"--contacts-connectivity", "6"},
            {"--contacts", csv.toString(), "--spacing", "1,0,1"},
            {"--contacts", csv.toString(), "--spacing", "1"},
            {"--contacts", csv.toString(), "--contacts-connectivity", "12"},
            {"--contacts", csv.toString(), "--contacts-connectivity", "8"},
            {"--contacts", csv.toString(), "--out", dir.resolve("l.npy").toString(), "--numbering", "raster"},
        };
        String[] messages = {"--spacing gives the units of --regions' measures and --contacts' area",
            "--contacts-connectivity refines --contacts", "a spacing must be positive and finite",
            "--spacing takes DX,DY or DX,DY,DZ", "must be 4 or 8", "does not fit a 2x2x2 volume",
            "leave out --numbering raster"};
        for (int c = 0; c < cases.length; c++) {
            List<String> args = new ArrayList<>(List.of("mesh", file.toString(), "--dims", "2x2x2"));
            args.addAll(List.of(cases[c]));
            Result r = run(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.out());
            assertTrue(r.err().contains(messages[c]), args + ": " + r.err());
            assertFalse(Files.exists(csv), args + ": nothing written");
        }
    }
}
