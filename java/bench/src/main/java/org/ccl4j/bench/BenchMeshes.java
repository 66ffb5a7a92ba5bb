package org.ccl4j.bench;

import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.ccl4j.Grid;
import org.ccl4j.MeshOptions;
import org.ccl4j.io.grid.GridGenerators;

/**
 * The meshes of the mesh benchmarks' {@code field} parameter, made once per JVM: random
 * site-percolation fields ({@link GridGenerators#percolation}, u8 cells, seed 1) named
 * {@code 2d_N_pD} (N × N) or {@code 3d_N_pD} (N × N × N) with occupation probability D read
 * with the decimal point after its first digit (p05 = 0.5, p025 = 0.25), face-connected (4 in 2D,
 * 6 in 3D) unless the name ends in {@code _c8} (2D) or {@code _c26} (3D); {@code _c4} and
 * {@code _c6} name face connectivity explicitly. As in {@code shared/BENCHMARKS.md}:
 * {@code 2d_8192_p05}, {@code 2d_8192_p06}, {@code 2d_16384_p06}, {@code 3d_512_p025},
 * {@code 3d_512_p035}, and the same with {@code _c8} / {@code _c26}; small ones such as
 * {@code 2d_512_p05} or {@code 3d_64_p025_c26} for quick runs. Names that differ only in the
 * connectivity share their cells.
 */
final class BenchMeshes {
    private static final Pattern NAME = Pattern.compile("(([23])d_(\\d+)_p(\\d+))(?:_c(\\d+))?");
    /** Global, as the fields live as long as the JVM: the JAVA backend reads it in place, as it does a confined arena of the caller's, but copies a shared one. */
    private static final Arena ARENA = Arena.global();
    private static final Map<String, Grid> MADE = new HashMap<>();

    private BenchMeshes() {
    }

    /** A field: its cells and its connectivity (4 or 8 in 2D, 6 or 26 in 3D). */
    record Field(Grid grid, int connectivity) {
        /** The default options at the field's connectivity. */
        MeshOptions options() {
            return MeshOptions.defaults().withConnectivity(connectivity);
        }
    }

    static synchronized Field get(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown field '" + name
                    + "': expected 2d_N_pD or 3d_N_pD (N cells a side, occupation probability D with the point after"
                    + " its first digit) with an optional _c4/_c8 (2D) or _c6/_c26 (3D), e.g. 2d_8192_p05 for p = 0.5,"
                    + " 3d_512_p025_c26 for p = 0.25 and 26 neighbours");
        }
        boolean planar = m.group(2).equals("2");
        int connectivity = m.group(5) == null ? (planar ? 4 : 6) : Integer.parseInt(m.group(5));
        if (planar ? connectivity != 4 && connectivity != 8 : connectivity != 6 && connectivity != 26) {
            throw new IllegalArgumentException("field '" + name + "': connectivity " + connectivity + " does not fit "
                    + (planar ? "2D (_c4 or _c8)" : "3D (_c6 or _c26)"));
        }
        int n = Integer.parseInt(m.group(3));
        String digits = m.group(4);  // p05 = 0.5, p025 = 0.25: the first digit is the units
        double p = Double.parseDouble(digits.charAt(0) + "." + digits.substring(1));
        Grid grid = MADE.computeIfAbsent(m.group(1),
                cells -> GridGenerators.percolation(ARENA, n, n, planar ? 1 : n, p, 1));
        return new Field(grid, connectivity);
    }
}
