package org.tomospark.executor.stitch;

import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.util.Cubic;

import java.util.Arrays;

/**
 * 360° scans with the rotation axis off the detector centre ("half acquisition", offset axis): each
 * projection sees a bit more than half of the object, and the projection at θ+180° sees the other half
 * mirrored. Stitching makes a 180° sinogram of a wider virtual detector.
 *
 * <p>The axis c (and so the overlap, 2c+1 columns for an axis left of centre, 2(width−1−c)+1 right of it) is
 * found by correlating each projection with the mirror image of the one 180° away
 * ({@link CenterFinder#correlation}, any overlap of at least 8 columns).
 *
 * <p>Stitched detector (axis left of centre; mirrored otherwise): {@code L = width − 1 − round(2c)} columns are
 * added on the left, so original column j sits at stitched column j+L and the axis at {@code C = c+L}; the
 * stitched width is {@code width+L = round(2d) + 1}, d = width−1−c being the axis's distance from the far edge
 * (round: to the nearest integer, halves up). The width depends on the centre only through 2c rounded, so runs
 * with a given centre and with a found one a few hundredths away (30.5 and 30.494) make slices of one size that
 * can be subtracted; where round(2c) falls short of 2c, the outermost stitched column lies up to half a pixel
 * beyond the data and takes the edge value. Stitched column J holds the line integral at t = J − C. The original projection
 * covers t ∈ [−c, width−1−c]; the one at θ+180° covers t ∈ [c−(width−1), c] at its column c − t (cubic
 * interpolation when 2c is not an integer). In the overlap t ∈ [−c, c] the two are blended with weights
 * that ramp linearly across it, so a residual gain difference leaves no seam.
 */
public final class HalfAcquisition {
    private HalfAcquisition() {
    }

    /** A stitched 180° sinogram and its geometry. */
    public record Stitched(float[] sinogram, ScanGeometry geometry) {
    }

    /** The stitched geometry: width, axis and the angles of the first 180°. */
    public static ScanGeometry stitchedGeometry(ScanGeometry raw) {
        Layout l = layout(raw);
        double[] ang = raw.anglesRad();
        return ScanGeometry.builder().detectorWidth(l.width).anglesRad(Arrays.copyOf(ang, l.nHalf)).centerOfRotation(l.center).build();
    }

    record Layout(boolean axisLeft, int addLeft, int width, double center, int nHalf) {
    }

    static Layout layout(ScanGeometry raw) {
        if (!raw.isFullRotation())
            throw new IllegalArgumentException("half acquisition needs a 360 degree scan; the angles cover "
                    + Math.round(Math.toDegrees(raw.angularCoverage())) + " degrees");
        int m = raw.detectorWidth();
        double c = raw.centerOfRotation();
        double[] ang = raw.anglesRad();
        int nHalf = 0;
        double step = raw.angularCoverage() / ang.length;
        while (nHalf < ang.length && Math.abs(ang[nHalf] - ang[0]) < Math.PI - 0.5 * step) nHalf++;
        boolean left = c <= (m - 1) / 2.0;
        long twoC = Math.round(2 * c);
        if (left) {
            int add = (int) (m - 1 - twoC);
            return new Layout(true, add, m + add, c + add, nHalf);
        } else {
            // mirror image of the left case: add columns on the right, the axis stays at c
            int add = (int) (twoC - (m - 1));
            return new Layout(false, 0, m + add, c, nHalf);
        }
    }

    /** Finds the axis of a 360° offset-axis scan from −log sinograms (one or more rows). */
    public static double findAxis(float[][] sinos, ScanGeometry raw) {
        return CenterFinder.correlation(sinos, raw.numProjections(), raw.detectorWidth(), raw.anglesRad(), 0, 8).center();
    }

    /** Stitches one −log sinogram of the 360° scan {@code raw} (whose centre is the axis) into a 180° sinogram. */
    public static Stitched stitch(float[] sino, ScanGeometry raw) {
        Layout l = layout(raw);
        int m = raw.detectorWidth(), n = raw.numProjections();
        double c = raw.centerOfRotation();
        double[] ang = raw.anglesRad();
        ScanGeometry g = stitchedGeometry(raw);
        int w = l.width;
        float[] out = new float[l.nHalf * w];
        double lo = Math.max(-c, c - (m - 1)), hi = Math.min(m - 1 - c, c); // overlap in t
        for (int p = 0; p < l.nHalf; p++) {
            double[] own = new double[m];
            for (int j = 0; j < m; j++) own[j] = sino[p * m + j];
            double[] opp = opposite(sino, n, m, ang, ang[p] + Math.PI);
            for (int jj = 0; jj < w; jj++) {
                double t = jj - l.center;
                double xo = t + c;          // column in the own projection
                double xp = c - t;          // column in the opposite projection
                boolean inO = xo >= -1e-9 && xo <= m - 1 + 1e-9, inP = xp >= -1e-9 && xp <= m - 1 + 1e-9;
                double v;
                if (inO && inP) {
                    double wo = hi > lo ? (t - lo) / (hi - lo) : 0.5;
                    if (!l.axisLeft) wo = 1 - wo;
                    wo = Math.max(0, Math.min(1, wo));
                    v = wo * Cubic.at(own, clamp(xo, m)) + (1 - wo) * Cubic.at(opp, clamp(xp, m));
                } else if (inO) {
                    v = Cubic.at(own, clamp(xo, m));
                } else if (inP) {
                    v = Cubic.at(opp, clamp(xp, m));
                } else { // a fraction of a pixel beyond both (the outermost stitched column)
                    v = l.axisLeft ? (jj < l.center ? opp[m - 1] : own[m - 1]) : (jj < l.center ? own[0] : opp[0]);
                }
                out[p * w + jj] = (float) v;
            }
        }
        return new Stitched(out, g);
    }

    private static double clamp(double x, int m) {
        return Math.max(0, Math.min(m - 1, x));
    }

    /** The projection at angle t (wrapped into the scan), linear in angle between its two neighbours. */
    static double[] opposite(float[] sino, int n, int m, double[] ang, double t) {
        double span = ang[n - 1] - ang[0];
        double step = span / (n - 1);
        double full = step * n;
        double rel = ((t - ang[0]) % full + full) % full;
        double k = rel / step;
        int a = (int) Math.floor(k);
        double f = k - a;
        int b = a + 1;
        if (a >= n) a = n - 1;
        if (b >= n) b = 0; // wraps to the first projection (360° later, the same view)
        double[] out = new double[m];
        for (int j = 0; j < m; j++) out[j] = (1 - f) * sino[a * m + j] + f * sino[b * m + j];
        return out;
    }
}
