package org.tomospark.executor.stripe;

import java.util.stream.IntStream;

/**
 * The sorting-based filter of Vo, Atwood &amp; Drakopoulos, Opt. Express 26 (2018) 28396 (their algorithm 3),
 * and a per-column variant of it.
 *
 * <p>{@link #sorting}: a detector column with a gain error adds a constant to every value of its −log sinogram
 * column. Each column is sorted over the angles; in the sorted image the object's contribution varies smoothly
 * from column to column while a stripe is an isolated offset, which a median filter along the detector direction
 * (window {@code size}) removes; the values are then put back in their original order. Stripes whose offset
 * depends on the intensity are handled as well as constant ones, but the median also flattens every peak and
 * valley of the sorted profiles, so a scan without stripes loses detail too.
 *
 * <p>{@link #offset}: the same sorting and median filter estimate the stripe-free sorted sinogram; the correction
 * applied is then one constant per column, the median over angles of (sorted − filtered). That is exactly the
 * model of a detector column with a gain error, and it leaves other columns' structure untouched, since there
 * the median difference is ≈ 0.
 */
public final class SortingFilter {
    private SortingFilter() {
    }

    /** Vo's algorithm 3, in place. {@code size}: median window across columns (odd, ≥ 3). */
    public static void sorting(float[] sino, int nproj, int width, int size) {
        checkSize(size);
        SortedSinogram s = SortedSinogram.of(sino, nproj, width);
        s.unsort(s.medianAcrossColumns(size), sino, null);
    }

    /** One offset per column: the median over angles of (sorted − median-filtered sorted), subtracted in place. */
    public static void offset(float[] sino, int nproj, int width, int size) {
        checkSize(size);
        SortedSinogram s = SortedSinogram.of(sino, nproj, width);
        float[] filtered = s.medianAcrossColumns(size);
        float[] sorted = s.values();
        IntStream.range(0, width).parallel().forEach(j -> {
            float[] d = new float[nproj];
            for (int r = 0; r < nproj; r++) d[r] = sorted[r * width + j] - filtered[r * width + j];
            float off = Median.of(d);
            for (int p = 0; p < nproj; p++) sino[p * width + j] -= off;
        });
    }

    static void checkSize(int size) {
        if (size < 3 || size % 2 == 0) throw new IllegalArgumentException("stripe.size must be an odd number >= 3, got " + size);
    }
}
