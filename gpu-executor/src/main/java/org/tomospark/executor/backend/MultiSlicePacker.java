package org.tomospark.executor.backend;

/**
 * Interleaves the sinograms of several slices into one compound sinogram (seed paper sect. 5.2), so that
 * one fetch of bin (p, c) serves every slice: {@code packed[(p·width + c)·k + s] = sino[s][p·width + c]}.
 * A batch shorter than k is padded with zero sinograms.
 */
public final class MultiSlicePacker {
    private MultiSlicePacker() {
    }

    /**
     * @param sinograms the batch's sinograms, each numProjections × width
     * @param first     index of the first sinogram of this pass
     * @param k         slices per pass
     * @param out       destination of numProjections·width·k floats (allocated if null or too small)
     */
    public static float[] interleave(float[][] sinograms, int first, int k, int bins, float[] out) {
        if (out == null || out.length < (long) bins * k) out = new float[bins * k];
        int n = Math.min(k, sinograms.length - first);
        for (int s = 0; s < k; s++) {
            if (s < n) {
                float[] src = sinograms[first + s];
                for (int b = 0, o = s; b < bins; b++, o += k) out[o] = src[b];
            } else {
                for (int b = 0, o = s; b < bins; b++, o += k) out[o] = 0f;
            }
        }
        return out;
    }

    /**
     * Interleaves with zero guard bins around every projection row: row p holds bins −padLeft … width+padRight−1,
     * i.e. {@code out[((p·(width+padLeft+padRight)) + padLeft + c)·k + s] = sino[s][p·width + c]}, zeros elsewhere.
     * Guard bins let a kernel read out-of-detector positions without branching.
     */
    public static float[] interleavePadded(float[][] sinograms, int first, int k, int nproj, int width, int padLeft,
                                           int padRight, float[] out) {
        int stride = width + padLeft + padRight;
        int n = nproj * stride * k;
        if (out == null || out.length < n) out = new float[n];
        int count = Math.min(k, sinograms.length - first);
        for (int p = 0; p < nproj; p++) {
            int row = p * stride * k;
            java.util.Arrays.fill(out, row, row + padLeft * k, 0f);
            java.util.Arrays.fill(out, row + (padLeft + width) * k, row + stride * k, 0f);
            for (int s = 0; s < k; s++) {
                int o = row + padLeft * k + s;
                if (s < count) {
                    float[] src = sinograms[first + s];
                    for (int c = 0, i = p * width; c < width; c++, i++, o += k) out[o] = src[i];
                } else {
                    for (int c = 0; c < width; c++, o += k) out[o] = 0f;
                }
            }
        }
        return out;
    }

    /** As {@link #interleave} but stored as IEEE half (binary16) bits. */
    public static short[] interleaveHalf(float[][] sinograms, int first, int k, int bins, short[] out) {
        if (out == null || out.length < (long) bins * k) out = new short[bins * k];
        int n = Math.min(k, sinograms.length - first);
        for (int s = 0; s < k; s++) {
            if (s < n) {
                float[] src = sinograms[first + s];
                for (int b = 0, o = s; b < bins; b++, o += k) out[o] = Half.fromFloat(src[b]);
            } else {
                for (int b = 0, o = s; b < bins; b++, o += k) out[o] = 0;
            }
        }
        return out;
    }

    /** Splits an interleaved image ({@code pixels·k}) back into per-slice images, for the first n slices. */
    public static void deinterleave(float[] packed, int k, int pixels, float[][] out, int first, int n) {
        for (int s = 0; s < n; s++) {
            float[] dst = out[first + s];
            for (int i = 0, o = s; i < pixels; i++, o += k) dst[i] = packed[o];
        }
    }
}
