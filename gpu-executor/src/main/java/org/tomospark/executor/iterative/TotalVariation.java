package org.tomospark.executor.iterative;

import java.util.stream.IntStream;

/**
 * The discrete gradient and divergence of isotropic total variation on interleaved images ({@code k} slices of
 * rows × cols, pixel (i, j) of slice s at {@code (i·cols + j)·k + s}), and the two Chambolle–Pock steps built on them.
 * <ul>
 *   <li>gradient: forward differences, gx(i, j) = x(i, j+1) − x(i, j) and gy(i, j) = x(i+1, j) − x(i, j), zero in the
 *   last column (gx) and the last row (gy): the Neumann boundary, so that a constant image has no variation;</li>
 *   <li>divergence: div = −∇ᵀ, div z(i, j) = zx(i, j) − zx(i, j−1) + zy(i, j) − zy(i−1, j), a term dropped where its
 *   index leaves the image and zx, zy read as zero in the last column and row, so that ⟨∇x, z⟩ = −⟨x, div z⟩.</li>
 * </ul>
 * TV(x) = Σ |∇x(i, j)|₂ over the pixels. Rows run in parallel on the caller's fork-join pool.
 */
public final class TotalVariation {
    private TotalVariation() {
    }

    /** (gx, gy) ← ∇x. */
    public static void gradient(float[] x, float[] gx, float[] gy, int rows, int cols, int k) {
        IntStream.range(0, rows).parallel().forEach(i -> {
            for (int j = 0; j < cols; j++) {
                int o = (i * cols + j) * k;
                for (int s = 0; s < k; s++) {
                    float v = x[o + s];
                    gx[o + s] = j + 1 < cols ? x[o + k + s] - v : 0f;
                    gy[o + s] = i + 1 < rows ? x[o + cols * k + s] - v : 0f;
                }
            }
        });
    }

    /** out ← div z = −∇ᵀ(zx, zy). */
    public static void divergence(float[] zx, float[] zy, float[] out, int rows, int cols, int k) {
        IntStream.range(0, rows).parallel().forEach(i -> {
            for (int j = 0; j < cols; j++) {
                int o = (i * cols + j) * k;
                for (int s = 0; s < k; s++) out[o + s] = divergenceAt(zx, zy, i, j, s, rows, cols, k);
            }
        });
    }

    /** div z at pixel (i, j) of slice s. */
    static float divergenceAt(float[] zx, float[] zy, int i, int j, int s, int rows, int cols, int k) {
        int o = (i * cols + j) * k + s;
        float d = 0f;
        if (j + 1 < cols) d += zx[o];
        if (j > 0) d -= zx[o - k];
        if (i + 1 < rows) d += zy[o];
        if (i > 0) d -= zy[o - cols * k];
        return d;
    }

    /** Σ |∇x|₂ per slice: the isotropic total variation of each slice. */
    public static double[] of(float[] x, int rows, int cols, int k) {
        double[][] perRow = new double[rows][];
        IntStream.range(0, rows).parallel().forEach(i -> {
            double[] t = new double[k];
            for (int j = 0; j < cols; j++) {
                int o = (i * cols + j) * k;
                for (int s = 0; s < k; s++) {
                    double v = x[o + s];
                    double gx = j + 1 < cols ? x[o + k + s] - v : 0, gy = i + 1 < rows ? x[o + cols * k + s] - v : 0;
                    t[s] += Math.sqrt(gx * gx + gy * gy);
                }
            }
            perRow[i] = t;
        });
        double[] out = new double[k];
        for (double[] t : perRow) for (int s = 0; s < k; s++) out[s] += t[s];
        return out;
    }

    /** (zx, zy) ← the projection of (zx, zy) + σ·∇x̄ onto the disc of radius weight[s], pixel by pixel. */
    static void dual(float[] zx, float[] zy, float[] xbar, float sigma, float[] weight, int rows, int cols, int k) {
        IntStream.range(0, rows).parallel().forEach(i -> {
            for (int j = 0; j < cols; j++) {
                int o = (i * cols + j) * k;
                for (int s = 0; s < k; s++) {
                    float v = xbar[o + s];
                    float gx = j + 1 < cols ? xbar[o + k + s] - v : 0f, gy = i + 1 < rows ? xbar[o + cols * k + s] - v : 0f;
                    float ax = zx[o + s] + sigma * gx, ay = zy[o + s] + sigma * gy;
                    float norm = (float) Math.sqrt(ax * ax + ay * ay), w = weight[s];
                    float scale = norm > w ? (w > 0 ? w / norm : 0f) : 1f;
                    zx[o + s] = ax * scale;
                    zy[o + s] = ay * scale;
                }
            }
        });
    }

    /** x' = x − τ·(u − div z), clipped at 0 when nonNegative; x̄ ← 2x' − x, x ← x'. */
    static void primal(float[] x, float[] xbar, float[] u, float[] zx, float[] zy, float[] tau, boolean nonNegative,
                       int rows, int cols, int k) {
        IntStream.range(0, rows).parallel().forEach(i -> {
            for (int j = 0; j < cols; j++) {
                int o = (i * cols + j) * k;
                for (int s = 0; s < k; s++) {
                    float div = divergenceAt(zx, zy, i, j, s, rows, cols, k);
                    float old = x[o + s];
                    float v = old - tau[o + s] * (u[o + s] - div);
                    if (nonNegative && v < 0f) v = 0f;
                    x[o + s] = v;
                    xbar[o + s] = 2f * v - old;
                }
            }
        });
    }
}
