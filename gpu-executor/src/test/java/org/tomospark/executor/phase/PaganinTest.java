package org.tomospark.executor.phase;

import org.junit.jupiter.api.Test;
import java.util.Arrays;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Paganin retrieval against a straightforward double-precision computation of the same formula: the image is
 * extended with its border value to 200 × 200 (its own choice of size), transformed with a direct
 * O(n²)-per-line DFT, divided by 1 + π·λ·z·(δ/β)·|f|², transformed back.
 */
class PaganinTest {
    static final int ROWS = 48, COLS = 64;
    static final PaganinParams P = new PaganinParams(20.0, 0.05, 1e-6, 50.0);
    static final double MU = 0.02; // attenuation per pixel
    static final double R = 12, CY = 23.5, CX = 30.2;

    static double thickness(int i, int j) {
        return thickness(i, j, CY, R);
    }

    static double thickness(int i, int j, double cy, double r) {
        double r2 = (i - cy) * (i - cy) + (j - CX) * (j - CX);
        return r2 < r * r ? 2 * Math.sqrt(r * r - r2) : 0;
    }

    /** Phase-contrast projection of a sphere by the TIE forward model I = A − (zδ/μ)∇²A, A = exp(−μt). */
    static float[] simulate() {
        return simulate(ROWS, CY, R);
    }

    static float[] simulate(int rowsTotal, double cy, double radius) {
        int ROWS = rowsTotal;
        double lap = P.coefficientPx() / (4 * Math.PI * Math.PI); // zδ/μ in px²
        double[] a = new double[ROWS * COLS];
        for (int i = 0; i < ROWS; i++) for (int j = 0; j < COLS; j++) a[i * COLS + j] = Math.exp(-MU * thickness(i, j, cy, radius));
        float[] img = new float[ROWS * COLS];
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++) {
                double c = a[i * COLS + j];
                double l = a[Math.max(0, i - 1) * COLS + j] + a[Math.min(ROWS - 1, i + 1) * COLS + j]
                        + a[i * COLS + Math.max(0, j - 1)] + a[i * COLS + Math.min(COLS - 1, j + 1)] - 4 * c;
                img[i * COLS + j] = (float) (c - lap * l);
            }
        return img;
    }

    /** Direct DFT along one axis of a complex array [n][m] (re, im), forward or inverse (with 1/len). */
    static void dft(double[][] re, double[][] im, boolean rows, boolean inverse) {
        int n = re.length, m = re[0].length;
        int len = rows ? m : n, lines = rows ? n : m;
        double sign = inverse ? 1 : -1;
        double[] cr = new double[len], ci = new double[len];
        for (int k = 0; k < len; k++) {
            cr[k] = Math.cos(2 * Math.PI * k / len);
            ci[k] = Math.sin(2 * Math.PI * k / len);
        }
        double[] xr = new double[len], xi = new double[len];
        for (int line = 0; line < lines; line++) {
            for (int k = 0; k < len; k++) {
                double sr = 0, si = 0;
                for (int x = 0; x < len; x++) {
                    int idx = (int) ((long) k * x % len);
                    double vr = rows ? re[line][x] : re[x][line], vi = rows ? im[line][x] : im[x][line];
                    double wr = cr[idx], wi = sign * ci[idx];
                    sr += vr * wr - vi * wi;
                    si += vr * wi + vi * wr;
                }
                xr[k] = inverse ? sr / len : sr;
                xi[k] = inverse ? si / len : si;
            }
            for (int k = 0; k < len; k++) {
                if (rows) { re[line][k] = xr[k]; im[line][k] = xi[k]; } else { re[k][line] = xr[k]; im[k][line] = xi[k]; }
            }
        }
    }

    static double[] reference(float[] img) {
        int s = 200, r0 = (s - ROWS) / 2, c0 = (s - COLS) / 2;
        double[][] re = new double[s][s], im = new double[s][s];
        for (int i = 0; i < s; i++)
            for (int j = 0; j < s; j++)
                re[i][j] = img[Math.max(0, Math.min(ROWS - 1, i - r0)) * COLS + Math.max(0, Math.min(COLS - 1, j - c0))];
        dft(re, im, true, false);
        dft(re, im, false, false);
        double lambda = 1.23984198e-9 / 20.0, z = 0.05, dob = 50.0, pix = 1e-6;
        for (int i = 0; i < s; i++)
            for (int j = 0; j < s; j++) {
                double fy = (i <= s / 2 ? i : i - s) / (s * pix), fx = (j <= s / 2 ? j : j - s) / (s * pix); // cycles per metre
                double g = 1 + Math.PI * lambda * z * dob * (fx * fx + fy * fy);
                re[i][j] /= g;
                im[i][j] /= g;
            }
        dft(re, im, true, true);
        dft(re, im, false, true);
        double[] out = new double[ROWS * COLS];
        for (int i = 0; i < ROWS; i++) for (int j = 0; j < COLS; j++) out[i * COLS + j] = re[i + r0][j + c0];
        return out;
    }

    @Test
    void matchesDirectDftOfTheFormula() {
        float[] img = simulate();
        double[] ref = reference(img);
        float[] got = img.clone();
        new Paganin(P).filter(got, ROWS, COLS);
        double maxErr = 0, tErr = 0, tMax = 0;
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++) {
                maxErr = Math.max(maxErr, Math.abs(got[i * COLS + j] - ref[i * COLS + j]));
                double t = -Math.log(got[i * COLS + j]) / MU;
                tErr = Math.max(tErr, Math.abs(t - thickness(i, j)));
                tMax = Math.max(tMax, thickness(i, j));
            }
        double contrastIn = 0, contrastOut = 0;
        for (float v : img) contrastIn = Math.max(contrastIn, Math.abs(v - 1));
        System.out.printf("paganin: max |fft - direct DFT| = %.2e; thickness max error %.2f of %.1f px; kernel length %.2f px, halo %d "
                + "rows%n",
                maxErr, tErr, tMax, P.kernelLengthPx(), P.haloRows());
        assertTrue(maxErr < 2e-5, "max deviation from the direct DFT " + maxErr);
        // and it is phase retrieval: the projected thickness comes back (edges of the sphere are the hardest)
        assertTrue(tErr < 0.1 * tMax, "thickness error " + tErr);
    }

    @Test
    void haloRowsMakeABandEqualToTheFullProjection() {
        int ROWS = 96;
        float[] img = simulate(ROWS, 47.5, 40); // a big sphere: the band's halo ends inside it
        PaganinParams p = new PaganinParams(20.0, 0.004, 1e-6, 50.0);
        float[] full = img.clone();
        new Paganin(p).filter(full, ROWS, COLS);
        // a band of 6 rows with its halo
        int first = 44, rows = 6, halo = p.haloRows();
        int a = Math.max(0, first - halo), b = Math.min(ROWS, first + rows + halo);
        float[] band = Arrays.copyOfRange(img, a * COLS, b * COLS);
        assertTrue(a > 0 && b < ROWS, "the test band's halo must lie inside the image");
        new Paganin(p).filter(band, b - a, COLS);
        float[] noHalo = Arrays.copyOfRange(img, first * COLS, (first + rows) * COLS);
        new Paganin(p).filter(noHalo, rows, COLS);
        double errHalo = 0, errNoHalo = 0;
        for (int r = 0; r < rows; r++)
            for (int j = 0; j < COLS; j++) {
                float f = full[(first + r) * COLS + j];
                errHalo = Math.max(errHalo, Math.abs(band[(first + r - a) * COLS + j] - f));
                errNoHalo = Math.max(errNoHalo, Math.abs(noHalo[r * COLS + j] - f));
            }
        System.out.printf("paganin band: max error with halo %.2e, without %.2e%n", errHalo, errNoHalo);
        assertTrue(errHalo < 1e-4, "with halo " + errHalo);
        assertTrue(errNoHalo > 20 * Math.max(errHalo, 1e-7), "without a halo the band must differ: " + errNoHalo);
    }

    @Test
    void parametersNameTheirKeys() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PaganinParams(0, 1, 1e-6, 10)).getMessage()
                .contains("phase.energy"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PaganinParams(20, 1, -1, 10)).getMessage()
                .contains("phase.pixelSize"));
    }
}
