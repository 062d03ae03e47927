package org.tomospark.executor.backend.opencl;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backend.java.JavaBackend;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.util.ImageErrors;

import java.util.Random;

/** Test sinograms and the Java-backend reference. */
final class TestData {
    private TestData() {
    }

    /** Fixed-seed uniform [0,1) bins, one sinogram per slice. */
    static float[][] random(int slices, int nproj, int width, long seed) {
        Random r = new Random(seed);
        float[][] s = new float[slices][nproj * width];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = r.nextFloat();
        return s;
    }

    /** Uniform noise in [-1, 1): zero mean, so reconstructions are small sums of large terms. */
    static float[][] zeroMeanNoise(int slices, int nproj, int width, long seed) {
        Random r = new Random(seed);
        float[][] s = new float[slices][nproj * width];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = 2 * r.nextFloat() - 1;
        return s;
    }

    /**
     * Analytic parallel-beam projections of three discs (a smooth phantom-like sinogram), different per
     * slice, then ramp-filtered on the host with {@link RampFilter} (as the pipeline does).
     */
    static float[][] phantom(int slices, ScanGeometry scan, boolean filter) {
        int w = scan.detectorWidth(), n = scan.numProjections();
        double c = scan.centerOfRotation();
        float[][] out = new float[slices][n * w];
        RampFilter f = new RampFilter(w, n, FilterSpec.of(FilterWindow.RAMLAK));
        for (int s = 0; s < slices; s++) {
            double[][] discs = {{0, 0, 0.42 * w, 1.0}, {0.1 * w + s, -0.05 * w, 0.12 * w, 0.6}, {-0.15 * w, 0.1 * w - s, 0.07 * w, -0.3}};
            for (int p = 0; p < n; p++) {
                double a = scan.angleRad(p), ca = Math.cos(a), sa = Math.sin(a);
                for (int j = 0; j < w; j++) {
                    double t = j - c - scan.axisCorrection(p);
                    double v = 0;
                    for (double[] d : discs) {
                        double u = t - (d[0] * ca + d[1] * sa);
                        if (Math.abs(u) < d[2]) v += 2 * d[3] * Math.sqrt(d[2] * d[2] - u * u);
                    }
                    out[s][p * w + j] = (float) v;
                }
            }
            if (filter) f.filterRows(out[s], n, null);
        }
        return out;
    }

    /** The Java backend's (scalar, double-coordinate) result: the specification. */
    static float[][] javaReference(BackendOptions o, BackprojectionJob job, float[][] sinos) {
        try (JavaBackend j = new JavaBackend()) {
            j.setup(o.withVariant("scalar").withThreads(2));
            j.validate(job);
            return run(j, job, sinos, true);
        }
    }

    static float[][] run(BackprojectionBackend b, BackprojectionJob job, float[][] sinos, boolean filtered) {
        float[][] out = new float[sinos.length][job.slice().pixels()];
        b.process(new SliceBatch(0, sinos, job.scan().numProjections(), job.scan().detectorWidth(), filtered), out);
        return out;
    }

    static double relL2(float[][] got, float[][] ref) {
        return ImageErrors.relL2(got, ref);
    }
}
