package org.ccl4j.cli;

import java.util.List;
import java.util.Random;

/**
 * Where two measured curves y(x) on the same grid cross, by linear interpolation between the two
 * grid points around a change of sign of their difference, with a bootstrap uncertainty: the
 * curves are redrawn from normal errors and the crossing found again.
 */
final class Crossing {
    /** One measured point. */
    record Point(double x, double y, double sigma) {
    }

    /** A crossing at x +- sigma (sigma NaN when no redrawn pair crossed). */
    record Estimate(double x, double sigma) {
    }

    private Crossing() {
    }

    /** The crossing of a and b (same x grid), or null when their difference never changes sign. */
    static Estimate estimate(List<Point> a, List<Point> b, int resamples, long seed) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("the curves have different grids");
        }
        int n = a.size();
        double[] x = new double[n];
        double[] ya = new double[n];
        double[] yb = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = a.get(i).x();
            ya[i] = a.get(i).y();
            yb[i] = b.get(i).y();
        }
        double centre = crossing(x, ya, yb);
        if (Double.isNaN(centre)) {
            return null;
        }
        Random random = new Random(seed);
        double sum = 0;
        double sumSquares = 0;
        int found = 0;
        for (int r = 0; r < resamples; r++) {
            double[] ra = new double[n];
            double[] rb = new double[n];
            for (int i = 0; i < n; i++) {
                ra[i] = ya[i] + a.get(i).sigma() * random.nextGaussian();
                rb[i] = yb[i] + b.get(i).sigma() * random.nextGaussian();
            }
            double c = crossing(x, ra, rb);
            if (!Double.isNaN(c)) {
                sum += c;
                sumSquares += c * c;
                found++;
            }
        }
        double sigma = found < 2 ? Double.NaN : Math.sqrt(Math.max(0, (sumSquares - sum * sum / found) / (found - 1)));
        return new Estimate(centre, sigma);
    }

    /**
     * The interpolated crossing in the interval where the difference changes sign most steeply
     * (the curves' noisy flat ends can also change sign), or NaN.
     */
    static double crossing(double[] x, double[] ya, double[] yb) {
        double best = Double.NaN;
        double steepest = 0;
        for (int i = 0; i + 1 < x.length; i++) {
            double d0 = ya[i] - yb[i];
            double d1 = ya[i + 1] - yb[i + 1];
            if (d0 * d1 < 0 && Math.abs(d1 - d0) > steepest) {
                steepest = Math.abs(d1 - d0);
                best = x[i] + (x[i + 1] - x[i]) * d0 / (d0 - d1);
            }
        }
        return best;
    }
}
