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

    static double sum(double[] v) {
        double t = 0;
        for (double d : v) t += d;
        return t;
    }
}
