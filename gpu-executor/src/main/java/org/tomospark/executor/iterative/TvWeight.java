package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ScanGeometry;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The weight λ of total variation, given as is or scaled to the data. The scale of a slice is σ̄·√projections, σ̄ the
 * root-mean-square noise of its −log sinogram: the standard deviation that noise gives a pixel's back-projection, so
 * that the penalty's pull on a pixel, up to about 2λ, matches what noise does to it. σ̄ comes from the flats where the
 * slice has them (Poisson statistics of the counts: Var(p) ≈ 1/y, y = blank·e^−p) and otherwise from the sinogram
 * itself (the median absolute second difference along the detector, which noise dominates and edges barely move).
 * On the phantoms of docs/iterative.md the best λ lay at 0.9 to 1.3 times this scale, sparse and low-dose alike.
 *
 * @param value  λ, or with {@code scaled} the factor of the scale (1: the default)
 * @param scaled whether λ = value × the scale of each slice's data
 */
public record TvWeight(double value, boolean scaled) implements Serializable {
    /** Samples of the median in the sinogram's own noise estimate: every so many projections, at most about this many. */
    private static final int MAX_SAMPLES = 1 << 16;
    /** Median absolute deviation to standard deviation of a Gaussian, over √6 for a second difference's variance. */
    private static final double MAD_TO_SIGMA = 1.4826 / Math.sqrt(6);

    public TvWeight {
        if (!(value >= 0) || Double.isInfinite(value))
            throw new IllegalArgumentException("config key iterative.tvWeight must be a finite number >= 0, got " + value);
    }

    /** λ as given. */
    public static TvWeight of(double value) {
        return new TvWeight(value, false);
    }

    /** The default: scaled to the data. */
    public static TvWeight automatic() {
        return new TvWeight(1, true);
    }

    /** As the report gives it. */
    public String describe() {
        return scaled ? value + " x the data's scale" : Double.toString(value);
    }

    /** λ for each slice of a pass (interleaved data). */
    float[] perSlice(Measurements data, Projector.Shape shape) {
        float[] w = new float[shape.k()];
        for (int s = 0; s < w.length; s++)
            w[s] = (float) (scaled ? value * scale(data.lineIntegrals(), data.blank(), shape.projections(), shape.width(), shape.k(), s)
                    : value);
        return w;
    }

    /** λ of one slice, its sinogram (projections × width) and blank (width; null without flats) not interleaved. */
    public double lambda(float[] blank, float[] sino, ScanGeometry scan) {
        return scaled ? value * scale(sino, blank, scan.numProjections(), scan.detectorWidth(), 1, 0) : value;
    }

    /** σ̄·√projections of slice s of interleaved data. */
    static double scale(float[] p, float[] blank, int projections, int width, int k, int s) {
        return noiseSigma(p, blank, projections, width, k, s) * Math.sqrt(projections);
    }

    /** The root-mean-square noise of slice s's −log sinogram: from the flats' counts, else from the sinogram. */
    static double noiseSigma(float[] p, float[] blank, int projections, int width, int k, int s) {
        if (blank != null) {
            double sum = 0;
            long rays = 0;
            for (int a = 0; a < projections; a++)
                for (int u = 0; u < width; u++) {
                    float b = blank[u * k + s];
                    if (!(b > 0)) continue;
                    double y = b * Math.exp(-p[(a * width + u) * k + s]);
                    sum += 1 / Math.max(Measurements.MIN_COUNTS, y);
                    rays++;
                }
            if (rays > 0) return Math.sqrt(sum / rays);
        }
        if (width < 3) return 0;
        int step = Math.max(1, (int) ((long) projections * (width - 2) / MAX_SAMPLES));
        float[] d = new float[(projections + step - 1) / step * (width - 2)];
        int n = 0;
        for (int a = 0; a < projections; a += step)
            for (int u = 1; u < width - 1; u++) {
                int i = (a * width + u) * k + s;
                d[n++] = Math.abs(p[i - k] - 2 * p[i] + p[i + k]);
            }
        Arrays.sort(d, 0, n);
        return MAD_TO_SIGMA * d[n / 2];
    }
}
