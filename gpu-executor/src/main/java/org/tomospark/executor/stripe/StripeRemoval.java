package org.tomospark.executor.stripe;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Stripe (ring-artefact) removal on −log sinograms, applied per sinogram before the ramp filter.
 *
 * <p>{@link Method#SORTING}: the sorting-based filter of Vo, Atwood &amp; Drakopoulos, Opt. Express 26 (2018)
 * 28396 (their algorithm 3). A detector column with a gain error adds a constant to every value of its
 * sinogram column. Each column is sorted over the angles; in the sorted image the object's contribution varies
 * smoothly from column to column while a stripe is an isolated offset, which a median filter along the
 * detector direction (window {@code size}) removes; the values are then put back in their original order.
 * Stripes whose offset depends on the intensity (non-linear pixels) are handled as well as constant ones, but
 * the median also nudges legitimate narrow structure in the sorted image.
 *
 * <p>{@link Method#OFFSET}: the same sorting and median filter estimate the stripe-free sorted sinogram; the
 * correction applied is then one constant per column, the median over angles of (sorted − filtered). That is
 * exactly the model of a detector column with a gain error (a constant after −log), and it leaves every other
 * column's structure untouched, since there the median difference is ≈ 0.
 */
public final class StripeRemoval {
    private StripeRemoval() {
    }

    public enum Method {
        NONE("none"), SORTING("sorting"), OFFSET("offset");

        private final String id;

        Method(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Method parse(String s) {
            String v = s.trim().toLowerCase(Locale.ROOT);
            for (Method m : values()) if (m.id.equals(v)) return m;
            throw new IllegalArgumentException("unknown stripe removal method '" + s + "': expected none, sorting or offset");
        }
    }

    /** Applies {@code method} in place to one sinogram ({@code nproj × width}, row-major). */
    public static void apply(Method method, float[] sino, int nproj, int width, int size) {
        if (method == Method.SORTING) sorting(sino, nproj, width, size, false);
        else if (method == Method.OFFSET) sorting(sino, nproj, width, size, true);
    }

    /** Vo's sorting-based filter, in place. {@code size}: median window across columns (odd, ≥ 3). */
    public static void sorting(float[] sino, int nproj, int width, int size, boolean perColumnOffset) {
        if (size < 3 || size % 2 == 0) throw new IllegalArgumentException("stripe.size must be an odd number >= 3, got " + size);
        if (sino.length < (long) nproj * width)
            throw new IllegalArgumentException("stripe removal: sinogram holds " + sino.length + " values, expected " + nproj + "x" + width);
        // sort every column, remembering where each value came from
        float[] sorted = new float[nproj * width];   // [rank][col]
        int[] origin = new int[nproj * width];       // [rank][col] -> projection index
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
        // median along the detector direction of each rank row, then back to the original order
        int half = size / 2;
        float[] filtered = new float[nproj * width];
        IntStream.range(0, nproj).parallel().forEach(r -> {
            float[] win = new float[size];
            int base = r * width;
            for (int j = 0; j < width; j++) {
                for (int k = -half; k <= half; k++) win[k + half] = sorted[base + reflect(j + k, width)];
                Arrays.sort(win);
                filtered[base + j] = win[half];
            }
        });
        if (!perColumnOffset) {
            for (int i = 0; i < nproj * width; i++) sino[origin[i] * width + i % width] = filtered[i];
            return;
        }
        IntStream.range(0, width).parallel().forEach(j -> {
            float[] d = new float[nproj];
            for (int r = 0; r < nproj; r++) d[r] = sorted[r * width + j] - filtered[r * width + j];
            Arrays.sort(d);
            float off = (nproj & 1) == 1 ? d[nproj / 2] : 0.5f * (d[nproj / 2 - 1] + d[nproj / 2]);
            for (int p = 0; p < nproj; p++) sino[p * width + j] -= off;
        });
    }

    /** Monotone int mapping of float order, so that (bits, index) pairs sort as the floats do. */
    private static int sortableBits(float f) {
        int b = Float.floatToIntBits(f);
        return b >= 0 ? b : b ^ 0x7fffffff;
    }

    private static int reflect(int j, int n) {
        if (n == 1) return 0;
        while (j < 0 || j >= n) j = j < 0 ? -j : 2 * (n - 1) - j;
        return j;
    }
}
