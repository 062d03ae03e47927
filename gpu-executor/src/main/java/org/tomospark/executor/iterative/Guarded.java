package org.tomospark.executor.iterative;

import java.util.stream.IntStream;

/**
 * The projectors' inputs with {@link #GUARD} zero pixels (bins) at both ends of every image line (sinogram row), so
 * that the two neighbours a ray or a pixel falls between are read without testing edges: a position the loops keep in
 * (−1, n) that rounds to just outside reads one guard further, still zero. Shared by the Java pair and the OpenCL
 * kernels (kernels/joseph.cl), whose layouts must agree.
 */
public final class Guarded {
    private Guarded() {
    }

    public static final int GUARD = 2;

    /** Columns per block of the transpose. */
    private static final int BLOCK = 32;

    /**
     * The image's rows (or, {@code transposed}, its columns) with guards: {@code out[(line·(n+2·GUARD) + GUARD + m)·k + s]}.
     */
    public static float[] lines(float[] image, int rows, int cols, int k, boolean transposed) {
        int lines = transposed ? cols : rows, n = transposed ? rows : cols, stride = (n + 2 * GUARD) * k;
        float[] out = new float[lines * stride];
        if (!transposed) {
            IntStream.range(0, lines).parallel()
                    .forEach(l -> System.arraycopy(image, l * cols * k, out, l * stride + GUARD * k, cols * k));
            return out;
        }
        // the transpose in blocks of columns: each image row is read in runs, each output line written in order
        IntStream.range(0, (cols + BLOCK - 1) / BLOCK).parallel().forEach(blk -> {
            int l0 = blk * BLOCK, l1 = Math.min(cols, l0 + BLOCK);
            for (int i = 0; i < rows; i++) {
                int src = (i * cols + l0) * k, dst = (i + GUARD) * k;
                for (int l = l0; l < l1; l++, src += k) {
                    int o = l * stride + dst;
                    for (int s = 0; s < k; s++) out[o + s] = image[src + s];
                }
            }
        });
        return out;
    }

    /** The sinogram rows of {@code angles} with guards: {@code out[(p·(width+2·GUARD) + GUARD + u)·k + s]}; other rows zero. */
    public static float[] sinogram(float[] sino, int projections, int width, int k, int[] angles) {
        int stride = (width + 2 * GUARD) * k;
        float[] out = new float[projections * stride];
        IntStream.range(0, angles.length).parallel()
                .forEach(a -> System.arraycopy(sino, angles[a] * width * k, out, angles[a] * stride + GUARD * k, width * k));
        return out;
    }
}
