package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Phantoms;

import java.util.Arrays;
import java.util.Random;

/**
 * Poisson counts y ~ Poisson(I0·exp(−l)) of exact line integrals l, k slices interleaved, as the pipeline hands them to
 * the solvers: −log(y/I0) (zero counts floored as the preprocessor floors transmissions) and the blank I0.
 */
record Poisson(float[] counts, float[] lineIntegrals, float[] blank, int k, int width) {
    static final double FLOOR = 1e-6;

    static Poisson discs(ScanGeometry scan, SliceGeometry slice, int k, double i0, long seed) {
        float[][] exact = Phantoms.discs(k, scan, false);
        double scale = 2.0 / scan.detectorWidth();
        int bins = exact[0].length, w = scan.detectorWidth();
        float[][] l = new float[k][bins];
        for (int s = 0; s < k; s++) for (int i = 0; i < bins; i++) l[s][i] = (float) (exact[s][i] * scale);
        return of(l, w, i0, seed);
    }

    /** Noisy data of the exact line integrals {@code exact[slice][p·width + u]}. */
    static Poisson of(float[][] exact, int width, double i0, long seed) {
        int k = exact.length, bins = exact[0].length;
        Random rnd = new Random(seed);
        float[] y = new float[bins * k], p = new float[bins * k], blank = new float[width * k];
        Arrays.fill(blank, (float) i0);
        for (int s = 0; s < k; s++) {
            for (int i = 0; i < bins; i++) {
                double counts = sample(rnd, i0 * Math.exp(-exact[s][i]));
                y[i * k + s] = (float) counts;
                p[i * k + s] = (float) -Math.log(Math.max(counts / i0, FLOOR));
            }
        }
        return new Poisson(y, p, blank, k, width);
    }

    /** Knuth's method for small means, a rounded normal approximation above 500. */
    static double sample(Random rnd, double mean) {
        if (mean > 500) return Math.max(0, Math.round(mean + Math.sqrt(mean) * rnd.nextGaussian()));
        double limit = Math.exp(-mean), prod = rnd.nextDouble();
        int n = 0;
        while (prod > limit) {
            prod *= rnd.nextDouble();
            n++;
        }
        return n;
    }

    Measurements measurements() {
        return new Measurements(lineIntegrals, blank);
    }

    /** Σ y·ln ŷ − ŷ with ŷ = I0·exp(−A·x), in double. */
    double logLikelihood(Projector a, float[] x) {
        float[] ax = new float[counts.length];
        a.forward(x, ax, a.allAngles());
        double l = 0;
        for (int i = 0; i < counts.length; i++) {
            double b = blank[i % (width * k)];
            double yhat = b * Math.exp(-ax[i]);
            l += counts[i] * Math.log(yhat) - yhat;
        }
        return l;
    }
}
