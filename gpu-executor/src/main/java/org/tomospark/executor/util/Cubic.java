package org.tomospark.executor.util;

/** Keys cubic interpolation (a = −0.5) of sampled rows: the centre search's fine steps and the half-acquisition stitch. */
public final class Cubic {
    private Cubic() {
    }

    /** The row {@code f} interpolated at x ∈ [0, len−1], samples past either end taken as the end sample. */
    public static double at(double[] f, double x) {
        int n = f.length;
        int i = (int) Math.floor(x);
        double t = x - i;
        double fm1 = f[clamp(i - 1, n)], f0 = f[clamp(i, n)], f1 = f[clamp(i + 1, n)], f2 = f[clamp(i + 2, n)];
        return f0 + 0.5 * t * (f1 - fm1 + t * (2 * fm1 - 5 * f0 + 4 * f1 - f2 + t * (3 * (f0 - f1) + f2 - fm1)));
    }

    private static int clamp(int i, int n) {
        return i < 0 ? 0 : (i >= n ? n - 1 : i);
    }
}
