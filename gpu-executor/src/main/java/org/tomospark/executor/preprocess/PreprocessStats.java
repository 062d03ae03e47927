package org.tomospark.executor.preprocess;

import java.io.Serializable;

/**
 * Counts of values the preprocessing had to repair, reported per slice group and summed per run.
 *
 * @param values              detector values processed
 * @param clampedDenominators flat − dark ≤ 0 (or tiny) pixels whose denominator was clamped
 * @param clampedTransmission transmissions ≤ 0 (or below the floor) clamped before −log
 * @param repairedNonFinite   NaN/Inf values replaced by the mean of their finite row neighbours
 */
public record PreprocessStats(long values, long clampedDenominators, long clampedTransmission, long repairedNonFinite)
        implements Serializable {
    public static final PreprocessStats ZERO = new PreprocessStats(0, 0, 0, 0);

    public PreprocessStats plus(PreprocessStats o) {
        return new PreprocessStats(values + o.values, clampedDenominators + o.clampedDenominators,
                clampedTransmission + o.clampedTransmission, repairedNonFinite + o.repairedNonFinite);
    }

    public boolean anyRepairs() {
        return clampedDenominators + clampedTransmission + repairedNonFinite > 0;
    }
}
