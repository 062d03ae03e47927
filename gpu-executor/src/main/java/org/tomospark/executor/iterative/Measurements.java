package org.tomospark.executor.iterative;

/**
 * The data of one pass, interleaved as the projector's sinograms: the −log sinograms {@code lineIntegrals}
 * (projections × width × k) and, for the likelihood methods, the unattenuated counts {@code blank} per detector column
 * and slice (width × k, from the flats: flat − dark), so that the measured counts are blank·exp(−p). {@code blank} is
 * null where the scan has no flats.
 */
public record Measurements(float[] lineIntegrals, float[] blank) {
    public Measurements {
        if (lineIntegrals == null) throw new IllegalArgumentException("measurements need the -log sinograms");
    }

    public boolean hasBlank() {
        return blank != null;
    }
}
