package org.tomospark.executor.stripe;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * One level of the separable 2-D discrete wavelet transform with periodic boundaries ("periodization"), on the
 * top-left {@code rows × cols} block (both even) of a row-major array: an orthogonal transform, so the inverse
 * is exact. After {@link #forward} the block holds four quadrants:
 * <pre>
 *   LL | LH        LL: approximation        LH: low-pass down the rows, high-pass along them
 *   ---+---         HL: high-pass down the rows, low-pass along them
 *   HL | HH         HH: high-pass both ways
 * </pre>
 * For a sinogram (rows = angles, columns = detector) a vertical stripe, constant over the angles and narrow
 * across the detector, lands in LH (the "vertical detail").
 */
final class Dwt2 {
    private final double[] h, g;

    Dwt2(double[] lowpass) {
        this.h = lowpass.clone();
        this.g = Daubechies.highpass(lowpass);
    }

    void forward(double[] a, int stride, int rows, int cols) {
        check(rows, cols);
        alongRows(a, stride, rows, cols, this::analyse);
        alongColumns(a, stride, rows, cols, this::analyse);
    }

    void inverse(double[] a, int stride, int rows, int cols) {
        check(rows, cols);
        alongColumns(a, stride, rows, cols, this::synthesise);
        alongRows(a, stride, rows, cols, this::synthesise);
    }

    /** A 1-D transform from one array into another of the same length. */
    @FunctionalInterface
    private interface Transform1d {
        void apply(double[] in, double[] out);
    }

    private static void alongRows(double[] a, int stride, int rows, int cols, Transform1d t) {
        IntStream.range(0, rows).parallel().forEach(r -> {
            double[] x = new double[cols], out = new double[cols];
            System.arraycopy(a, r * stride, x, 0, cols);
            t.apply(x, out);
            System.arraycopy(out, 0, a, r * stride, cols);
        });
    }

    private static void alongColumns(double[] a, int stride, int rows, int cols, Transform1d t) {
        IntStream.range(0, cols).parallel().forEach(c -> {
            double[] x = new double[rows], out = new double[rows];
            for (int i = 0; i < rows; i++) x[i] = a[i * stride + c];
            t.apply(x, out);
            for (int i = 0; i < rows; i++) a[i * stride + c] = out[i];
        });
    }

    /** x (length n, even) → out = [approximation (n/2) | detail (n/2)]. */
    void analyse(double[] x, double[] out) {
        int n = x.length, half = n / 2;
        for (int k = 0; k < half; k++) {
            double lo = 0, hi = 0;
            for (int j = 0; j < h.length; j++) {
                double v = x[(2 * k + j) % n];
                lo += h[j] * v;
                hi += g[j] * v;
            }
            out[k] = lo;
            out[half + k] = hi;
        }
    }

    /** The inverse of {@link #analyse}. */
    void synthesise(double[] coeffs, double[] out) {
        int n = coeffs.length, half = n / 2;
        Arrays.fill(out, 0);
        for (int k = 0; k < half; k++) {
            double lo = coeffs[k], hi = coeffs[half + k];
            for (int j = 0; j < h.length; j++) out[(2 * k + j) % n] += h[j] * lo + g[j] * hi;
        }
    }

    private static void check(int rows, int cols) {
        if (rows < 2 || cols < 2 || (rows & 1) != 0 || (cols & 1) != 0)
            throw new IllegalArgumentException("wavelet level on a " + rows + "x" + cols + " block: both sides must be even and >= 2");
    }
}
