package org.tomospark.executor.iterative;

import org.tomospark.executor.util.Cancellation;

import java.util.stream.IntStream;

/**
 * The data of one pass, interleaved as the projector's sinograms: the −log sinograms {@code lineIntegrals}
 * (projections × width × k) and, where the scan has flats, the unattenuated counts {@code blank} per detector column
 * and slice (width × k, flat − dark), so that the measured counts are blank·e^−p: the likelihood methods' data and the
 * noise of the discrepancy rule. {@code blank} is null where the scan has no flats (or a stage changed the counts).
 * The solver stops after the iteration in which {@code cancellation} says so.
 */
public record Measurements(float[] lineIntegrals, float[] blank, Cancellation cancellation) {
    /** The fewest counts a ray is taken to carry in the noise estimate: −log of fewer is no longer Gaussian. */
    static final double MIN_COUNTS = 1;

    public Measurements {
        if (lineIntegrals == null) throw new IllegalArgumentException("measurements need the -log sinograms");
        if (cancellation == null) throw new IllegalArgumentException("measurements need a cancellation (Cancellation.NONE)");
    }

    /** Data no one cancels. */
    public Measurements(float[] lineIntegrals, float[] blank) {
        this(lineIntegrals, blank, Cancellation.NONE);
    }

    public boolean hasBlank() {
        return blank != null;
    }

    /**
     * The noise the −log data of each of the pass's {@code k} slices carry, Σ Var(p) = Σ 1/y over its rays, y =
     * blank·e^−p the counts (Poisson: Var(−log y) ≈ 1/y), y taken as at least {@link #MIN_COUNTS}; zeros without flats.
     * Rays outside the detector's counted columns (blank ≤ 0) carry none. Summed per projection in column order and the
     * projections in order: the same on any number of threads and for any k.
     */
    public double[] noiseSquares(int k) {
        double[] out = new double[k];
        if (blank == null) return out;
        int row = blank.length, projections = lineIntegrals.length / row;
        double[][] part = new double[projections][];
        IntStream.range(0, projections).parallel().forEach(p -> {
            double[] t = new double[k];
            for (int e = 0, i = p * row; e < row; e++, i++) {
                if (!(blank[e] > 0)) continue;
                double y = blank[e] * Math.exp(-lineIntegrals[i]);
                t[e % k] += 1 / Math.max(MIN_COUNTS, y);
            }
            part[p] = t;
        });
        for (double[] t : part) for (int s = 0; s < k; s++) out[s] += t[s];
        return out;
    }
}
