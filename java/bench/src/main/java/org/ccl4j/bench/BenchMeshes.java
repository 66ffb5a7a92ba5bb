package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ccl4j.Grid;
import org.ccl4j.io.grid.GridGenerators;

/**
 * The meshes of the mesh benchmarks' {@code field} parameter, made once per JVM: random
 * site-percolation fields ({@link GridGenerators#percolation}, u8 cells, seed 1) named
 * {@code 2d_N_pD} (N × N) or {@code 3d_N_pD} (N × N × N) with occupation probability D read
 * with the decimal point after its first digit (p05 = 0.5, p025 = 0.25), as
 * in {@code shared/BENCHMARKS.md}: {@code 2d_8192_p05}, {@code 2d_8192_p06}, {@code 2d_16384_p06},
 * {@code 3d_512_p025}, {@code 3d_512_p035}; small ones such as {@code 2d_512_p05} or
 * {@code 3d_64_p025} for quick runs.
 */
final class BenchMeshes {
    private static final Pattern NAME = Pattern.compile("([23])d_(\\d+)_p(\\d+)");
    /** Global, as the fields live as long as the JVM: the JAVA backend reads it in place, as it does a confined arena of the caller's, but copies a shared one. */
    private static final Arena ARENA = Arena.global();
    private static final Map<String, Grid> MADE = new HashMap<>();

    private BenchMeshes() {
    }

    static synchronized Grid get(String name) {
        return MADE.computeIfAbsent(name, BenchMeshes::make);
    }

    private static Grid make(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown field '" + name
                    + "': expected 2d_N_pD or 3d_N_pD (N cells a side, occupation probability D with the point after"
                    + " its first digit), e.g. 2d_8192_p05 for p = 0.5");
        }
        int n = Integer.parseInt(m.group(2));
        int depth = m.group(1).equals("3") ? n : 1;
        String digits = m.group(3);  // p05 = 0.5, p025 = 0.25: the first digit is the units
        double p = Double.parseDouble(digits.charAt(0) + "." + digits.substring(1));
        return GridGenerators.percolation(ARENA, n, n, depth, p, 1);
    }
}
