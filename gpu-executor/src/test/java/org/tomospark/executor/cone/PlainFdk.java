package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import java.util.stream.IntStream;

/**
 * A plain FDK in double precision, written from the textbook formulas for the circular trajectory alone (Kak &amp;
 * Slaney ch. 3.6; Parker 1982), to check the product's: the projections rescaled to a virtual detector through the
 * axis, cosine-weighted, convolved in space with the discrete Ram-Lak kernel (h(0) = 1/(4τ²), h(n) = −1/(nπτ)² for odd
 * n), and back-projected ray by ray with (DSO/L)², bilinear, zero beyond the detector, summed in double. Full scans
 * are halved; short scans take Parker's weights in their textbook form (conjugate of (β, γ) at (β + π + 2γ', −γ'),
 * γ' = −γ in this geometry's sign of u).
 */
final class PlainFdk {
    private PlainFdk() {
    }

    static double[][] reconstruct(ConeGeometry g, ConeVolume vol, float[][] proj, boolean shortScan) {
        int cols = g.cols(), rows = g.rows(), np = g.numProjections();
        double dso = g.dso(), dsd = g.dsd(), tau = g.du() * dso / dsd, zeta = g.dv() * dso / dsd;
        double step = Math.abs(g.angle(np - 1) - g.angle(0)) / (np - 1);
        double range = step * np, delta = (range - Math.PI) / 2;
        double[][] filtered = new double[np][];
        IntStream.range(0, np).parallel().forEach(p -> {
            double beta = Math.abs(g.angle(p) - g.angle(0));
            double[] f = new double[cols * rows];
            double[] row = new double[cols];
            for (int r = 0; r < rows; r++) {
                double b = (r - g.cv()) * zeta;
                for (int u = 0; u < cols; u++) {
                    double a = (u - g.cu()) * tau;
                    double weight = dso / Math.sqrt(dso * dso + a * a + b * b);
                    double gammaTextbook = -Math.atan(a / dso);
                    double red = shortScan ? parkerTextbook(beta, gammaTextbook, delta) : 0.5;
                    row[u] = proj[p][r * cols + u] * weight * red;
                }
                for (int u = 0; u < cols; u++) {
                    double s = row[u] / (4 * tau * tau);
                    for (int m = 1; m < cols; m += 2) {
                        double h = -1 / (m * Math.PI * tau) / (m * Math.PI * tau);
                        if (u - m >= 0) s += h * row[u - m];
                        if (u + m < cols) s += h * row[u + m];
                    }
                    f[r * cols + u] = s * tau * step;
                }
            }
            filtered[p] = f;
        });
        int n = vol.n();
        double[][] out = new double[vol.nz()][n * n];
        IntStream.range(0, vol.nz()).parallel().forEach(k -> {
            double z = vol.z(k);
            for (int p = 0; p < np; p++) {
                double c = Math.cos(g.angle(p)), s = Math.sin(g.angle(p));
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++) {
                        double x = vol.x(i), y = vol.y(j);
                        double l = dso - (x * c + y * s);
                        double u = g.cu() + (-x * s + y * c) * dsd / (l * g.du()), v = g.cv() + z * dsd / (l * g.dv());
                        out[k][j * n + i] += dso * dso / (l * l) * bilinear(filtered[p], u, v, cols, rows);
                    }
            }
        });
        return out;
    }

    private static double bilinear(double[] f, double u, double v, int cols, int rows) {
        int u0 = (int) Math.floor(u), v0 = (int) Math.floor(v);
        double fu = u - u0, fv = v - v0;
        return (1 - fv) * ((1 - fu) * px(f, u0, v0, cols, rows) + fu * px(f, u0 + 1, v0, cols, rows))
                + fv * ((1 - fu) * px(f, u0, v0 + 1, cols, rows) + fu * px(f, u0 + 1, v0 + 1, cols, rows));
    }

    private static double px(double[] f, int u, int v, int cols, int rows) {
        return u < 0 || u >= cols || v < 0 || v >= rows ? 0 : f[v * cols + u];
    }

    /** Parker (1982), eq. for a scan over π + 2δ: the conjugate of (β, γ) is (β + π + 2γ, −γ). */
    static double parkerTextbook(double beta, double gamma, double delta) {
        if (beta <= 2 * (delta - gamma)) {
            double s = Math.sin(Math.PI / 4 * beta / (delta - gamma));
            return s * s;
        }
        if (beta <= Math.PI - 2 * gamma) return 1;
        if (beta <= Math.PI + 2 * delta) {
            double s = Math.sin(Math.PI / 4 * (Math.PI + 2 * delta - beta) / (delta + gamma));
            return s * s;
        }
        return 0;
    }
}
