package org.tomospark.executor.phantom;

/**
 * An ellipsoid of constant added density, rotated by {@code phiDeg} about the z (rotation) axis.
 * Coordinates are in phantom units (the unit sphere holds the phantom).
 */
public record Ellipsoid(double density, double a, double b, double c, double x0, double y0, double z0, double phiDeg) {

    /**
     * The cross-section at height z: an ellipse (semi-axes scaled by √(1 − ((z−z0)/c)²)), or null when
     * the plane misses the ellipsoid.
     */
    public Ellipse sliceAt(double z) {
        double u = (z - z0) / c;
        double r2 = 1 - u * u;
        if (r2 <= 0) return null;
        double r = Math.sqrt(r2);
        return new Ellipse(density, a * r, b * r, x0, y0, Math.toRadians(phiDeg));
    }

    /** A 2-D ellipse with exact line integrals (Kak &amp; Slaney, ch. 3). */
    public record Ellipse(double density, double a, double b, double x0, double y0, double phi) {

        /** Whether (x, y) lies inside. */
        public boolean contains(double x, double y) {
            double dx = x - x0, dy = y - y0;
            double c = Math.cos(phi), s = Math.sin(phi);
            double u = dx * c + dy * s, v = -dx * s + dy * c;
            return (u * u) / (a * a) + (v * v) / (b * b) <= 1.0;
        }

        /** Squared half-width of the projected ellipse at angle θ: s² = a²cos²(θ−φ) + b²sin²(θ−φ). */
        private double s2(double theta) {
            double cc = Math.cos(theta - phi), ss = Math.sin(theta - phi);
            return a * a * cc * cc + b * b * ss * ss;
        }

        /** Line integral along x·cosθ + y·sinθ = t. */
        public double lineIntegral(double t, double theta) {
            double s2 = s2(theta);
            double tau = t - (x0 * Math.cos(theta) + y0 * Math.sin(theta));
            double q = s2 - tau * tau;
            return q <= 0 ? 0.0 : 2 * density * a * b * Math.sqrt(q) / s2;
        }

        /**
         * Mean of the line integral over detector coordinates [t0, t1]: the exact integral
         * (ρab/s²)[τ√(s²−τ²) + s² asin(τ/s)] divided by the width, for a detector pixel of finite size.
         */
        public double meanLineIntegral(double t0, double t1, double theta) {
            double s2 = s2(theta);
            double s = Math.sqrt(s2);
            double centre = x0 * Math.cos(theta) + y0 * Math.sin(theta);
            double lo = Math.max(t0 - centre, -s), hi = Math.min(t1 - centre, s);
            if (hi <= lo) return 0.0;
            return density * a * b / s2 * (prim(hi, s, s2) - prim(lo, s, s2)) / (t1 - t0);
        }

        private static double prim(double tau, double s, double s2) {
            double r = Math.max(0, s2 - tau * tau);
            return tau * Math.sqrt(r) + s2 * Math.asin(Math.max(-1, Math.min(1, tau / s)));
        }
    }
}
