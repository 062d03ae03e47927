package org.tomospark.executor.stripe;

import java.util.stream.IntStream;

/**
 * Vo's combination for all kinds of stripes (Vo, Atwood &amp; Drakopoulos, Opt. Express 26 (2018) 28396, TomoPy's
 * {@code remove_all_stripe}), in three passes over one sinogram:
 * <ol>
 *   <li><b>Unresponsive and fluctuating columns</b> (algorithm 6): each column's mean absolute deviation from its
 *   running mean over the angles, divided by the median of that profile over {@code largeSize} columns, is
 *   segmented with {@link StripeDetector} (a dead column varies too little, a fluctuating one too much); the
 *   columns found, and one neighbour each side, are replaced by linear interpolation across the detector.</li>
 *   <li><b>Large stripes</b> (algorithm 5): the columns are sorted over the angles and the sorted image is
 *   median-filtered across {@code largeSize} columns. The mean difference sorted − smoothed of each column (the
 *   extreme 5 % of ranks at each end left out) is its offset; every column is corrected by it, and the columns
 *   where {@link StripeDetector} finds it stands out (with one neighbour each side) are replaced by the smoothed
 *   sorted values, put back in their original order.</li>
 *   <li><b>Small and medium stripes</b> (algorithm 3): {@link SortingFilter#sorting} with window {@code size}.</li>
 * </ol>
 * Vo works on flat-field-corrected intensities, where a gain error is a factor and the corrections are ratios.
 * Here the sinograms are −log, where a gain error is an offset, so the ratios of step 2 become differences.
 */
public final class AllStripeFilter {
    /** Share of the ranks left out at each end when a column's offset is averaged (Vo's drop ratio 0.1, half each end). */
    static final double DROP_FRACTION = 0.05;
    /** Window (projections) of the running mean along the angles that fluctuation is measured against. */
    static final int FLUCTUATION_WINDOW = 11;

    private AllStripeFilter() {
    }

    public static void apply(float[] sino, int nproj, int width, double snr, int largeSize, int size) {
        SortingFilter.checkSize(size);
        if (largeSize < 3 || largeSize % 2 == 0)
            throw new IllegalArgumentException("stripe.largeSize must be an odd number >= 3, got " + largeSize);
        if (!(snr > 0)) throw new IllegalArgumentException("stripe.snr must be > 0, got " + snr);
        removeDeadColumns(sino, nproj, width, snr, largeSize);
        removeLargeStripes(sino, nproj, width, snr, largeSize);
        SortingFilter.sorting(sino, nproj, width, size);
    }

    /** Step 1; returns the columns replaced. */
    static boolean[] removeDeadColumns(float[] sino, int nproj, int width, double snr, int largeSize) {
        float[] variation = new float[width];
        int half = FLUCTUATION_WINDOW / 2;
        IntStream.range(0, width).parallel().forEach(j -> {
            double sum = 0;
            for (int p = 0; p < nproj; p++) {
                double mean = 0;
                for (int k = -half; k <= half; k++) mean += sino[Median.reflect(p + k, nproj) * width + j];
                sum += Math.abs(sino[p * width + j] - mean / FLUCTUATION_WINDOW);
            }
            variation[j] = (float) (sum / nproj);
        });
        float[] background = Median.filter(variation, Math.min(largeSize, oddAtMost(width)));
        float[] ratio = new float[width];
        for (int j = 0; j < width; j++) ratio[j] = background[j] > 0 ? variation[j] / background[j] : 1f;
        boolean[] mask = StripeDetector.dilate(StripeDetector.detect(ratio, snr));
        for (int j = 0; j < Math.min(2, width); j++) {
            mask[j] = false;
            mask[width - 1 - j] = false;
        }
        interpolateColumns(sino, nproj, width, mask);
        return mask;
    }

    /** Step 2; returns the columns replaced by the smoothed values. */
    static boolean[] removeLargeStripes(float[] sino, int nproj, int width, double snr, int largeSize) {
        SortedSinogram s = SortedSinogram.of(sino, nproj, width);
        float[] smooth = s.medianAcrossColumns(Math.min(largeSize, oddAtMost(width)));
        float[] sorted = s.values();
        int drop = (int) (DROP_FRACTION * nproj);
        float[] offset = new float[width];
        for (int j = 0; j < width; j++) {
            double sum = 0;
            for (int r = drop; r < nproj - drop; r++) sum += sorted[r * width + j] - smooth[r * width + j];
            offset[j] = (float) (sum / (nproj - 2 * drop));
        }
        boolean[] mask = StripeDetector.dilate(StripeDetector.detect(offset, snr));
        IntStream.range(0, nproj).parallel().forEach(p -> {
            for (int j = 0; j < width; j++) sino[p * width + j] -= offset[j];
        });
        s.unsort(smooth, sino, mask);
        return mask;
    }

    /** Replaces the masked columns, row by row, by linear interpolation between the nearest unmasked columns. */
    static void interpolateColumns(float[] sino, int nproj, int width, boolean[] mask) {
        int[] left = new int[width], right = new int[width];
        int last = -1;
        for (int j = 0; j < width; j++) {
            if (!mask[j]) last = j;
            left[j] = last;
        }
        last = -1;
        for (int j = width - 1; j >= 0; j--) {
            if (!mask[j]) last = j;
            right[j] = last;
        }
        IntStream.range(0, nproj).parallel().forEach(p -> {
            int base = p * width;
            for (int j = 0; j < width; j++) {
                if (!mask[j]) continue;
                int a = left[j], b = right[j];
                if (a < 0 && b < 0) return; // every column masked: nothing to interpolate from
                if (a < 0) sino[base + j] = sino[base + b];
                else if (b < 0) sino[base + j] = sino[base + a];
                else sino[base + j] = sino[base + a] + (sino[base + b] - sino[base + a]) * (j - a) / (float) (b - a);
            }
        });
    }

    private static int oddAtMost(int n) {
        return (n & 1) == 1 ? n : n - 1;
    }
}
