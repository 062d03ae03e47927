package org.tomospark.executor.phase;

import java.io.Serializable;

/**
 * Parameters of Paganin single-distance phase retrieval.
 *
 * @param energyKeV     photon energy in keV (wavelength λ = hc/E)
 * @param distanceM     sample–detector propagation distance in metres
 * @param pixelSizeM    detector pixel size in metres (effective, at the sample)
 * @param deltaOverBeta ratio δ/β of the refractive index decrement to the absorption index
 */
public record PaganinParams(double energyKeV, double distanceM, double pixelSizeM, double deltaOverBeta) implements Serializable {
    public PaganinParams {
        if (!(energyKeV > 0)) throw new IllegalArgumentException("phase.energy must be > 0 keV, got " + energyKeV);
        if (!(distanceM > 0)) throw new IllegalArgumentException("phase.distance must be > 0 m, got " + distanceM);
        if (!(pixelSizeM > 0)) throw new IllegalArgumentException("phase.pixelSize must be > 0 m, got " + pixelSizeM);
        if (!(deltaOverBeta > 0)) throw new IllegalArgumentException("phase.deltaOverBeta must be > 0, got " + deltaOverBeta);
    }

    /** hc in keV·m. */
    public static final double HC_KEV_M = 1.23984198e-9;

    public double wavelengthM() {
        return HC_KEV_M / energyKeV;
    }

    /**
     * The filter's coefficient a in 1/(1 + a·(fx² + fy²)) with f in cycles per pixel:
     * a = π·λ·z·(δ/β)/Δ² (Paganin et al. 2002, eq. 10, with k = 2πf and μ = 4πβ/λ).
     */
    public double coefficientPx() {
        return Math.PI * wavelengthM() * distanceM * deltaOverBeta / (pixelSizeM * pixelSizeM);
    }

    /**
     * Decay length of the real-space kernel in pixels: 1/(1 + a·f²) with f in cycles/px is the transform of
     * a kernel ∝ exp(−r/ℓ) (K₀(r/ℓ) in 2-D) with ℓ = √a/(2π).
     */
    public double kernelLengthPx() {
        return Math.sqrt(coefficientPx()) / (2 * Math.PI);
    }

    /**
     * Extra detector rows read above and below a slice group so that its rows are filtered as in the full
     * projection: 12 kernel lengths (the continuous kernel has fallen below e⁻¹² ≈ 6·10⁻⁶ of its peak there),
     * and at least 16: on the pixel grid the filter has a kink at the Nyquist frequency, which gives the
     * discrete kernel a slowly (1/r²) decaying tail, largest for short kernels.
     */
    public int haloRows() {
        return Math.max(16, (int) Math.ceil(12 * kernelLengthPx()));
    }
}
