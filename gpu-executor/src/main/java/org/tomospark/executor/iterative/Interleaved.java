package org.tomospark.executor.iterative;

import java.util.stream.IntStream;

/**
 * Element-wise work and per-slice reductions on interleaved arrays ({@code k} slices, element e of slice s at
 * {@code e·k + s}), split into chunks that run on the caller's fork-join pool.
 */
final class Interleaved {
    private Interleaved() {
    }

    /** Elements per parallel chunk. */
    private static final int CHUNK = 1 << 16;

    interface Range {
        void run(int from, int to);
    }

    /** Runs body over [0, n) in chunks, in parallel when there are several. */
    static void forEach(int n, Range body) {
        int chunks = (n + CHUNK - 1) / CHUNK;
        if (chunks < 2) {
            body.run(0, n);
            return;
        }
        IntStream.range(0, chunks).parallel().forEach(c -> body.run(c * CHUNK, Math.min(n, (c + 1) * CHUNK)));
    }

    /**
     * Σ a·b per slice, over the whole arrays: per chunk of elements in parallel, the chunks' sums added in order, so
     * that the result does not depend on the number of threads.
     */
    static double[] dots(float[] a, float[] b, int k) {
        int elements = a.length / k, per = Math.max(1, CHUNK / k), chunks = (elements + per - 1) / per;
        if (chunks < 2) return dots(a, b, k, 0, elements);
        double[][] part = new double[chunks][];
        IntStream.range(0, chunks).parallel().forEach(c -> part[c] = dots(a, b, k, c * per, Math.min(elements, (c + 1) * per)));
        double[] out = new double[k];
        for (double[] d : part) for (int s = 0; s < k; s++) out[s] += d[s];
        return out;
    }

    /** Σ a·b per slice over elements [from, to). */
    static double[] dots(float[] a, float[] b, int k, int from, int to) {
        double[] out = new double[k];
        for (int e = from; e < to; e++) {
            int o = e * k;
            for (int s = 0; s < k; s++) out[s] += (double) a[o + s] * b[o + s];
        }
        return out;
    }

    /**
     * ‖a − b‖² over the whole arrays (every slice), summed per chunk in parallel and the chunks' sums in order, so that
     * the result does not depend on the number of threads.
     */
    static double distanceSquared(float[] a, float[] b) {
        int chunks = (a.length + CHUNK - 1) / CHUNK;
        double[] part = new double[chunks];
        IntStream.range(0, chunks).parallel().forEach(c -> {
            double s = 0;
            for (int i = c * CHUNK, end = Math.min(a.length, (c + 1) * CHUNK); i < end; i++) {
                double d = (double) a[i] - b[i];
                s += d * d;
            }
            part[c] = s;
        });
        return sum(part);
    }

    /** Elements (pixels or bins, k floats each) per chunk of the per-slice sums that must not depend on k. */
    private static final int ELEMENTS = 4096;

    /**
     * ‖a − b‖² per slice: per chunk of {@link #ELEMENTS} elements in parallel, the chunks' sums added in order, so that a
     * slice's sum depends neither on the number of threads nor on how many slices share the pass.
     */
    static double[] distancesSquared(float[] a, float[] b, int k) {
        int elements = a.length / k, chunks = (elements + ELEMENTS - 1) / ELEMENTS;
        double[][] part = new double[chunks][];
        IntStream.range(0, chunks).parallel().forEach(c -> {
            double[] t = new double[k];
            for (int e = c * ELEMENTS, end = Math.min(elements, (c + 1) * ELEMENTS); e < end; e++) {
                int o = e * k;
                for (int s = 0; s < k; s++) {
                    double d = (double) a[o + s] - b[o + s];
                    t[s] += d * d;
                }
            }
            part[c] = t;
        });
        double[] out = new double[k];
        for (double[] t : part) for (int s = 0; s < k; s++) out[s] += t[s];
        return out;
    }

    /** Σ a·b per slice, k-independent as {@link #distancesSquared}. */
    static double[] dotsPerSlice(float[] a, float[] b, int k) {
        int elements = a.length / k, chunks = (elements + ELEMENTS - 1) / ELEMENTS;
        double[][] part = new double[chunks][];
        IntStream.range(0, chunks).parallel().forEach(c -> part[c] = dots(a, b, k, c * ELEMENTS, Math.min(elements, (c + 1) * ELEMENTS)));
        double[] out = new double[k];
        for (double[] t : part) for (int s = 0; s < k; s++) out[s] += t[s];
        return out;
    }

    static double sum(double[] v) {
        double t = 0;
        for (double d : v) t += d;
        return t;
    }
}
