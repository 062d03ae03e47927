package org.tomospark.executor.stripe;

import java.util.Arrays;

/**
 * Vo's sorting, fitting and thresholding segmentation (SFTS; Vo et al., Opt. Express 26 (2018) 28396, §3.3) of a
 * 1-D profile across the detector in which stripes stand out from a noisy but flat background.
 *
 * <p>The profile is sorted; a straight line is fitted to the middle half of the sorted values; its values F₀, F₁
 * at the first and last index span the noise, N = F₁ − F₀. If the smallest value lies more than R·N below F₀,
 * every value below F₀ − N·R/2 is a stripe; likewise above F₁ + N·R/2 when the largest value lies more than
 * R·N above F₁. R is the user's ratio ({@code stripe.snr}): larger finds fewer stripes.
 */
final class StripeDetector {
    /** The least noise level assumed, so that a noise-free profile does not make every rounding error a stripe. */
    static final double NOISE_FLOOR = 1e-6;

    private StripeDetector() {
    }

    static boolean[] detect(float[] profile, double snr) {
        int n = profile.length;
        boolean[] mask = new boolean[n];
        if (n < 8) return mask;
        float[] s = profile.clone();
        Arrays.sort(s);
        int drop = n / 4;
        // least-squares line through (i, s[i]) for the middle half
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        int m = 0;
        for (int i = drop; i < n - drop; i++) {
            sx += i;
            sy += s[i];
            sxx += (double) i * i;
            sxy += (double) i * s[i];
            m++;
        }
        double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
        double intercept = (sy - slope * sx) / m;
        double f0 = intercept, f1 = intercept + slope * (n - 1);
        double noise = Math.max(f1 - f0, NOISE_FLOOR);
        boolean low = (f0 - s[0]) / noise > snr, high = (s[n - 1] - f1) / noise > snr;
        double lower = f0 - noise * snr / 2, upper = f1 + noise * snr / 2;
        for (int j = 0; j < n; j++) mask[j] = (low && profile[j] < lower) || (high && profile[j] > upper);
        return mask;
    }

    /** The mask grown by one sample on each side. */
    static boolean[] dilate(boolean[] mask) {
        boolean[] d = mask.clone();
        for (int j = 0; j < mask.length; j++)
            if (mask[j]) {
                if (j > 0) d[j - 1] = true;
                if (j + 1 < mask.length) d[j + 1] = true;
            }
        return d;
    }
}
