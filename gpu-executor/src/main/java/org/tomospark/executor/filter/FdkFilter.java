package org.tomospark.executor.filter;

import org.tomospark.executor.geometry.ConeGeometry.ScanKind;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ProjectionMatrix;

/**
 * FDK's weighting and filtering of one projection (Feldkamp, Davis and Kress, JOSA A 1 (1984) 612), rows of a band at
 * a time, so that a back-projection of the result with the distance weight 1/w² ({@link ProjectionMatrix}) and the
 * sum over projections yields attenuation in 1/mm:
 * <pre>  q(u, v) = Δβ · W(β, γ(u)) · ramp_u[ cos(u, v) · p(u, v) ] / τ</pre>
 * with cos = DSD/√(DSD² + u_mm² + v_mm²) the cosine weight, τ = du·DSO/DSD the detector pitch at the rotation axis,
 * the product's ramp filters along u (window, cutoff and padding of {@link FilterSpec}), Δβ the projection's angular
 * step, and W the redundancy weight: ½ for a full scan (every line measured twice), Parker's weights for a short scan
 * (Parker, Med. Phys. 9 (1982) 254), generalised to any range R ≥ 180° + fan by δ = (R − 180°)/2 (Wesarg et al.,
 * Med. Phys. 29 (2002) 2033), so that the weights of a ray and of its conjugate add to one.
 */
public final class FdkFilter {
    private final ConeGeometry g;
    private final ScanKind kind;
    private final RampFilter ramp;
    private final double delta;
    /** +1 when the angles increase, −1 when they decrease: the conjugate ray's fan angle flips with the direction. */
    private final int direction;

    /**
     * @param anglesName the dataset (or key) the angles came from, named when the scan is too short
     */
    public FdkFilter(ConeGeometry g, FilterSpec spec, String anglesName) {
        this.g = g;
        this.kind = g.scanKind(anglesName);
        double tau = g.du() * g.dso() / g.dsd();
        // RampFilter applies 2·scale·(discrete ramp h with unit spacing); the discrete ramp at spacing τ is h/τ²,
        // the convolution's sum carries one τ: 1/τ in all
        this.ramp = new RampFilter(g.cols(), spec, 1 / (2 * tau));
        this.delta = (g.angularRange() - Math.PI) / 2;
        int n = g.numProjections();
        this.direction = n > 1 && g.angle(n - 1) < g.angle(0) ? -1 : 1;
    }

    public ScanKind kind() {
        return kind;
    }

    /**
     * Weights and filters rows [firstRow, firstRow + nrows) of projection p, stored in {@code band} as nrows rows of
     * {@code cols} pixels from {@code offset}, in place.
     */
    public void apply(int p, float[] band, int offset, int firstRow, int nrows) {
        int cols = g.cols();
        double dsd2 = g.dsd() * g.dsd();
        double[] uw = redundancyWeights(p);
        for (int r = 0; r < nrows; r++) {
            double vm = (firstRow + r - g.cv()) * g.dv();
            int o = offset + r * cols;
            for (int u = 0; u < cols; u++) {
                double um = (u - g.cu()) * g.du();
                double cos = g.dsd() / Math.sqrt(dsd2 + um * um + vm * vm);
                band[o + u] = (float) (band[o + u] * cos * uw[u]);
            }
            ramp.filterRow(band, o);
        }
    }

    /**
     * The weights of projection p that depend on u alone, one a detector column: its angular step Δβ times the redundancy
     * weight W (½ for a full scan, Parker's for a short one).
     */
    public double[] redundancyWeights(int p) {
        double step = g.angleStep(p), beta = Math.abs(g.angle(p) - g.angle(0));
        double[] uw = new double[g.cols()];
        for (int u = 0; u < uw.length; u++)
            uw[u] = step * (kind == ScanKind.FULL ? 0.5 : parker(beta, direction * g.fanAngle(u), delta));
        return uw;
    }

    /** The ramp filter along u, its scale included: its response, FFT length and padding, for a device's filter. */
    public RampFilter ramp() {
        return ramp;
    }

    /**
     * Parker's weight of the ray at fan angle γ from the source at β (from the first projection), for a scan over
     * 180° + 2δ. With these conventions the conjugate of (β, γ) is (β + 180° − 2γ, −γ), and the weights of the two add
     * to one.
     */
    static double parker(double beta, double gamma, double delta) {
        if (beta < 0) return 0;
        double a = delta + gamma, b = delta - gamma;
        if (beta < 2 * a) {
            double s = Math.sin(Math.PI / 4 * beta / a);
            return s * s;
        }
        if (beta <= Math.PI + 2 * gamma) return 1;
        if (beta <= Math.PI + 2 * delta && b > 0) {
            double s = Math.sin(Math.PI / 4 * (Math.PI + 2 * delta - beta) / b);
            return s * s;
        }
        return 0;
    }
}
