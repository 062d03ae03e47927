package org.tomospark.executor.backends.toy;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * Joseph's pair one ray at a time: each ray x·cos + y·sin = d steps along the axis it crosses faster, one row (or
 * column) of pixels per step, with the two pixels beside its crossing weighted linearly and the step's length 1/|cos|
 * (or 1/|sin|). The back projection scatters the same weights, so the pair is matched exactly.
 */
final class ToyProjector implements Projector {
    private final ScanGeometry scan;
    private final SliceGeometry slice;
    private final Shape shape;

    ToyProjector(ScanGeometry scan, SliceGeometry slice, int k) {
        this.scan = scan;
        this.slice = slice;
        this.shape = new Shape(k, slice.roiRows(), slice.roiCols(), scan.numProjections(), scan.detectorWidth());
    }

    @Override
    public Shape shape() {
        return shape;
    }

    @Override
    public void forward(float[] image, float[] sino, int[] angles) {
        int k = shape.k();
        for (int p : angles) {
            for (int u = 0; u < shape.width(); u++) {
                int ray = p * shape.width() + u;
                double[] sum = new double[k];
                walk(p, u, (pixel, w) -> {
                    for (int s = 0; s < k; s++) sum[s] += w * image[pixel * k + s];
                });
                for (int s = 0; s < k; s++) sino[ray * k + s] = (float) sum[s];
            }
        }
    }

    @Override
    public void back(float[] sino, float[] image, int[] angles) {
        int k = shape.k();
        double[] acc = new double[image.length];
        for (int p : angles)
            for (int u = 0; u < shape.width(); u++) {
                int ray = p * shape.width() + u;
                walk(p, u, (pixel, w) -> {
                    for (int s = 0; s < k; s++) acc[pixel * k + s] += w * sino[ray * k + s];
                });
            }
        for (int i = 0; i < image.length; i++) image[i] = (float) acc[i];
    }

    private interface Visit {
        void at(int pixel, double weight);
    }

    /** The pixels and weights of ray (p, u); x = column − centreX and y = centreY − row, in slice pixels. */
    private void walk(int p, int u, Visit v) {
        int rows = shape.rows(), cols = shape.cols();
        double th = scan.angleRad(p), c = Math.cos(th), s = Math.sin(th);
        double cx = slice.centerX(), cy = slice.centerY();
        double d = u - scan.centerOfRotation() - scan.axisCorrection(p);
        if (Math.abs(c) >= Math.abs(s)) {
            for (int i = 0; i < rows; i++) {
                double y = cy - (slice.roiRow() + i);
                double col = (d - y * s) / c + cx - slice.roiCol();
                hat(v, col, cols, 1 / Math.abs(c), i * cols, 1);
            }
        } else {
            for (int j = 0; j < cols; j++) {
                double x = slice.roiCol() + j - cx;
                double row = cy - slice.roiRow() - (d - x * c) / s;
                hat(v, row, rows, 1 / Math.abs(s), j, cols);
            }
        }
    }

    private static void hat(Visit v, double pos, int n, double w, int base, int stride) {
        int n0 = (int) Math.floor(pos);
        double f = pos - n0;
        if (n0 >= 0 && n0 < n) v.at(base + n0 * stride, w * (1 - f));
        if (n0 + 1 >= 0 && n0 + 1 < n) v.at(base + (n0 + 1) * stride, w * f);
    }
}
