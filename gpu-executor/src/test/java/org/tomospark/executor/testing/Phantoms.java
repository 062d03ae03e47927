package org.tomospark.executor.testing;

import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;

/** Analytic parallel-beam sinograms of simple phantoms (exact line integrals, no discretisation of the object). */
public final class Phantoms {
    private Phantoms() {
    }

    /**
     * Analytic projections of three discs (a smooth phantom-like sinogram), different per slice, then optionally
     * ramp-filtered on the host with {@link RampFilter} (Ram-Lak, as the pipeline does).
     */
    public static float[][] discs(int slices, ScanGeometry scan, boolean filter) {
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

    /**
     * Analytic line integrals of five ellipses (x0, y0, a, b, phi, density), all densities times {@code scale} and the
     * second ellipse moved {@code shift} pixels along x, so that slices made with different values differ.
     */
    public static float[] ellipses(ScanGeometry scan, double scale, double shift) {
        double[][] el = {{0, 0, 100, 80, 0, 1.0}, {shift, -10, 60, 40, 0.3, -0.4}, {-30, 25, 20, 30, -0.5, 0.5},
                {40, 30, 15, 10, 1.0, 0.8}, {10, -50, 25, 12, 0.0, -0.3}};
        int w = scan.detectorWidth(), np = scan.numProjections();
        float[] s = new float[np * w];
        for (int p = 0; p < np; p++) {
            double th = scan.angleRad(p), c = Math.cos(th), sn = Math.sin(th);
            for (int j = 0; j < w; j++) {
                double u = j - scan.centerOfRotation() - scan.axisCorrection(p);
                double v = 0;
                for (double[] e : el) {
                    double tp = th - e[4];
                    double a2 = e[2] * e[2] * Math.cos(tp) * Math.cos(tp) + e[3] * e[3] * Math.sin(tp) * Math.sin(tp);
                    double d = u - (e[0] * c + e[1] * sn);
                    if (d * d < a2) v += 2 * e[5] * scale * e[2] * e[3] * Math.sqrt(a2 - d * d) / a2;
                }
                s[p * w + j] = (float) v;
            }
        }
        return s;
    }
}
