package org.tomospark.executor.params;

import org.tomospark.executor.preprocess.Preprocessor;

import java.io.Serializable;

/**
 * The flat/dark correction's limits.
 *
 * @param denominatorFloor  flat − dark values below this are clamped
 * @param transmissionFloor transmissions below this are clamped before −log
 * @param maxRepairFraction the largest fraction of clamped/repaired values accepted before the input is rejected
 */
public record CorrectionSettings(float denominatorFloor, float transmissionFloor, double maxRepairFraction) implements Serializable {

    /** The defaults documented in conf/. */
    public static final CorrectionSettings DEFAULTS = new CorrectionSettings(1e-3f, 1e-6f, 0.05);

    public CorrectionSettings {
        preprocessor(denominatorFloor, transmissionFloor, maxRepairFraction); // validates
    }

    public Preprocessor preprocessor() {
        return preprocessor(denominatorFloor, transmissionFloor, maxRepairFraction);
    }

    private static Preprocessor preprocessor(float denominatorFloor, float transmissionFloor, double maxRepairFraction) {
        return new Preprocessor(denominatorFloor, transmissionFloor, maxRepairFraction, true);
    }
}
