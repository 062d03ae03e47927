package org.tomospark.executor.backend;

import org.tomospark.executor.util.Cancellation;

/**
 * A batch of sinograms handed to a backend: {@code count} slices starting at detector row
 * {@code firstRow}, each a row-major {@code numProjections × width} float array.
 * {@code filtered} says whether the ramp filter was already applied on the host. The backend stops between its steps
 * once {@code cancellation} says so.
 */
public record SliceBatch(int firstRow, float[][] sinograms, int numProjections, int width, boolean filtered,
                         Cancellation cancellation) {
    /** A batch no one cancels. */
    public SliceBatch(int firstRow, float[][] sinograms, int numProjections, int width, boolean filtered) {
        this(firstRow, sinograms, numProjections, width, filtered, Cancellation.NONE);
    }

    public SliceBatch {
        if (cancellation == null) throw new IllegalArgumentException("a batch needs a cancellation (Cancellation.NONE)");
        if (sinograms == null || sinograms.length == 0) throw new IllegalArgumentException("batch holds no sinograms");
        long n = (long) numProjections * width;
        for (int s = 0; s < sinograms.length; s++)
            if (sinograms[s] == null || sinograms[s].length != n)
                throw new IllegalArgumentException("sinogram " + s + " of batch at row " + firstRow + " has "
                        + (sinograms[s] == null ? 0 : sinograms[s].length) + " values, expected " + numProjections
                        + " projections x " + width + " columns");
    }

    public int count() {
        return sinograms.length;
    }
}
