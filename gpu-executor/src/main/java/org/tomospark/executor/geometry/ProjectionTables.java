package org.tomospark.executor.geometry;

/**
 * Per-projection constants for pixel-driven back-projection over an ROI, as in the seed paper's
 * Algorithm 1: the detector coordinate of ROI pixel (row i, col j) at projection p is
 * {@code t = offset[p] + j·cos[p] − i·sin[p]}, where offset folds in the ROI origin, the image
 * centre, the centre of rotation and the axis correction.
 */
public final class ProjectionTables {
    private final double[] cos;
    private final double[] sin;
    private final double[] offset;
    private final int detectorWidth;

    public ProjectionTables(ScanGeometry scan, SliceGeometry slice) {
        int n = scan.numProjections();
        cos = new double[n];
        sin = new double[n];
        offset = new double[n];
        detectorWidth = scan.detectorWidth();
        double x0 = slice.roiCol() - slice.centerX();
        double y0 = slice.centerY() - slice.roiRow();
        for (int p = 0; p < n; p++) {
            double a = scan.angleRad(p);
            cos[p] = Math.cos(a);
            sin[p] = Math.sin(a);
            offset[p] = x0 * cos[p] + y0 * sin[p] + scan.centerOfRotation() + scan.axisCorrection(p);
        }
    }

    public int numProjections() {
        return cos.length;
    }

    public int detectorWidth() {
        return detectorWidth;
    }

    public double cos(int p) {
        return cos[p];
    }

    public double sin(int p) {
        return sin[p];
    }

    public double offset(int p) {
        return offset[p];
    }

    public float[] cosFloat() {
        return toFloat(cos);
    }

    public float[] sinFloat() {
        return toFloat(sin);
    }

    public float[] offsetFloat() {
        return toFloat(offset);
    }

    private static float[] toFloat(double[] a) {
        float[] f = new float[a.length];
        for (int i = 0; i < a.length; i++) f[i] = (float) a[i];
        return f;
    }
}
