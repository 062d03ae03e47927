package org.tomospark.executor.testing;

import org.tomospark.executor.util.ImageErrors;

/** Image comparison helpers for tests: the masked relative L2 error, masks, PSNR and the least-squares scale. */
public final class Metrics {
    private Metrics() {
    }

    /**
     * ‖a − b‖₂ / ‖b‖₂ over the pixels where {@code mask} is set (whole images compare with
     * {@link ImageErrors#relL2(float[], float[])}).
     */
    public static double relL2Inside(float[] a, float[] b, boolean[] mask) {
        double num = 0, den = 0;
        for (int i = 0; i < a.length; i++) {
            if (!mask[i]) continue;
            num += (a[i] - b[i]) * (double) (a[i] - b[i]);
            den += (double) b[i] * b[i];
        }
        return Math.sqrt(num / den);
    }

    /** Mask of pixels within radius r of the image centre ((n−1)/2). */
    public static boolean[] circleMask(int width, int height, double r) {
        boolean[] m = new boolean[width * height];
        double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
        for (int i = 0; i < height; i++)
            for (int j = 0; j < width; j++)
                m[i * width + j] = (i - cy) * (i - cy) + (j - cx) * (j - cx) <= r * r;
        return m;
    }

    /** PSNR in dB with the peak taken as max(truth) − min(truth) over the mask. */
    public static double psnr(float[] img, float[] truth, boolean[] mask) {
        double mse = 0, lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
        int n = 0;
        for (int i = 0; i < img.length; i++) {
            if (!mask[i]) continue;
            double d = img[i] - truth[i];
            mse += d * d;
            lo = Math.min(lo, truth[i]);
            hi = Math.max(hi, truth[i]);
            n++;
        }
        mse /= n;
        return 10 * Math.log10((hi - lo) * (hi - lo) / mse);
    }

    /** Least-squares scale a minimising ‖a·img − truth‖ over the mask. */
    public static double lsqScale(float[] img, float[] truth, boolean[] mask) {
        double num = 0, den = 0;
        for (int i = 0; i < img.length; i++) {
            if (!mask[i]) continue;
            num += (double) img[i] * truth[i];
            den += (double) img[i] * img[i];
        }
        return num / den;
    }
}
