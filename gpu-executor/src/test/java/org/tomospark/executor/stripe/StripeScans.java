package org.tomospark.executor.stripe;

import org.tomospark.executor.testing.Metrics;
import org.tomospark.executor.TestRecon;
import org.tomospark.executor.pipeline.CenterSearch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.preprocess.Preprocessor;

import java.util.Arrays;
import java.util.Random;

/**
 * Simulated scans for measuring stripe filters: the demo phantom's central slice (exact line integrals, Poisson
 * counts, flat-field corrected, −log) and its ground truth, with detector columns given known gain errors. A
 * column of gain g that the flats do not correct multiplies its counts by g, i.e. adds −ln g to its −log values.
 */
final class StripeScans {
    final int width, nproj;
    final ScanGeometry scan;
    final SliceGeometry slice;
    final float[] clean;      // −log sinogram with noise, no gain errors
    final float[] exact;      // noise-free line integrals
    final float[] truth;      // the phantom's slice
    final boolean[] fov;

    StripeScans(int width, int nproj) {
        this(width, nproj, true);
    }

    StripeScans(int width, int nproj, boolean noise) {
        this.width = width;
        this.nproj = nproj;
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(width, 1, nproj).withNoise(noise));
        scan = d.scanGeometry();
        slice = SliceGeometry.square(width);
        try (ProjectionSource src = d.asSource()) {
            clean = CenterSearch.sinograms(src, Preprocessor.defaults(), 0, 1)[0];
        }
        exact = d.phantom().sinogram(0, scan, true);
        truth = d.phantom().groundTruth(0, slice, 2);
        fov = Metrics.circleMask(width, width, width / 2.0 - 2);
    }

    /** Gains: {@code fraction} of the columns, chosen at random, off by a relative error in [lo, hi] of random sign; 1 elsewhere. */
    double[] gains(double fraction, double lo, double hi, long seed) {
        Random r = new Random(seed);
        double[] g = new double[width];
        Arrays.fill(g, 1);
        int n = (int) Math.round(fraction * width), placed = 0;
        while (placed < n) {
            int j = r.nextInt(width);
            if (g[j] != 1) continue;
            double e = lo + (hi - lo) * r.nextDouble();
            g[j] = r.nextBoolean() ? 1 + e : 1 - e;
            placed++;
        }
        return g;
    }

    /** {@code sino} with column j's −log values raised by −ln g[j]. */
    float[] withGains(float[] sino, double[] g) {
        float[] s = sino.clone();
        for (int p = 0; p < nproj; p++)
            for (int j = 0; j < width; j++) s[p * width + j] += (float) -Math.log(g[j]);
        return s;
    }

    /** Columns {@code cols} dead: each reads its mean over the angles throughout (no response to the object). */
    float[] withDeadColumns(float[] sino, int... cols) {
        float[] s = sino.clone();
        for (int j : cols) {
            double mean = 0;
            for (int p = 0; p < nproj; p++) mean += s[p * width + j];
            for (int p = 0; p < nproj; p++) s[p * width + j] = (float) (mean / nproj);
        }
        return s;
    }

    /** Non-linear columns: the −log values of the chosen columns scaled by g (a response error that grows with attenuation). */
    float[] withScaledColumns(float[] sino, double[] g) {
        float[] s = sino.clone();
        for (int p = 0; p < nproj; p++)
            for (int j = 0; j < width; j++) s[p * width + j] *= (float) g[j];
        return s;
    }

    /** A band of {@code n} adjacent columns from {@code first}, all with gain {@code g}. */
    float[] withBand(float[] sino, int first, int n, double g) {
        double[] gains = new double[width];
        Arrays.fill(gains, 1);
        for (int j = first; j < first + n; j++) gains[j] = g;
        return withGains(sino, gains);
    }

    float[] reconstruct(float[] sino) {
        return TestRecon.fbp(sino, scan, slice);
    }

    /** PSNR of the reconstruction of {@code sino} against the phantom, inside the field of view. */
    double slicePsnr(float[] sino) {
        return Metrics.psnr(reconstruct(sino), truth, fov);
    }

    static float[] filtered(StripeParams p, float[] sino, int nproj, int width) {
        float[] s = sino.clone();
        StripeRemoval.apply(p, s, nproj, width);
        return s;
    }
}
