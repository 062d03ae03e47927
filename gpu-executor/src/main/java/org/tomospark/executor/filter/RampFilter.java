package org.tomospark.executor.filter;

import org.jtransforms.fft.FloatFFT_1D;
import org.jtransforms.fft.DoubleFFT_1D;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * FFT ramp filter for sinogram rows, built in frequency space from the discrete spatial ramp
 * (Kak &amp; Slaney, eq. 61: h(0) = 1/4, h(n) = −1/(πn)² for odd n, 0 for even n), so there is no DC
 * offset. The response is {@code 2·Re(FFT(h)) · window(f) · scale}, with
 * {@code scale = π / (2·n_projections)} folded in, so that a back-projection that simply sums the
 * filtered rows over all projections yields attenuation per pixel.
 */
public final class RampFilter {
    private final int width;
    private final int padded;
    private final FilterSpec spec;
    private final float[] response; // length padded/2 + 1, real
    private final ThreadLocal<FloatFFT_1D> fft;
    private final ThreadLocal<float[]> buffers;

    /**
     * @param width detector width (row length)
     * @param numProjections number of projections, for the π/(2N) scale
     * @param spec window, cutoff, padding
     */
    public RampFilter(int width, int numProjections, FilterSpec spec) {
        this(width, spec, Math.PI / (2.0 * numProjections));
    }

    public RampFilter(int width, FilterSpec spec, double scale) {
        if (width < 2) throw new IllegalArgumentException("filter: detector width must be >= 2, got " + width);
        this.width = width;
        this.padded = FilterSpec.paddedLength(width);
        this.spec = spec;
        this.response = buildResponse(padded, spec, scale);
        int n = padded;
        this.fft = ThreadLocal.withInitial(() -> new FloatFFT_1D(n));
        this.buffers = ThreadLocal.withInitial(() -> new float[n]);
    }

    /** The frequency response, {@code padded/2 + 1} real values from DC to Nyquist, scale included. */
    public float[] response() {
        return response.clone();
    }

    public int paddedLength() {
        return padded;
    }

    public int width() {
        return width;
    }

    public FilterSpec spec() {
        return spec;
    }

    static float[] buildResponse(int n, FilterSpec spec, double scale) {
        double[] h = new double[n];
        h[0] = 0.25;
        for (int k = 1; k <= n / 2; k++) {
            if ((k & 1) == 1) {
                double v = -1.0 / (Math.PI * Math.PI * k * (double) k);
                h[k] = v;
                h[n - k] = v;
            }
        }
        new DoubleFFT_1D(n).realForward(h);
        float[] r = new float[n / 2 + 1];
        for (int k = 0; k <= n / 2; k++) {
            double re = k == 0 ? h[0] : (k == n / 2 ? h[1] : h[2 * k]);
            double f = (double) k / n;              // cycles per pixel, 0..0.5
            double u = f / (0.5 * spec.cutoff());   // normalised to the cutoff
            r[k] = (float) (2.0 * re * spec.window().weight(u) * scale);
        }
        return r;
    }

    /** Filters one row in place. {@code row} holds at least {@code offset + width} values. */
    public void filterRow(float[] row, int offset) {
        float[] buf = buffers.get();
        System.arraycopy(row, offset, buf, 0, width);
        if (spec.padding() == Padding.EDGE) {
            int pad = padded - width;
            int right = pad / 2;
            float last = row[offset + width - 1];
            float first = row[offset];
            for (int i = 0; i < right; i++) buf[width + i] = last;
            for (int i = width + right; i < padded; i++) buf[i] = first;
        } else {
            Arrays.fill(buf, width, padded, 0f);
        }
        FloatFFT_1D f = fft.get();
        f.realForward(buf);
        buf[0] *= response[0];
        buf[1] *= response[padded / 2];
        for (int k = 1; k < padded / 2; k++) {
            float w = response[k];
            buf[2 * k] *= w;
            buf[2 * k + 1] *= w;
        }
        f.realInverse(buf, true);
        System.arraycopy(buf, 0, row, offset, width);
    }

    /**
     * Filters every row of a sinogram stored as {@code rows} consecutive rows of {@code width} values,
     * in place, in parallel over rows on {@code pool} (null: the common pool).
     */
    public void filterRows(float[] sinogram, int rows, ForkJoinPool pool) {
        if (sinogram.length < (long) rows * width)
            throw new IllegalArgumentException("filter: sinogram holds " + sinogram.length + " values, expected "
                    + rows + " rows x " + width);
        Runnable r = () -> IntStream.range(0, rows).parallel().forEach(i -> filterRow(sinogram, i * width));
        if (pool == null) r.run();
        else pool.submit(r).join();
    }
}
