package org.tomospark.executor.geometry;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;

/**
 * A cone-beam acquisition: a flat detector of {@code cols × rows} pixels and, per projection, either the circular
 * trajectory's angle or a 3×4 projection matrix ({@link ProjectionMatrix}, any trajectory).
 * <p>Conventions (world millimetres, detector pixels):
 * <ul>
 *   <li>the source at angle t sits at DSO·(cos t, sin t, 0); the rotation axis is z;</li>
 *   <li>the detector's u axis is (−sin t, cos t, 0) and its v axis +z; u runs along the columns of /exchange/data, v
 *       along its rows; the plane lies DSD from the source, perpendicular to the central ray;</li>
 *   <li>the central ray (source through the origin) lands on pixel (cu, cv), pixel centres at whole numbers.</li>
 * </ul>
 * A world point (x, y, z) at depth L = DSO − (x·cos t + y·sin t) from the source projects to
 * u = cu + (−x·sin t + y·cos t)·DSD/(L·du), v = cv + z·DSD/(L·dv). The circular scalars are needed for FDK's
 * weighting and filtering even when matrices are given; the matrices, where given, place the back-projection.
 */
public final class ConeGeometry implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Scan kinds: every direction twice (FDK halves), or 180° plus the fan once (Parker weights). */
    public enum ScanKind {FULL, SHORT}

    private final double dso, dsd, du, dv, cu, cv;
    private final int cols, rows;
    private final double[] angles;
    private final ProjectionMatrix[] matrices;

    private ConeGeometry(Builder b) {
        this.dso = b.dso;
        this.dsd = b.dsd;
        this.du = b.du;
        this.dv = b.dv;
        this.cu = b.cu;
        this.cv = b.cv;
        this.cols = b.cols;
        this.rows = b.rows;
        this.angles = b.angles;
        this.matrices = b.matrices;
    }

    public static Builder builder() {
        return new Builder();
    }

    public double dso() {
        return dso;
    }

    public double dsd() {
        return dsd;
    }

    public double du() {
        return du;
    }

    public double dv() {
        return dv;
    }

    public double cu() {
        return cu;
    }

    public double cv() {
        return cv;
    }

    /** Detector columns (u). */
    public int cols() {
        return cols;
    }

    /** Detector rows (v). */
    public int rows() {
        return rows;
    }

    public int numProjections() {
        return angles.length;
    }

    /** Angle of projection p, radians. */
    public double angle(int p) {
        return angles[p];
    }

    /** Whether per-projection matrices were given (else the circular trajectory's are derived from the scalars). */
    public boolean hasMatrices() {
        return matrices != null;
    }

    /** A copy with the given matrices in place of the circular trajectory's. */
    public ConeGeometry withMatrices(ProjectionMatrix[] m) {
        return toBuilder().matrices(m).build();
    }

    public Builder toBuilder() {
        Builder b = new Builder().dso(dso).dsd(dsd).pixel(du, dv).centre(cu, cv).detector(cols, rows).anglesRad(angles);
        if (matrices != null) b.matrices(matrices);
        return b;
    }

    /** The matrix of projection p: the given one, or the circular trajectory's. */
    public ProjectionMatrix matrix(int p) {
        return matrices != null ? matrices[p] : circularMatrix(p);
    }

    /** The circular trajectory's matrix of projection p, normalised to w = L/DSO. */
    public ProjectionMatrix circularMatrix(int p) {
        double c = Math.cos(angles[p]), s = Math.sin(angles[p]);
        double[] m = {
                (-cu * c - dsd * s / du) / dso, (-cu * s + dsd * c / du) / dso, 0, cu,
                -cv * c / dso, -cv * s / dso, dsd / (dv * dso), cv,
                -c / dso, -s / dso, 0, 1};
        return new ProjectionMatrix(m);
    }

    /** Half the fan angle: the largest angle between the central ray and a ray to the detector's outer column edges. */
    public double fanHalfAngle() {
        return Math.atan(Math.max(Math.abs(-0.5 - cu), Math.abs(cols - 0.5 - cu)) * du / dsd);
    }

    /** Half the cone angle, over the detector's outer row edges. */
    public double coneHalfAngle() {
        return Math.atan(Math.max(Math.abs(-0.5 - cv), Math.abs(rows - 0.5 - cv)) * dv / dsd);
    }

    /** The fan angle of detector column u (continuous pixels): positive towards +u. */
    public double fanAngle(double u) {
        return Math.atan((u - cu) * du / dsd);
    }

    /** The angular range the scan covers: the span of its angles plus one mean step. */
    public double angularRange() {
        int n = angles.length;
        if (n < 2) return 0;
        double span = Math.abs(angles[n - 1] - angles[0]);
        return span + span / (n - 1);
    }

    /** The angular step represented by projection p (half the distance between its neighbours; the mean step at ends). */
    public double angleStep(int p) {
        int n = angles.length;
        if (n < 2) return 2 * Math.PI;
        double mean = Math.abs(angles[n - 1] - angles[0]) / (n - 1);
        if (p == 0 || p == n - 1) return mean;
        return Math.abs(angles[p + 1] - angles[p - 1]) / 2;
    }

    /**
     * Full (covers 360° less half a step) or short (at least 180° plus the fan angle, Parker-weighted); a scan shorter
     * than that cannot be reconstructed by FDK and is refused, naming the angles' dataset.
     */
    public ScanKind scanKind(String anglesName) {
        double range = angularRange(), n = angles.length;
        if (range >= 2 * Math.PI * (1 - 0.5 / Math.max(1, n))) return ScanKind.FULL;
        double need = Math.PI + 2 * fanHalfAngle();
        if (range < need - 1e-9)
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "%s: the scan covers %.2f degrees; a cone-beam short scan needs 180 degrees plus the fan angle, %.2f degrees "
                            + "(fan half-angle %.2f degrees from cone.du, cone.cu and cone.dsd)",
                    anglesName, Math.toDegrees(range), Math.toDegrees(need), Math.toDegrees(fanHalfAngle())));
        return ScanKind.SHORT;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "cone: DSO %.3f mm, DSD %.3f mm, pixel %.4f x %.4f mm, centre (%.2f, %.2f), "
                        + "%d x %d detector, %d projections over %.2f degrees%s", dso, dsd, du, dv, cu, cv, cols, rows, angles.length,
                Math.toDegrees(angularRange()), matrices != null ? ", matrices given" : "");
    }

    /** Builds and checks a geometry; every error names the configuration key or dataset it comes from. */
    public static final class Builder {
        private double dso = Double.NaN, dsd = Double.NaN, du = Double.NaN, dv = Double.NaN, cu = Double.NaN, cv = Double.NaN;
        private int cols, rows;
        private double[] angles;
        private ProjectionMatrix[] matrices;

        public Builder dso(double mm) {
            this.dso = mm;
            return this;
        }

        public Builder dsd(double mm) {
            this.dsd = mm;
            return this;
        }

        public Builder pixel(double duMm, double dvMm) {
            this.du = duMm;
            this.dv = dvMm;
            return this;
        }

        public Builder centre(double cuPx, double cvPx) {
            this.cu = cuPx;
            this.cv = cvPx;
            return this;
        }

        public Builder detector(int cols, int rows) {
            this.cols = cols;
            this.rows = rows;
            return this;
        }

        public Builder anglesRad(double[] a) {
            this.angles = a.clone();
            return this;
        }

        public Builder anglesDeg(double[] deg) {
            double[] a = new double[deg.length];
            for (int i = 0; i < a.length; i++) a[i] = Math.toRadians(deg[i]);
            this.angles = a;
            return this;
        }

        /** n angles evenly over rangeDeg degrees from 0 (the last one step short of the range). */
        public Builder anglesRange(double rangeDeg, int n) {
            double[] a = new double[n];
            for (int i = 0; i < n; i++) a[i] = Math.toRadians(rangeDeg * i / n);
            this.angles = a;
            return this;
        }

        public Builder matrices(ProjectionMatrix[] m) {
            this.matrices = m == null ? null : m.clone();
            return this;
        }

        public ConeGeometry build() {
            positive(dso, "cone.dso", "the source-axis distance (mm)");
            positive(dsd, "cone.dsd", "the source-detector distance (mm)");
            if (!(dsd > dso))
                throw new IllegalArgumentException("config key cone.dsd (" + dsd + " mm) must exceed cone.dso (" + dso
                        + " mm): the detector lies beyond the rotation axis");
            positive(du, "cone.du", "the detector pixel width (mm)");
            positive(dv, "cone.dv", "the detector pixel height (mm)");
            if (!Double.isFinite(cu))
                throw new IllegalArgumentException("config key cone.cu (the column the central ray lands on) is missing");
            if (!Double.isFinite(cv))
                throw new IllegalArgumentException("config key cone.cv (the row the central ray lands on) is missing");
            if (cols < 2 || rows < 1)
                throw new IllegalArgumentException("/exchange/data: a cone-beam detector of " + cols + " x " + rows + " pixels");
            if (angles == null || angles.length == 0) throw new IllegalArgumentException("/exchange/theta: no projection angles");
            for (double a : angles)
                if (!Double.isFinite(a)) throw new IllegalArgumentException("/exchange/theta holds a non-finite angle");
            if (matrices != null) {
                if (matrices.length != angles.length)
                    throw new IllegalArgumentException("/geometry/projection_matrices holds " + matrices.length + " matrices for "
                            + angles.length + " projections");
                ProjectionMatrix[] n = new ProjectionMatrix[matrices.length];
                for (int p = 0; p < n.length; p++) n[p] = matrices[p].normalised("/geometry/projection_matrices[" + p + "]");
                matrices = n;
            }
            return new ConeGeometry(this);
        }

        private static void positive(double v, String key, String what) {
            if (Double.isNaN(v)) throw new IllegalArgumentException("config key " + key + " (" + what + ") is missing");
            if (!(v > 0) || Double.isInfinite(v))
                throw new IllegalArgumentException("config key " + key + " (" + what + ") must be positive, got " + v);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConeGeometry g && dso == g.dso && dsd == g.dsd && du == g.du && dv == g.dv && cu == g.cu && cv == g.cv
                && cols == g.cols && rows == g.rows && Arrays.equals(angles, g.angles) && Arrays.equals(matrices, g.matrices);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(angles) * 31 + Double.hashCode(dso + dsd);
    }
}
