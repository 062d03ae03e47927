package org.tomospark.executor.backend;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;

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
        final float[] dst = out;
        int n = Math.min(k, sinograms.length - first);
        forChunks(bins, (b0, b1) -> {
            for (int s = 0; s < k; s++) {
                if (s < n) {
                    float[] src = sinograms[first + s];
                    for (int b = b0, o = b0 * k + s; b < b1; b++, o += k) dst[o] = src[b];
                } else {
                    for (int b = b0, o = b0 * k + s; b < b1; b++, o += k) dst[o] = 0f;
                }
            }
        });
        return out;
    }

    /** Bins per parallel chunk; below two chunks the packing runs on the calling thread. */
    static final int CHUNK = 1 << 18;

    /**
     * Runs body over [0, bins) in chunks, in parallel when there is enough work: on the ForkJoinPool the caller runs
     * in (a backend's own pool), else the common pool.
     */
    static void forChunks(int bins, BiConsumer<Integer, Integer> body) {
        forChunks(bins, CHUNK, body);
    }

    /** Runs body over [0, total) in chunks of {@code chunk} items, in parallel when there are two or more. */
    static void forChunks(int total, int chunk, BiConsumer<Integer, Integer> body) {
        int chunks = (total + chunk - 1) / chunk;
        if (chunks < 2) {
            body.accept(0, total);
            return;
        }
        IntStream.range(0, chunks).parallel()
                .forEach(c -> body.accept(c * chunk, Math.min(total, (c + 1) * chunk)));
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
        final float[] dst = out;
        forChunks(nproj, Math.max(1, CHUNK / (stride * k)), (p0, p1) -> {
            for (int p = p0; p < p1; p++) {
                int row = p * stride * k;
                Arrays.fill(dst, row, row + padLeft * k, 0f);
                Arrays.fill(dst, row + (padLeft + width) * k, row + stride * k, 0f);
                for (int s = 0; s < k; s++) {
                    int o = row + padLeft * k + s;
                    if (s < count) {
                        float[] src = sinograms[first + s];
                        for (int c = 0, i = p * width; c < width; c++, i++, o += k) dst[o] = src[i];
                    } else {
                        for (int c = 0; c < width; c++, o += k) dst[o] = 0f;
                    }
                }
            }
        });
        return out;
    }

    /** As {@link #interleave} but stored as IEEE half (binary16) bits. */
    public static short[] interleaveHalf(float[][] sinograms, int first, int k, int bins, short[] out) {
        if (out == null || out.length < (long) bins * k) out = new short[bins * k];
        final short[] dst = out;
        int n = Math.min(k, sinograms.length - first);
        forChunks(bins, (b0, b1) -> {
            for (int s = 0; s < k; s++) {
                if (s < n) {
                    float[] src = sinograms[first + s];
                    for (int b = b0, o = b0 * k + s; b < b1; b++, o += k) dst[o] = Half.fromFloat(src[b]);
                } else {
                    for (int b = b0, o = b0 * k + s; b < b1; b++, o += k) dst[o] = 0;
                }
            }
        });
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
