package org.tomospark.executor.iterative;

import java.util.Locale;

/** Why a pass of slices stopped iterating. */
public enum StopReason {
    /** It ran the iteration count it was given. */
    ITERATIONS,
    /** Its relative residual ‖A·x − p‖/‖p‖ fell to the tolerance. */
    RESIDUAL,
    /** Its residual (TV: its image) changed by no more than the tolerance, relatively, in one iteration. */
    CHANGE,
    /** Its residual fell to the noise expected from the flats' counts (the discrepancy principle). */
    DISCREPANCY,
    /** It reached the most iterations of an automatic stop before its rule said stop. */
    LIMIT;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
