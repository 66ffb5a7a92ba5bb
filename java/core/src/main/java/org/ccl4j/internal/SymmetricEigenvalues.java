package org.ccl4j.internal;

import java.util.Arrays;

/** The eigenvalues of a small symmetric matrix, by cyclic Jacobi rotations (accurate for close eigenvalues). */
public final class SymmetricEigenvalues {
    private SymmetricEigenvalues() {
    }

    /** The eigenvalues of symmetric {@code m} (not changed), largest first. */
    public static double[] of(double[][] m) {
        int n = m.length;
        double[][] a = new double[n][];
        for (int i = 0; i < n; i++) {
            a[i] = m[i].clone();
        }
        for (int sweep = 0; sweep < 64; sweep++) {
            double off = 0;
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    off += a[p][q] * a[p][q];
                }
            }
            if (off == 0) {
                break;
            }
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    if (a[p][q] != 0) {
                        rotate(a, p, q);
                    }
                }
            }
        }
        double[] e = new double[n];
        for (int i = 0; i < n; i++) {
            e[i] = a[i][i];
        }
        Arrays.sort(e);
        for (int i = 0; i < n / 2; i++) {
            double t = e[i];
            e[i] = e[n - 1 - i];
            e[n - 1 - i] = t;
        }
        return e;
    }

    /** The rotation in the (p, q) plane that zeroes a[p][q]. */
    private static void rotate(double[][] a, int p, int q) {
        double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        if (theta == 0) {
            t = 1;
        }
        double c = 1 / Math.sqrt(t * t + 1);
        double s = t * c;
        int n = a.length;
        for (int k = 0; k < n; k++) {  // columns p and q
            double akp = a[k][p];
            double akq = a[k][q];
            a[k][p] = c * akp - s * akq;
            a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) {  // rows p and q
            double apk = a[p][k];
            double aqk = a[q][k];
            a[p][k] = c * apk - s * aqk;
            a[q][k] = s * apk + c * aqk;
        }
    }
}
