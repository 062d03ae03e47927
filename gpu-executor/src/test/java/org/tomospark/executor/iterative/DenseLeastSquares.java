package org.tomospark.executor.iterative;

/**
 * The system matrix of {@link JosephOracle} as a dense double matrix, and the (weighted) least-squares solution from
 * the normal equations, solved by Cholesky in double precision: the reference the solvers must converge to.
 */
final class DenseLeastSquares {
    private final double[][] a;

    DenseLeastSquares(JosephOracle oracle, int rays, int pixels) {
        a = new double[rays][pixels];
        oracle.walk((ray, pixel, w) -> a[ray][pixel] += w);
    }

    /** argmin ‖W^½ (A·x − b)‖ for the diagonal weights w (null: all 1). */
    double[] solve(double[] b, double[] w) {
        int m = a.length, n = a[0].length;
        double[][] n2 = new double[n][n];
        double[] rhs = new double[n];
        for (int r = 0; r < m; r++) {
            double wr = w == null ? 1 : w[r];
            for (int i = 0; i < n; i++) {
                if (a[r][i] == 0) continue;
                rhs[i] += a[r][i] * wr * b[r];
                for (int j = 0; j < n; j++) n2[i][j] += a[r][i] * wr * a[r][j];
            }
        }
        // Cholesky: n2 = L·Lᵀ
        double[][] l = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double s = n2[i][j];
                for (int q = 0; q < j; q++) s -= l[i][q] * l[j][q];
                if (i == j) {
                    if (s <= 0) throw new IllegalStateException("normal equations not positive definite at " + i);
                    l[i][i] = Math.sqrt(s);
                } else {
                    l[i][j] = s / l[j][j];
                }
            }
        }
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = rhs[i];
            for (int q = 0; q < i; q++) s -= l[i][q] * y[q];
            y[i] = s / l[i][i];
        }
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = y[i];
            for (int q = i + 1; q < n; q++) s -= l[q][i] * x[q];
            x[i] = s / l[i][i];
        }
        return x;
    }

    /** 1 / (row sum) per ray, 0 for rays that miss the image: SIRT's weights R. */
    double[] reciprocalRowSums() {
        double[] w = new double[a.length];
        for (int r = 0; r < a.length; r++) {
            double s = 0;
            for (double v : a[r]) s += v;
            w[r] = s > 0 ? 1 / s : 0;
        }
        return w;
    }
}
