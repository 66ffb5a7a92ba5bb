package org.ccl4j.cli;

import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots of measured curves with error bars (XChart). */
final class Plots {
    private Plots() {
    }

    /** Whether this Java runtime finds a font to draw a plot's text with. */
    static boolean fontsAvailable() {
        try {
            return GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames().length > 0;
        } catch (RuntimeException | LinkageError e) {
            return false; // no font configuration, or a runtime built without the font library
        }
    }

    /**
     * Refuses {@code --png} up front, before any measuring, where no plot can be drawn: on a
     * machine without fonts.
     */
    static void requireFonts() {
        if (!fontsAvailable()) {
            throw new UsageException("--png: this Java runtime finds no fonts to draw the plot with; install a font"
                    + " package (e.g. fonts-dejavu-core), or leave out --png and draw the plot later from the CSV file"
                    + " with --from-csv FILE --png OUT");
        }
    }

    /**
     * Writes {@code file}, one of the run's {@code outputs}: one curve per entry of {@code curves}
     * (name to points), with a dashed vertical line at {@code marker} unless it is NaN; the legend
     * goes to the upper left when the curves rise, to the lower left when they fall.
     */
    static void write(OutputFile.Group outputs, Path file, String title, String xLabel, String yLabel,
            Map<String, List<Crossing.Point>> curves, double marker, String markerName, boolean rising)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(600).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel)
                .build();
        chart.getStyler().setLegendPosition(rising ? Styler.LegendPosition.InsideNW : Styler.LegendPosition.InsideSW);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (Map.Entry<String, List<Crossing.Point>> curve : curves.entrySet()) {
            List<Crossing.Point> points = curve.getValue();
            double[] x = points.stream().mapToDouble(Crossing.Point::x).toArray();
            double[] y = points.stream().mapToDouble(Crossing.Point::y).toArray();
            double[] e = points.stream().mapToDouble(Crossing.Point::sigma).toArray();
            XYSeries series = chart.addSeries(curve.getKey(), x, y, e);
            series.setMarker(SeriesMarkers.CIRCLE);
            for (Crossing.Point p : points) {
                low = Math.min(low, p.y() - p.sigma());
                high = Math.max(high, p.y() + p.sigma());
            }
        }
        if (!Double.isNaN(marker) && !curves.isEmpty()) {
            XYSeries line = chart.addSeries(markerName, new double[] {marker, marker}, new double[] {low, high});
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(java.awt.Color.GRAY);
            line.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT,
                    java.awt.BasicStroke.JOIN_MITER, 10f, new float[] {6f, 6f}, 0f));
        }
        OutputFile.createParents(file);
        // to a stream: given a file name, XChart appends ".png" to one that does not end in it
        outputs.write(file, temporary -> {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        });
    }
}
