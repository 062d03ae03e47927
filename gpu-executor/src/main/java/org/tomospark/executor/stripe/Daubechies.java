package org.tomospark.executor.stripe;

/**
 * The orthonormal Daubechies scaling filters dbN (N vanishing moments, 2N taps; db1 is Haar), computed by
 * spectral factorisation rather than copied from a table (Daubechies, Ten Lectures on Wavelets, 1992, §6.1).
 *
 * <p>The filter's transfer function is m₀(ω) = ((1 + e^{−iω})/2)^N · Q(e^{−iω}) with
 * |Q|² = P(sin²(ω/2)), P(y) = Σ_{k&lt;N} C(N−1+k, k)·y^k. Each root y_k of P gives, through
 * y = (2 − z − 1/z)/4, a reciprocal pair of roots z, 1/z of |Q|² in z = e^{iω}; keeping the one inside the unit
 * circle of each pair gives Q (the minimum-phase choice), and h = √2·coefficients of m₀.
 */
public final class Daubechies {
    private Daubechies() {
    }

    /** The low-pass analysis filter of dbN, {@code 2N} taps, Σh = √2, Σh² = 1. */
    public static double[] lowpass(int n) {
        if (n < 1 || n > 10) throw new IllegalArgumentException("Daubechies order must be in 1..10, got " + n);
        // roots of P(y)
        double[] p = new double[n];
        for (int k = 0; k < n; k++) p[k] = binomial(n - 1 + k, k);
        double[][] yRoots = roots(p);
        // polynomial in z: (1 + z)^N · Π (z − z_k), coefficients as complex pairs, lowest degree first
        double[] re = {1}, im = {0};
        for (int k = 0; k < n; k++) {
            double[][] c = multiply(re, im, new double[]{1, 1}, new double[]{0, 0});
            re = c[0];
            im = c[1];
        }
        for (double[] y : yRoots) {
            // z² − (2 − 4y)·z + 1 = 0: z = b ± √(b² − 1), b = 1 − 2y
            double br = 1 - 2 * y[0], bi = -2 * y[1];
            double[] disc = csqrt(br * br - bi * bi - 1, 2 * br * bi);
            double z1r = br + disc[0], z1i = bi + disc[1];
            double z2r = br - disc[0], z2i = bi - disc[1];
            boolean firstInside = z1r * z1r + z1i * z1i < z2r * z2r + z2i * z2i;
            double zr = firstInside ? z1r : z2r, zi = firstInside ? z1i : z2i;
            double[][] c = multiply(re, im, new double[]{-zr, 1}, new double[]{-zi, 0});
            re = c[0];
            im = c[1];
        }
        double sum = 0;
        for (double v : re) sum += v;
        double[] h = new double[re.length];
        for (int k = 0; k < h.length; k++) h[k] = re[k] * Math.sqrt(2) / sum;
        return h;
    }

    /** The matching high-pass (wavelet) filter g_k = (−1)^k · h_{L−1−k}. */
    public static double[] highpass(double[] h) {
        int l = h.length;
        double[] g = new double[l];
        for (int k = 0; k < l; k++) g[k] = ((k & 1) == 0 ? 1 : -1) * h[l - 1 - k];
        return g;
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
        return r;
    }

    private static double[][] multiply(double[] ar, double[] ai, double[] br, double[] bi) {
        double[] cr = new double[ar.length + br.length - 1], ci = new double[cr.length];
        for (int i = 0; i < ar.length; i++)
            for (int j = 0; j < br.length; j++) {
                cr[i + j] += ar[i] * br[j] - ai[i] * bi[j];
                ci[i + j] += ar[i] * bi[j] + ai[i] * br[j];
            }
        return new double[][]{cr, ci};
    }

    private static double[] csqrt(double re, double im) {
        double r = Math.hypot(re, im);
        double a = Math.sqrt((r + re) / 2), b = Math.sqrt(Math.max(0, (r - re) / 2));
        return new double[]{a, im < 0 ? -b : b};
    }

    /**
     * All complex roots of the real polynomial Σ c_k·y^k (Durand–Kerner iteration; the degrees here are at most 9
     * and the roots simple).
     */
    static double[][] roots(double[] c) {
        int deg = c.length - 1;
        double[][] r = new double[deg][2];
        if (deg == 0) return r;
        double lead = c[deg];
        for (int k = 0; k < deg; k++) { // distinct starting points on a spiral
            double mod = Math.pow(0.4, k), ang = 0.9 * k + 0.3;
            r[k][0] = (1 + mod) * Math.cos(ang);
            r[k][1] = (1 + mod) * Math.sin(ang);
        }
        for (int it = 0; it < 2000; it++) {
            double change = 0;
            for (int k = 0; k < deg; k++) {
                // p(r_k)/lead by Horner
                double pr = c[deg] / lead, pi = 0;
                for (int j = deg - 1; j >= 0; j--) {
                    double t = pr * r[k][0] - pi * r[k][1] + c[j] / lead;
                    pi = pr * r[k][1] + pi * r[k][0];
                    pr = t;
                }
                // Π_{j≠k} (r_k − r_j)
                double qr = 1, qi = 0;
                for (int j = 0; j < deg; j++) {
                    if (j == k) continue;
                    double dr = r[k][0] - r[j][0], di = r[k][1] - r[j][1];
                    double t = qr * dr - qi * di;
                    qi = qr * di + qi * dr;
                    qr = t;
                }
                double den = qr * qr + qi * qi;
                double sr = (pr * qr + pi * qi) / den, si = (pi * qr - pr * qi) / den;
                r[k][0] -= sr;
                r[k][1] -= si;
                change = Math.max(change, Math.hypot(sr, si));
            }
            if (change < 1e-15) break;
        }
        return r;
    }
}
