package org.tomospark.executor.phase;

import org.jtransforms.fft.DoubleFFT_2D;

import java.util.stream.IntStream;

/**
 * Paganin single-distance phase retrieval (Paganin, Mayo, Gureyev, Miller &amp; Wilkins, J. Microsc. 206 (2002)
 * 33), applied to flat-field-corrected projections (transmission I/I₀) BEFORE −log:
 * <pre>  T' = F⁻¹{ F{I/I₀} / (1 + π·λ·z·(δ/β)·|f|²) },   then  −ln T' = μ·t  </pre>
 * with f in cycles per metre. The result, after the usual −log, is the projected attenuation μ·t of a
 * homogeneous object, so the rest of the pipeline is unchanged.
 *
 * <p>The filter is 2-D: every output pixel depends on neighbouring detector ROWS too. A slice group that
 * holds only its own rows would be filtered as if the projection ended at its edges, so a group reads a
 * <em>halo</em> of {@link PaganinParams#haloRows()} extra rows above and below (clipped at the detector
 * edges), filters the whole band and drops the halo rows (see SliceGroupProcessor). Each image is padded
 * with its edge values (replicated) to a power of two at least {@code n + 2·halo} in both directions, so the
 * periodic FFT does not wrap one edge onto the other.
 */
public final class Paganin {
    private final PaganinParams params;

    public Paganin(PaganinParams params) {
        this.params = params;
    }

    public PaganinParams params() {
        return params;
    }

    /** Filters {@code frames} images of {@code rows × width} (frame-major, row-major) in place, in parallel over frames. */
    public void filterFrames(float[][] frames, int rows, int width) {
        IntStream.range(0, frames.length).parallel().forEach(f -> filter(frames[f], rows, width));
    }

    /** Filters one transmission image ({@code rows × width}, row-major) in place. */
    public void filter(float[] img, int rows, int width) {
        int halo = params.haloRows();
        int pr = nextPow2(rows + 2 * halo), pc = nextPow2(width + 2 * halo);
        int r0 = (pr - rows) / 2, c0 = (pc - width) / 2;
        double[] a = new double[2 * pr * pc];
        for (int i = 0; i < pr; i++) {
            int si = Math.max(0, Math.min(rows - 1, i - r0));
            for (int j = 0; j < pc; j++) {
                int sj = Math.max(0, Math.min(width - 1, j - c0));
                a[2 * (i * pc + j)] = img[si * width + sj];
            }
        }
        DoubleFFT_2D fft = new DoubleFFT_2D(pr, pc);
        fft.complexForward(a);
        double coef = params.coefficientPx();
        for (int i = 0; i < pr; i++) {
            int ki = i <= pr / 2 ? i : i - pr;
            double fy = ki / (double) pr;
            for (int j = 0; j < pc; j++) {
                int kj = j <= pc / 2 ? j : j - pc;
                double fx = kj / (double) pc;
                double g = 1.0 / (1.0 + coef * (fx * fx + fy * fy));
                a[2 * (i * pc + j)] *= g;
                a[2 * (i * pc + j) + 1] *= g;
            }
        }
        fft.complexInverse(a, true);
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < width; j++) img[i * width + j] = (float) a[2 * ((i + r0) * pc + j + c0)];
    }

    static int nextPow2(int n) {
        int p = 1;
        while (p < n) p <<= 1;
        return p;
    }
}
