package org.tomospark.executor.stripe;

import org.jtransforms.fft.DoubleFFT_1D;

import java.util.stream.IntStream;

/**
 * The combined wavelet–Fourier stripe filter of Münch, Trtik, Marone &amp; Stampanoni, Opt. Express 17 (2009)
 * 8567 (TomoPy's {@code remove_stripe_fw}).
 *
 * <p>A vertical stripe (constant over the angles, narrow across the detector) is high-pass across the detector
 * and of zero frequency along the angles. The sinogram is decomposed into {@code levels} levels of a 2-D
 * Daubechies wavelet transform (db5); in every level's vertical detail (low-pass along the angles, high-pass
 * across the detector) each detector column is Fourier transformed along the angles and multiplied by
 * 1 − exp(−k²/(2σ²)), k the integer frequency index (k cycles over the padded angular range, so the same angular
 * frequency at every level); k = 0, the stripe itself, is removed completely. The inverse wavelet transform gives
 * the filtered sinogram.
 *
 * <p>Boundaries: each side of the sinogram is extended by mirroring at both ends, by an eighth of its length in
 * all and then up to a multiple of 2^levels, so the periodic transform sees no jump at the edges; the padding is
 * dropped at the end.
 *
 * <p>What it costs: anything that is constant (or slowly varying) over the angles and sharp across the detector
 * looks like a stripe: the edges of structures centred on the rotation axis. Level l holds details about 2^l
 * columns wide, so each level added removes wider stripes and blurs such structures on a larger scale; TomoPy's
 * default of log₂ of the sinogram's larger side takes the whole image apart that way (docs/stripes.md), which is
 * why the default here is 3 levels.
 */
public final class FourierWaveletFilter {
    /** Daubechies order of the wavelet (db5, as TomoPy's default). */
    public static final int WAVELET_ORDER = 5;

    private FourierWaveletFilter() {
    }

    /** Filters one sinogram ({@code nproj × width}, row-major) in place. */
    public static void apply(float[] sino, int nproj, int width, int levels, double sigma) {
        if (sino.length < (long) nproj * width)
            throw new IllegalArgumentException("stripe removal: sinogram holds " + sino.length + " values, expected " + nproj + "x"
                    + width);
        if (!(sigma > 0)) throw new IllegalArgumentException("stripe.sigma must be > 0, got " + sigma);
        int lv = levels;
        if (lv < 1 || lv > 16) throw new IllegalArgumentException("stripe.level must be in 1..16, got " + levels);
        int rows = paddedSize(nproj, lv), cols = paddedSize(width, lv);
        int top = (rows - nproj) / 2, left = (cols - width) / 2;
        double[] a = new double[rows * cols];
        IntStream.range(0, rows).parallel().forEach(i -> {
            int p = Median.reflect(i - top, nproj);
            for (int j = 0; j < cols; j++) a[i * cols + j] = sino[p * width + Median.reflect(j - left, width)];
        });
        Dwt2 dwt = new Dwt2(Daubechies.lowpass(WAVELET_ORDER));
        for (int l = 0; l < lv; l++) dwt.forward(a, cols, rows >> l, cols >> l);
        for (int l = 1; l <= lv; l++) dampVerticalDetail(a, cols, rows >> l, cols >> l, sigma);
        for (int l = lv - 1; l >= 0; l--) dwt.inverse(a, cols, rows >> l, cols >> l);
        IntStream.range(0, nproj).parallel().forEach(p -> {
            for (int j = 0; j < width; j++) sino[p * width + j] = (float) a[(p + top) * cols + j + left];
        });
    }

    /** The side after padding: at least n + n/8 rounded up to a multiple of 2^levels. */
    static int paddedSize(int n, int levels) {
        int unit = 1 << levels;
        int want = n + Math.max(2, n / 8);
        return (want + unit - 1) / unit * unit;
    }

    /**
     * Damps the low angular frequencies of one level's vertical detail: the block of {@code h} rows at columns
     * [w, 2w) (the top-right quadrant of that level).
     */
    static void dampVerticalDetail(double[] a, int stride, int h, int w, double sigma) {
        double[] damp = new double[h];
        for (int k = 0; k < h; k++) {
            int f = k <= h / 2 ? k : k - h;
            damp[k] = -Math.expm1(-(double) f * f / (2 * sigma * sigma));
        }
        ThreadLocal<DoubleFFT_1D> fft = ThreadLocal.withInitial(() -> new DoubleFFT_1D(h));
        IntStream.range(w, 2 * w).parallel().forEach(c -> {
            double[] x = new double[2 * h];
            for (int i = 0; i < h; i++) x[2 * i] = a[i * stride + c];
            DoubleFFT_1D f = fft.get();
            f.complexForward(x);
            for (int k = 0; k < h; k++) {
                x[2 * k] *= damp[k];
                x[2 * k + 1] *= damp[k];
            }
            f.complexInverse(x, true);
            for (int i = 0; i < h; i++) a[i * stride + c] = x[2 * i];
        });
    }
}
