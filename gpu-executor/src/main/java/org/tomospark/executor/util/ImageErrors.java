package org.tomospark.executor.util;

import java.util.function.IntToDoubleFunction;

/** The one relative-error measure the benchmarks and tests compare backends with. */
public final class ImageErrors {
    private ImageErrors() {
    }

    /**
     * ‖got − ref‖₂ / ‖ref‖₂ over all slices, in double. A non-finite value in {@code got} (an unwritten or broken
     * pixel) gives +∞; an all-zero reference gives 0 if {@code got} is zero too, else +∞.
     */
    public static double relL2(float[][] got, float[][] ref) {
        if (got.length != ref.length) throw new IllegalArgumentException(got.length + " slices compared with " + ref.length);
        double[] sums = new double[2];
        for (int s = 0; s < ref.length; s++) {
            if (got[s].length != ref[s].length)
                throw new IllegalArgumentException("slice " + s + ": " + got[s].length + " pixels compared with " + ref[s].length);
            float[] r = ref[s];
            if (!accumulate(got[s], i -> r[i], sums)) return Double.POSITIVE_INFINITY;
        }
        return ratio(sums);
    }

    /** As {@link #relL2(float[][], float[][])}, one image against a double-precision reference. */
    public static double relL2(float[] got, double[] ref) {
        if (got.length != ref.length) throw new IllegalArgumentException(got.length + " pixels compared with " + ref.length);
        double[] sums = new double[2];
        return accumulate(got, i -> ref[i], sums) ? ratio(sums) : Double.POSITIVE_INFINITY;
    }

    /** Adds ‖got − ref‖² and ‖ref‖² to sums[0], sums[1]; false on a non-finite value in got. */
    private static boolean accumulate(float[] got, IntToDoubleFunction ref, double[] sums) {
        for (int i = 0; i < got.length; i++) {
            float g = got[i];
            if (!Float.isFinite(g)) return false;
            double r = ref.applyAsDouble(i), d = g - r;
            sums[0] += d * d;
            sums[1] += r * r;
        }
        return true;
    }

    private static double ratio(double[] sums) {
        if (sums[1] == 0) return sums[0] == 0 ? 0 : Double.POSITIVE_INFINITY;
        return Math.sqrt(sums[0] / sums[1]);
    }

    /** {@link #relL2(float[][], float[][])} of one image. */
    public static double relL2(float[] got, float[] ref) {
        return relL2(new float[][]{got}, new float[][]{ref});
    }
}
