package org.tomospark.executor.stripe;

import java.io.Serializable;
import java.util.Locale;

/**
 * The stripe-removal method and its settings (config keys {@code stripe.*}).
 *
 * @param method    which filter runs
 * @param size      median window across columns of {@code sorting} and {@code offset}, and of the small-stripe pass of
 *                  {@code all} (odd, ≥ 3)
 * @param sigma     {@code fw}: width of the Gaussian damping along the angles, in frequency indices
 * @param level     {@code fw}: wavelet decomposition levels (1..16)
 * @param snr       {@code all}: detection ratio of {@link StripeDetector} (larger finds fewer stripes)
 * @param largeSize {@code all}: median window of the large-stripe and dead-column passes (odd, ≥ 3)
 */
public record StripeParams(StripeRemoval.Method method, int size, double sigma, int level, double snr, int largeSize)
        implements Serializable {

    /** No stripe removal, with the defaults of conf/CONFIG.md for the rest. */
    public static final StripeParams NONE = new StripeParams(StripeRemoval.Method.NONE, 11, 1, 3, 3, 61);

    public StripeParams {
        if (method == null) method = StripeRemoval.Method.NONE;
        if (method != StripeRemoval.Method.NONE) {
            if (size < 3 || size % 2 == 0) throw new IllegalArgumentException("stripe.size must be an odd number >= 3, got " + size);
            if (!(sigma > 0)) throw new IllegalArgumentException("stripe.sigma must be > 0, got " + sigma);
            if (level < 1 || level > 16) throw new IllegalArgumentException("stripe.level must be in 1..16, got " + level);
            if (!(snr > 0)) throw new IllegalArgumentException("stripe.snr must be > 0, got " + snr);
            if (largeSize < 3 || largeSize % 2 == 0)
                throw new IllegalArgumentException("stripe.largeSize must be an odd number >= 3, got " + largeSize);
        }
    }

    public static StripeParams of(StripeRemoval.Method method, int size) {
        return NONE.with(method).withSize(size);
    }

    public StripeParams with(StripeRemoval.Method m) {
        return new StripeParams(m, size, sigma, level, snr, largeSize);
    }

    public StripeParams withSize(int s) {
        return new StripeParams(method, s, sigma, level, snr, largeSize);
    }

    public StripeParams withFourierWavelet(double sigma, int level) {
        return new StripeParams(method, size, sigma, level, snr, largeSize);
    }

    public StripeParams withAll(double snr, int largeSize) {
        return new StripeParams(method, size, sigma, level, snr, largeSize);
    }

    public boolean active() {
        return method != StripeRemoval.Method.NONE;
    }

    /** The method and the settings it uses, for the report: e.g. {@code fw (sigma 2, level auto)}. */
    public String describe() {
        return switch (method) {
            case NONE -> "none";
            case SORTING, OFFSET -> method.id() + " (size " + size + ")";
            case FW -> String.format(Locale.ROOT, "fw (sigma %s, level %d, db%d)", num(sigma), level, FourierWaveletFilter.WAVELET_ORDER);
            case ALL -> String.format(Locale.ROOT, "all (snr %s, largeSize %d, size %d)", num(snr), largeSize, size);
        };
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
