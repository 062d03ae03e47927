package org.tomospark.executor.iterative;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * Joseph's method in double precision from the geometry's definitions alone (world coordinates of pixels and rays, no
 * projection tables), one slice at a time, written as plain ray stepping: the forward projection, and its transpose by
 * scattering each ray's weights. The reference the float projectors are checked against.
 */
final class JosephOracle {
    private final ScanGeometry scan;
    private final SliceGeometry slice;

    JosephOracle(ScanGeometry scan, SliceGeometry slice) {
        this.scan = scan;
        this.slice = slice;
    }

    double[] forward(double[] image) {
        double[] out = new double[scan.numProjections() * scan.detectorWidth()];
        walk((ray, pixel, w) -> out[ray] += w * image[pixel]);
        return out;
    }

    double[] back(double[] sino) {
        double[] out = new double[slice.pixels()];
        walk((ray, pixel, w) -> out[pixel] += w * sino[ray]);
        return out;
    }

    interface Visit {
        void at(int ray, int pixel, double weight);
    }

    /** Every (ray, pixel, weight) of the system matrix. */
    void walk(Visit v) {
        int width = scan.detectorWidth(), rows = slice.roiRows(), cols = slice.roiCols();
        double cx = slice.centerX(), cy = slice.centerY();
        for (int p = 0; p < scan.numProjections(); p++) {
            double th = scan.angleRad(p), c = Math.cos(th), s = Math.sin(th);
            for (int u = 0; u < width; u++) {
                // the ray: x·cos + y·sin = d, with x = column − cx and y = cy − row in slice pixels
                double d = u - scan.centerOfRotation() - scan.axisCorrection(p);
                int ray = p * width + u;
                if (Math.abs(c) >= Math.abs(s)) {
                    for (int i = 0; i < rows; i++) {
                        double y = cy - (slice.roiRow() + i);
                        double jf = (d - y * s) / c + cx - slice.roiCol();
                        hat(v, ray, jf, cols, 1.0 / Math.abs(c), i * cols, 1);
                    }
                } else {
                    for (int j = 0; j < cols; j++) {
                        double x = slice.roiCol() + j - cx;
                        double fi = cy - slice.roiRow() - (d - x * c) / s;
                        hat(v, ray, fi, rows, 1.0 / Math.abs(s), j, cols);
                    }
                }
            }
        }
    }

    private static void hat(Visit v, int ray, double pos, int n, double w, int base, int stride) {
        int n0 = (int) Math.floor(pos);
        double f = pos - n0;
        if (n0 >= 0 && n0 < n) v.at(ray, base + n0 * stride, w * (1 - f));
        if (n0 + 1 >= 0 && n0 + 1 < n) v.at(ray, base + (n0 + 1) * stride, w * f);
    }
}
