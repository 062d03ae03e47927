package org.tomospark.executor.backend;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * The test oracle: a plain, obviously-correct double-precision pixel-driven back-projector written
 * straight from the conventions (scikit-image orientation), sharing no code with the backends.
 */
public final class OracleBackprojector {
    private OracleBackprojector() {
    }

    /** Detector value at coordinate t (column j's centre at j), zero outside. */
    static double sample(float[] sino, int p, int width, double t, boolean linear) {
        if (linear) {
            int i0 = (int) Math.floor(t);
            double f = t - i0;
            double a = i0 >= 0 && i0 < width ? sino[p * width + i0] : 0.0;
            double b = i0 + 1 >= 0 && i0 + 1 < width ? sino[p * width + i0 + 1] : 0.0;
            return a * (1 - f) + b * f;
        }
        int i = (int) Math.floor(t + 0.5);
        return i >= 0 && i < width ? sino[p * width + i] : 0.0;
    }

    /** Sum over projections of the sinogram at x·cosθ + y·sinθ + centre + correction[p]. */
    public static double[] backproject(float[] sino, ScanGeometry scan, SliceGeometry g, boolean linear) {
        int w = scan.detectorWidth();
        double[] out = new double[g.pixels()];
        double cx = (g.width() - 1) / 2.0, cy = (g.height() - 1) / 2.0;
        for (int i = 0; i < g.roiRows(); i++) {
            for (int j = 0; j < g.roiCols(); j++) {
                double x = (g.roiCol() + j) - cx;
                double y = cy - (g.roiRow() + i);
                double sum = 0;
                for (int p = 0; p < scan.numProjections(); p++) {
                    double th = scan.angleRad(p);
                    double t = x * Math.cos(th) + y * Math.sin(th) + scan.centerOfRotation() + scan.axisCorrection(p);
                    sum += sample(sino, p, w, t, linear);
                }
                out[i * g.roiCols() + j] = sum;
            }
        }
        return out;
    }
}
