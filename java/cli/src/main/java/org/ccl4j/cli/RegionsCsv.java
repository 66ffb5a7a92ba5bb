package org.ccl4j.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import org.ccl4j.Face;
import org.ccl4j.GraphStatistics;
import org.ccl4j.Measurements;
import org.ccl4j.MeshStatistics;
import org.ccl4j.Spacing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The table of {@code --regions}: one row per component, labels 1..k in raster order (the order in
 * which a scan of the cells, x fastest, or of the vertex ids meets each component first), written
 * as CSV with a header line, or as JSON objects with the header's names as keys. Doubles are
 * written by {@link Double#toString(double)}, which reads back to the same double.
 *
 * <pre>
 * mesh:  label,size,xmin,ymin,zmin,xmax,ymax,zmax,cx,cy,cz,sum,min,max,mean,touches,wraps
 *        with --measure: ...,area,perimeter,perimeter_8,surface_area,mu_xx,mu_yy,mu_zz,mu_xy,mu_xz,mu_yz,
 *        eigval_0,eigval_1,eigval_2,orientation,axis_major_length,axis_minor_length,eccentricity,
 *        equivalent_diameter_area
 * graph: label,vertices,edges,min_vertex,max_vertex,max_degree
 * </pre>
 */
final class RegionsCsv {
    /** Rows listed in the JSON unless --top says otherwise. */
    static final int DEFAULT_JSON_ROWS = 1000;

    private static final List<String> MESH = List.of("label", "size", "xmin", "ymin", "zmin", "xmax", "ymax", "zmax",
            "cx", "cy", "cz", "sum", "min", "max", "mean", "touches", "wraps");
    private static final List<String> MEASURES = List.of("area", "perimeter", "perimeter_8", "surface_area", "mu_xx",
            "mu_yy", "mu_zz", "mu_xy", "mu_xz", "mu_yz", "eigval_0", "eigval_1", "eigval_2", "orientation",
            "axis_major_length", "axis_minor_length", "eccentricity", "equivalent_diameter_area");
    private static final List<String> GRAPH = List.of("label", "vertices", "edges", "min_vertex", "max_vertex",
            "max_degree");

    private final List<String> header;
    private final int rows;
    private final IntFunction<Object[]> row;  // the values of a row, in the header's order

    private RegionsCsv(List<String> header, int rows, IntFunction<Object[]> row) {
        this.header = header;
        this.rows = rows;
        this.row = row;
    }

    /**
     * The table of {@code t}, whose rows are in raster order (raster or canonical numbering), with
     * the measures under {@code spacing} unless it is null (the table then made with measurements).
     */
    static RegionsCsv of(MeshStatistics t, Spacing spacing) {
        IntFunction<Object[]> base = r -> new Object[] {r + 1, t.size(r), t.minX(r), t.minY(r), t.minZ(r),
            t.maxX(r), t.maxY(r), t.maxZ(r), t.centroidX(r), t.centroidY(r), t.centroidZ(r), t.sum(r), t.min(r),
            t.max(r), t.mean(r), Face.symbols(t.touches(r)), axes(t.wraps(r))};
        if (spacing == null) {
            return new RegionsCsv(MESH, t.count(), base);
        }
        Measurements m = t.measurements(spacing);
        List<String> header = new ArrayList<>(MESH);
        header.addAll(MEASURES);
        return new RegionsCsv(header, t.count(), r -> {
            double[] eigen = Arrays.copyOf(m.inertiaTensorEigenvalues(r), 3);
            if (t.depth() == 1) {
                eigen[2] = Double.NaN;  // a 2D tensor has two
            }
            Object[] measures = {m.area(r), m.perimeter(r), m.perimeter8(r), m.surfaceArea(r),
                m.centralMoment(r, 0, 0), m.centralMoment(r, 1, 1), m.centralMoment(r, 2, 2), m.centralMoment(r, 0, 1),
                m.centralMoment(r, 0, 2), m.centralMoment(r, 1, 2), eigen[0], eigen[1], eigen[2], m.orientation(r),
                m.axisMajorLength(r), m.axisMinorLength(r), m.eccentricity(r), m.equivalentDiameterArea(r)};
            Object[] row = base.apply(r);
            Object[] all = Arrays.copyOf(row, row.length + measures.length);
            System.arraycopy(measures, 0, all, row.length, measures.length);
            return all;
        });
    }

    /** The axes of a {@link MeshStatistics#wraps} mask as --periodic-axes names them, such as {@code xz}; "" for none. */
    static String axes(int mask) {
        StringBuilder s = new StringBuilder();
        for (int axis = 0; axis < 3; axis++) {
            if ((mask & 1 << axis) != 0) {
                s.append("xyz".charAt(axis));
            }
        }
        return s.toString();
    }

    /** The table of {@code t}, whose rows are in raster order (raster or canonical numbering). */
    static RegionsCsv of(GraphStatistics t) {
        return new RegionsCsv(GRAPH, t.count(), r -> new Object[] {r + 1, t.vertices(r), t.edges(r), t.minVertex(r),
            t.maxVertex(r), t.maxDegree(r)});
    }

    /** Writes the CSV to {@code file}, one of the run's {@code outputs}. */
    void write(OutputFile.Group outputs, Path file) throws IOException {
        outputs.write(file, temporary -> {
            try (BufferedWriter out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                out.write(String.join(",", header));
                out.newLine();
                StringBuilder line = new StringBuilder();
                for (int r = 0; r < rows; r++) {
                    line.setLength(0);
                    Object[] values = row.apply(r);
                    for (int c = 0; c < values.length; c++) {
                        line.append(c == 0 ? "" : ",").append(values[c]);
                    }
                    out.write(line.toString());
                    out.newLine();
                }
            }
        });
    }

    /**
     * Adds {@code "regions":{"count":k,"rows":[{...},...]}} to {@code json}; the rows only when there
     * are at most {@code maxRows}, so that a large table does not swamp the output.
     */
    ObjectNode addTo(ObjectNode json, int maxRows) {
        ObjectNode regions = json.putObject("regions").put("count", rows);
        if (rows <= maxRows) {
            ArrayNode list = regions.putArray("rows");
            for (int r = 0; r < rows; r++) {
                ObjectNode o = list.addObject();
                Object[] values = row.apply(r);
                for (int c = 0; c < values.length; c++) {
                    switch (values[c]) {
                        case Integer i -> o.put(header.get(c), i);
                        case Long l -> o.put(header.get(c), l);
                        case Double d -> o.put(header.get(c), d);
                        default -> o.put(header.get(c), values[c].toString());
                    }
                }
            }
        }
        return json;
    }
}
