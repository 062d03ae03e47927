package org.tomospark.executor.util;

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
        double num = 0, den = 0;
        for (int s = 0; s < ref.length; s++) {
            if (got[s].length != ref[s].length)
                throw new IllegalArgumentException("slice " + s + ": " + got[s].length + " pixels compared with " + ref[s].length);
            for (int i = 0; i < ref[s].length; i++) {
                float g = got[s][i];
                if (!Float.isFinite(g)) return Double.POSITIVE_INFINITY;
                double d = (double) g - ref[s][i];
                num += d * d;
                den += (double) ref[s][i] * ref[s][i];
            }
        }
        if (den == 0) return num == 0 ? 0 : Double.POSITIVE_INFINITY;
        return Math.sqrt(num / den);
    }

    /** {@link #relL2(float[][], float[][])} of one image. */
    public static double relL2(float[] got, float[] ref) {
        return relL2(new float[][]{got}, new float[][]{ref});
    }
}
