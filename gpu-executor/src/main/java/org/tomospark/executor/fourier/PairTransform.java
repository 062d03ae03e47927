package org.tomospark.executor.fourier;

import org.jtransforms.fft.FloatFFT_1D;
import org.tomospark.executor.filter.Padding;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * One pair of slices through gridrec's four stages, on a reusable workspace (the padded Fourier grid and one buffer
 * that holds the filtered rows, then the half-transformed image columns). Each stage is a loop over independent items
 * (projections, grid bands, grid rows, image columns) that runs serially or as a parallel stream in the calling
 * fork-join pool; per-thread scratch (row buffers, FFT plans) lives in a thread-local.
 *
 * <ol>
 *   <li>Rows: sinogram A as real part, B as imaginary part, padded, forward FFT, times the ramp response and the
 *   phase ramp that moves the detector coordinate of the grid's origin pixel to zero.</li>
 *   <li>Gridding: every sample (projection p, frequency k) spread over W × W grid cells with the tabulated kernel;
 *   the grid is cut into bands of rows so that parallel tasks never write the same cell.</li>
 *   <li>Grid rows: the padded border folded back, inverse FFT along each row, the ROI's columns kept (transposed).</li>
 *   <li>Image columns: inverse FFT along each column, the ROI's rows kept, deapodised; real part → slice A,
 *   imaginary part → slice B.</li>
 * </ol>
 * The padded grid is left all zero after stage 3 (each row is cleared once folded), ready for the next pair.
 */
final class PairTransform {
    private static final int BAND_ROWS = 32;
    private static final int BLOCK = 8;

    private final GridPlan plan;
    private final ThreadLocal<Scratch> scratch;
    final float[] grid;
    final float[] buffer;
    /** False once a stage failed part-way: the grid may hold stale values and must not be reused. */
    boolean clean = true;

    /** Per-thread buffers and FFT plans (JTransforms plans are not shared between threads). */
    static final class Scratch {
        final float[] row;
        final float[] block;
        final FloatFFT_1D rowFft;
        final FloatFFT_1D gridFft;

        Scratch(GridPlan plan) {
            row = new float[2 * plan.rowLength];
            block = new float[BLOCK * 2 * plan.grid];
            rowFft = new FloatFFT_1D(plan.rowLength);
            gridFft = new FloatFFT_1D(plan.grid);
        }
    }

    PairTransform(GridPlan plan, ThreadLocal<Scratch> scratch) {
        this.plan = plan;
        this.scratch = scratch;
        this.grid = new float[2 * plan.padded * plan.padded];
        this.buffer = new float[Math.toIntExact(plan.bufferFloats())];
    }

    /**
     * Reconstructs {@code a} (and {@code b}, or zeros when null) into {@code outA} (and {@code outB} when not null).
     *
     * @param parallel whether the stages run as parallel streams (in the caller's fork-join pool)
     */
    void run(float[] a, float[] b, float[] outA, float[] outB, boolean parallel) {
        clean = false;
        forEach(plan.projections, parallel, p -> filterRow(a, b, p));
        int bands = (plan.padded + BAND_ROWS - 1) / BAND_ROWS;
        forEach(bands, parallel, band -> gridBand(band * BAND_ROWS, Math.min(plan.padded, (band + 1) * BAND_ROWS)));
        forEach((plan.grid + BLOCK - 1) / BLOCK, parallel, this::gridRows);
        forEach((plan.roiCols + BLOCK - 1) / BLOCK, parallel, blk -> imageColumns(blk, outA, outB));
        clean = true;
    }

    private static void forEach(int n, boolean parallel, IntConsumer body) {
        if (parallel && n > 1) IntStream.range(0, n).parallel().forEach(body);
        else for (int i = 0; i < n; i++) body.accept(i);
    }

    /** Stage 1 for projection p: the filtered, phase-shifted spectrum, frequencies −L/2..L/2 (halved at ±L/2). */
    private void filterRow(float[] a, float[] b, int p) {
        Scratch s = scratch.get();
        float[] row = s.row;
        int w = plan.width, len = plan.rowLength, off = p * w;
        for (int c = 0; c < w; c++) {
            row[2 * c] = a[off + c];
            row[2 * c + 1] = b == null ? 0f : b[off + c];
        }
        if (plan.filter.padding() == Padding.EDGE) {
            int right = (len - w) / 2;
            float lastA = a[off + w - 1], firstA = a[off], lastB = b == null ? 0f : b[off + w - 1], firstB = b == null ? 0f : b[off];
            for (int c = w; c < w + right; c++) {
                row[2 * c] = lastA;
                row[2 * c + 1] = lastB;
            }
            for (int c = w + right; c < len; c++) {
                row[2 * c] = firstA;
                row[2 * c + 1] = firstB;
            }
        } else {
            Arrays.fill(row, 2 * w, 2 * len, 0f);
        }
        s.rowFft.complexForward(row);
        float[] out = buffer;
        float[] ramp = plan.ramp;
        int half = len / 2;
        int base = p * 2 * (len + 1) + 2 * half;
        double sc = plan.phaseCos[p], ss = plan.phaseSin[p];
        double pc = 1, ps = 0;
        for (int k = 0; k <= half; k++) {
            float h = k == half ? 0.5f * ramp[k] : ramp[k];
            float wr = (float) pc * h, wi = (float) ps * h;
            float zr = row[2 * k], zi = row[2 * k + 1];
            out[base + 2 * k] = zr * wr - zi * wi;
            out[base + 2 * k + 1] = zr * wi + zi * wr;
            if (k > 0) {
                int m = len - k;
                float nr = row[2 * m], ni = row[2 * m + 1];
                out[base - 2 * k] = nr * wr + ni * wi;
                out[base - 2 * k + 1] = ni * wr - nr * wi;
            }
            double t = pc * sc - ps * ss;
            ps = pc * ss + ps * sc;
            pc = t;
        }
    }

    /**
     * Stage 2 for the padded grid rows [y0, y1): every projection's samples whose taps reach these rows, found from
     * the ray's row step, spread with the kernel table; taps outside the band are left to the neighbouring band.
     */
    private void gridBand(int y0, int y1) {
        final int width = plan.kernel.width(), halfW = width / 2, quanta = plan.kernel.quanta();
        final float[] tab = plan.kernel.table();
        final float[] g = grid, vals = buffer;
        final int pad = plan.padded, org = plan.origin, len = plan.rowLength, half = len / 2;
        final double vLo = y0 - org - halfW, vHi = y1 - org + halfW - 1;
        for (int p = 0; p < plan.projections; p++) {
            final float cs = plan.colStep[p], rs = plan.rowStep[p];
            int k0, k1;
            if (Math.abs(rs) < 1e-6f) {
                if (vLo > 1 || vHi < -1) continue;
                k0 = -half;
                k1 = half;
            } else {
                double e0 = vLo / rs, e1 = vHi / rs;
                k0 = Math.max(-half, (int) Math.floor(Math.min(e0, e1)) - 1);
                k1 = Math.min(half, (int) Math.ceil(Math.max(e0, e1)) + 1);
            }
            final int base = p * 2 * (len + 1) + 2 * half;
            for (int k = k0; k <= k1; k++) {
                float v = k * rs;
                int iv = (int) v;
                if (v < iv) iv--;
                int r0 = iv + org - halfW + 1;
                int ra = Math.max(r0, y0), rb = Math.min(r0 + width, y1);
                if (ra >= rb) continue;
                float u = k * cs;
                int iu = (int) u;
                if (u < iu) iu--;
                int qu = (int) ((u - iu) * quanta + 0.5f) * width;
                int qv = (int) ((v - iv) * quanta + 0.5f) * width - r0;
                int c0 = 2 * (iu + org - halfW + 1);
                float re = vals[base + 2 * k], im = vals[base + 2 * k + 1];
                if (width == 4) {
                    float x0 = tab[qu], x1 = tab[qu + 1], x2 = tab[qu + 2], x3 = tab[qu + 3];
                    float r0r = x0 * re, r1r = x1 * re, r2r = x2 * re, r3r = x3 * re;
                    float r0i = x0 * im, r1i = x1 * im, r2i = x2 * im, r3i = x3 * im;
                    for (int r = ra; r < rb; r++) {
                        float wy = tab[qv + r];
                        int o = 2 * r * pad + c0;
                        g[o] += wy * r0r;
                        g[o + 1] += wy * r0i;
                        g[o + 2] += wy * r1r;
                        g[o + 3] += wy * r1i;
                        g[o + 4] += wy * r2r;
                        g[o + 5] += wy * r2i;
                        g[o + 6] += wy * r3r;
                        g[o + 7] += wy * r3i;
                    }
                } else {
                    for (int r = ra; r < rb; r++) {
                        float wy = tab[qv + r];
                        int o = 2 * r * pad + c0;
                        for (int t = 0; t < width; t++) {
                            float wt = wy * tab[qu + t];
                            g[o + 2 * t] += wt * re;
                            g[o + 2 * t + 1] += wt * im;
                        }
                    }
                }
            }
        }
    }

    /**
     * Stage 3 for grid rows [BLOCK·blk, BLOCK·blk + BLOCK): each row folded from the padded grid (its main copy and the
     * border rows that wrap onto it), cleared there, inverse-transformed, and its ROI columns stored column-major in the
     * buffer ({@code buffer[(j·M + row)·2]}).
     */
    private void gridRows(int blk) {
        Scratch s = scratch.get();
        float[] block = s.block;
        int m = plan.grid, pad = plan.padded, org = plan.origin;
        int r0 = blk * BLOCK, r1 = Math.min(m, r0 + BLOCK);
        for (int r = r0; r < r1; r++) {
            int line = (r - r0) * 2 * m;
            int v = r < m / 2 ? r : r - m;
            int y = v + org;
            int src = 2 * y * pad;
            System.arraycopy(grid, src + 2 * org, block, line, m);
            System.arraycopy(grid, src + 2 * (org - m / 2), block, line + m, m);
            foldBorder(src, block, line);
            Arrays.fill(grid, src, src + 2 * pad, 0f);
            for (int yy : new int[]{y - m, y + m}) {
                if (yy < 0 || yy >= pad) continue;
                int s2 = 2 * yy * pad;
                for (int x = 0; x < pad; x++) {
                    int c = Math.floorMod(x - org, m);
                    block[line + 2 * c] += grid[s2 + 2 * x];
                    block[line + 2 * c + 1] += grid[s2 + 2 * x + 1];
                }
                Arrays.fill(grid, s2, s2 + 2 * pad, 0f);
            }
            s.gridFft.complexInverse(block, line, false);
        }
        int n = r1 - r0, cols = plan.roiCols, cc = plan.centreCol;
        for (int j = 0; j < cols; j++) {
            int c = Math.floorMod(j - cc, m);
            int dst = 2 * (j * m + r0);
            for (int q = 0; q < n; q++) {
                buffer[dst + 2 * q] = block[q * 2 * m + 2 * c];
                buffer[dst + 2 * q + 1] = block[q * 2 * m + 2 * c + 1];
            }
        }
    }

    /** Adds the padded row's border cells (beyond ±M/2) onto the periodic row where they wrap to. */
    private void foldBorder(int src, float[] block, int line) {
        int m = plan.grid, pad = plan.padded, org = plan.origin;
        for (int x = 0; x < org - m / 2; x++) {
            int c = x - org + m;
            block[line + 2 * c] += grid[src + 2 * x];
            block[line + 2 * c + 1] += grid[src + 2 * x + 1];
        }
        for (int x = org + m / 2; x < pad; x++) {
            int c = x - org;
            block[line + 2 * c] += grid[src + 2 * x];
            block[line + 2 * c + 1] += grid[src + 2 * x + 1];
        }
    }

    /** Stage 4 for ROI columns [BLOCK·blk, BLOCK·blk + BLOCK): inverse FFT in place, then the ROI rows, deapodised. */
    private void imageColumns(int blk, float[] outA, float[] outB) {
        Scratch s = scratch.get();
        int m = plan.grid, cols = plan.roiCols, rows = plan.roiRows, cr = plan.centreRow;
        int j0 = blk * BLOCK, j1 = Math.min(cols, j0 + BLOCK);
        for (int j = j0; j < j1; j++) s.gridFft.complexInverse(buffer, 2 * j * m, false);
        float[] dc = plan.deapodCol, dr = plan.deapodRow;
        for (int i = 0; i < rows; i++) {
            int src = 2 * Math.floorMod(i - cr, m);
            float di = dr[i];
            int o = i * cols;
            for (int j = j0; j < j1; j++) {
                float d = di * dc[j];
                outA[o + j] = buffer[2 * j * m + src] * d;
                if (outB != null) outB[o + j] = buffer[2 * j * m + src + 1] * d;
            }
        }
    }
}
