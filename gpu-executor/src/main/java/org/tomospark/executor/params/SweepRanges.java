package org.tomospark.executor.params;

/**
 * What a centre sweep and a TV-weight sweep are asked to cover, as their config keys give it ({@code center.sweep},
 * {@code iterative.tvWeightSweep}): checked when the settings are read, before anything runs.
 */
public final class SweepRanges {
    /** The most weights of one TV-weight sweep. */
    public static final int MAX_TV_WEIGHTS = 16;

    private SweepRanges() {
    }

    /** The centres start, start+step, …, ≤ end (at most 201). */
    public static double[] centers(double start, double end, double step) {
        if (!(step > 0) || !(end >= start))
            throw new IllegalArgumentException("center.sweep must be START:END:STEP with STEP > 0 and END >= START, got "
                    + start + ":" + end + ":" + step);
        int n = (int) Math.floor((end - start) / step + 1e-9) + 1;
        if (n > 201) throw new IllegalArgumentException("center.sweep: " + n + " centres requested, at most 201");
        double[] c = new double[n];
        for (int i = 0; i < n; i++) c[i] = start + i * step;
        return c;
    }

    /** The weight factors of a comma-separated list: positive, at most {@link #MAX_TV_WEIGHTS}, in the order given. */
    public static double[] tvFactors(String list) {
        String[] parts = list.split(",");
        if (parts.length > MAX_TV_WEIGHTS)
            throw new IllegalArgumentException(parts.length + " weights requested, at most " + MAX_TV_WEIGHTS);
        double[] f = new double[parts.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = Double.parseDouble(parts[i].trim());
            if (!(f[i] > 0) || Double.isInfinite(f[i]))
                throw new IllegalArgumentException("weight factor '" + parts[i].trim() + "' is not a finite number > 0");
        }
        return f;
    }
}
