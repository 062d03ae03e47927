package org.tomospark.executor.stripe;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A sinogram with every detector column sorted over the angles, and where each sorted value came from. The
 * sorting-based stripe filters of Vo et al. (2018) work in this domain: there the object's contribution varies
 * smoothly from column to column, while a column with a gain error stands out as an offset of its whole
 * sorted profile.
 *
 * @param values [rank·width + column]: column {@code column}'s values in ascending order
 * @param origin [rank·width + column]: the projection each value came from
 */
record SortedSinogram(float[] values, int[] origin, int nproj, int width) {

    static SortedSinogram of(float[] sino, int nproj, int width) {
        if (sino.length < (long) nproj * width)
            throw new IllegalArgumentException("stripe removal: sinogram holds " + sino.length + " values, expected " + nproj + "x"
                    + width);
        float[] sorted = new float[nproj * width];
        int[] origin = new int[nproj * width];
        IntStream.range(0, width).parallel().forEach(j -> {
            long[] keyed = new long[nproj];
            for (int p = 0; p < nproj; p++) keyed[p] = (((long) sortableBits(sino[p * width + j])) << 32) | p;
            Arrays.sort(keyed);
            for (int r = 0; r < nproj; r++) {
                int p = (int) (keyed[r] & 0xffffffffL);
                origin[r * width + j] = p;
                sorted[r * width + j] = sino[p * width + j];
            }
        });
        return new SortedSinogram(sorted, origin, nproj, width);
    }

    /** Each rank row median-filtered along the detector (window {@code size}, mirrored at the edges). */
    float[] medianAcrossColumns(int size) {
        float[] filtered = new float[nproj * width];
        IntStream.range(0, nproj).parallel().forEach(r -> {
            float[] row = Arrays.copyOfRange(values, r * width, (r + 1) * width);
            float[] out = Median.filter(row, size);
            System.arraycopy(out, 0, filtered, r * width, width);
        });
        return filtered;
    }

    /**
     * Writes {@code sortedValues} (in this sinogram's rank order) back to the original positions in {@code sino}, for
     * the given columns.
     */
    void unsort(float[] sortedValues, float[] sino, boolean[] columns) {
        for (int i = 0; i < nproj * width; i++) {
            int j = i % width;
            if (columns == null || columns[j]) sino[origin[i] * width + j] = sortedValues[i];
        }
    }

    /** Monotone int mapping of float order, so that (bits, index) pairs sort as the floats do. */
    private static int sortableBits(float f) {
        int b = Float.floatToIntBits(f);
        return b >= 0 ? b : b ^ 0x7fffffff;
    }
}
