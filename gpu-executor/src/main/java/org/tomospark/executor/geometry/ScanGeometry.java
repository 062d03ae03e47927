package org.tomospark.executor.geometry;

import java.util.Arrays;

/**
 * Immutable parallel-beam acquisition geometry of one scan: detector width, projection angles,
 * centre of rotation and an optional per-projection axis correction.
 *
 * <p>Conventions (scikit-image radon/iradon): detector column {@code j}'s centre lies at coordinate
 * {@code j}. The projection at angle θ records the line integral along
 * {@code x·cosθ + y·sinθ = column − centreOfRotation − axisCorrection[p]}. Angles are radians here;
 * DataExchange files store degrees.
 */
public final class ScanGeometry {
    private final int detectorWidth;
    private final double[] anglesRad;
    private final double centerOfRotation;
    private final double[] axisCorrection;

    private ScanGeometry(Builder b) {
        this.detectorWidth = b.detectorWidth;
        this.anglesRad = b.anglesRad.clone();
        this.centerOfRotation = b.centerOfRotation;
        this.axisCorrection = b.axisCorrection == null ? new double[anglesRad.length] : b.axisCorrection.clone();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int detectorWidth() {
        return detectorWidth;
    }

    public int numProjections() {
        return anglesRad.length;
    }

    /** A copy of the projection angles in radians. */
    public double[] anglesRad() {
        return anglesRad.clone();
    }

    public double angleRad(int p) {
        return anglesRad[p];
    }

    public double centerOfRotation() {
        return centerOfRotation;
    }

    /** Per-projection shift of the rotation axis in detector pixels (the seed paper's c_a). */
    public double axisCorrection(int p) {
        return axisCorrection[p];
    }

    public double[] axisCorrections() {
        return axisCorrection.clone();
    }

    /** Angular coverage (last − first + mean step), in radians; ≈π for 180° scans, ≈2π for 360°. */
    public double angularCoverage() {
        int n = anglesRad.length;
        if (n < 2) return Math.PI;
        double step = (anglesRad[n - 1] - anglesRad[0]) / (n - 1);
        return Math.abs(anglesRad[n - 1] - anglesRad[0] + step);
    }

    /** True for scans covering (about) 360°. */
    public boolean isFullRotation() {
        return angularCoverage() > 1.5 * Math.PI;
    }

    public ScanGeometry withCenterOfRotation(double c) {
        return toBuilder().centerOfRotation(c).build();
    }

    public Builder toBuilder() {
        Builder b = new Builder().detectorWidth(detectorWidth).anglesRad(anglesRad).centerOfRotation(centerOfRotation);
        b.axisCorrection = axisCorrection.clone();
        return b;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ScanGeometry g)) return false;
        return detectorWidth == g.detectorWidth && centerOfRotation == g.centerOfRotation
                && Arrays.equals(anglesRad, g.anglesRad) && Arrays.equals(axisCorrection, g.axisCorrection);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(anglesRad) * 31 + Double.hashCode(centerOfRotation) + detectorWidth;
    }

    @Override
    public String toString() {
        return "ScanGeometry[width=" + detectorWidth + ", projections=" + anglesRad.length
                + ", center=" + centerOfRotation + ", coverage=" + Math.toDegrees(angularCoverage()) + "deg]";
    }

    /** Builder; {@link #build()} validates and names the offending parameter. */
    public static final class Builder {
        private int detectorWidth = -1;
        private double[] anglesRad;
        private double centerOfRotation = Double.NaN;
        private double[] axisCorrection;

        public Builder detectorWidth(int w) {
            this.detectorWidth = w;
            return this;
        }

        public Builder anglesRad(double[] a) {
            this.anglesRad = a == null ? null : a.clone();
            return this;
        }

        public Builder anglesDeg(double[] deg) {
            if (deg == null) {
                this.anglesRad = null;
                return this;
            }
            double[] r = new double[deg.length];
            for (int i = 0; i < deg.length; i++) r[i] = Math.toRadians(deg[i]);
            this.anglesRad = r;
            return this;
        }

        /** Evenly spaced angles: {@code n} projections starting at {@code startDeg} with {@code stepDeg}. */
        public Builder anglesStartStep(double startDeg, double stepDeg, int n) {
            if (n <= 0) throw new IllegalArgumentException("angles: number of projections must be > 0, got " + n);
            double[] r = new double[n];
            for (int i = 0; i < n; i++) r[i] = Math.toRadians(startDeg + i * stepDeg);
            this.anglesRad = r;
            return this;
        }

        /** Evenly spaced angles covering {@code rangeDeg} (180 or 360) without repeating the end point. */
        public Builder anglesRange(double rangeDeg, int n) {
            if (rangeDeg != 180.0 && rangeDeg != 360.0)
                throw new IllegalArgumentException("angles.range must be 180 or 360 degrees, got " + rangeDeg);
            return anglesStartStep(0.0, rangeDeg / n, n);
        }

        public Builder centerOfRotation(double c) {
            this.centerOfRotation = c;
            return this;
        }

        public Builder axisCorrection(double[] corr) {
            this.axisCorrection = corr == null ? null : corr.clone();
            return this;
        }

        public ScanGeometry build() {
            if (detectorWidth < 2)
                throw new IllegalArgumentException("detector width must be >= 2 pixels, got " + detectorWidth);
            if (anglesRad == null || anglesRad.length == 0)
                throw new IllegalArgumentException("angles: at least one projection angle is required");
            for (int i = 0; i < anglesRad.length; i++)
                if (!Double.isFinite(anglesRad[i]))
                    throw new IllegalArgumentException("angles: angle " + i + " is not finite (" + anglesRad[i] + ")");
            if (Double.isNaN(centerOfRotation)) centerOfRotation = (detectorWidth - 1) / 2.0;
            if (!Double.isFinite(centerOfRotation) || centerOfRotation < 0 || centerOfRotation > detectorWidth - 1)
                throw new IllegalArgumentException("center of rotation " + centerOfRotation
                        + " lies outside the detector [0, " + (detectorWidth - 1) + "]");
            if (axisCorrection != null) {
                if (axisCorrection.length != anglesRad.length)
                    throw new IllegalArgumentException("axis correction has " + axisCorrection.length
                            + " values but there are " + anglesRad.length + " projection angles");
                for (int i = 0; i < axisCorrection.length; i++)
                    if (!Double.isFinite(axisCorrection[i]))
                        throw new IllegalArgumentException("axis correction " + i + " is not finite");
            }
            return new ScanGeometry(this);
        }
    }
}
