package org.tomospark.executor.fourier;

/**
 * The Kaiser–Bessel gridding kernel and its Fourier transform.
 *
 * <p>The kernel spreads one Fourier sample over {@code width} grid cells along each axis:
 * {@code c(d) = I0(β·√(1 − (2d/W)²)) / I0(β)} for {@code |d| < W/2}, zero beyond. Its continuous Fourier transform,
 * {@code ĉ(x) = W·sinh(√(β² − (πWx/M)²)) / (√(β² − (πWx/M)²)·I0(β))} at image offset {@code x} of a grid of {@code M}
 * cells, is what the image comes out multiplied by, and what the deapodisation divides away. The shape parameter follows
 * Beatty, Nishimura &amp; Pauly (2005): {@code β = π·√((W/σ)²·(σ − ½)² − 0.8)} for oversampling σ, which puts the
 * kernel's first side lobe just outside the image's alias-free band.
 *
 * <p>The kernel is evaluated from a table: {@code quanta + 1} rows, one per quantised sub-cell position
 * {@code q/quanta} of a sample, each holding the {@code width} tap weights contiguously. A sample at {@code u} with
 * {@code f = u − ⌊u⌋} uses row {@code q = round(f·quanta)} for the taps {@code ⌊u⌋ − W/2 + 1 … ⌊u⌋ + W/2}; rows for
 * {@code f} and {@code 1 − f} are mirror images, so samples at {@code ±u} are spread symmetrically (two real slices in
 * one complex transform stay apart).
 */
final class KaiserBessel {
    private final int width;
    private final double oversampling;
    private final double beta;
    private final int quanta;
    private final float[] table;

    /**
     * @param width        taps per axis (even, ≥ 2)
     * @param oversampling grid size over image size the kernel is designed for (&gt; 1)
     * @param quanta       table rows per grid cell (a power of two)
     */
    KaiserBessel(int width, double oversampling, int quanta) {
        if (width < 2 || (width & 1) != 0) throw new IllegalArgumentException("kernel width must be even and >= 2, got " + width);
        if (!(oversampling > 1)) throw new IllegalArgumentException("oversampling must be > 1, got " + oversampling);
        if (Integer.bitCount(quanta) != 1) throw new IllegalArgumentException("table quanta must be a power of two, got " + quanta);
        this.width = width;
        this.oversampling = oversampling;
        double r = width / oversampling * (oversampling - 0.5);
        this.beta = Math.PI * Math.sqrt(Math.max(r * r - 0.8, 1e-6));
        this.quanta = quanta;
        this.table = new float[(quanta + 1) * width];
        for (int q = 0; q <= quanta; q++)
            for (int t = 0; t < width; t++) table[q * width + t] = (float) value((double) q / quanta + width / 2 - 1 - t);
    }

    int width() {
        return width;
    }

    double oversampling() {
        return oversampling;
    }

    double beta() {
        return beta;
    }

    int quanta() {
        return quanta;
    }

    /** The tap table, {@code (quanta + 1) × width}, row-major; shared, not to be modified. */
    float[] table() {
        return table;
    }

    /** Kernel value at distance {@code d} grid cells from the sample, zero at and beyond {@code W/2}. */
    double value(double d) {
        double u = 2 * d / width;
        if (Math.abs(u) >= 1) return 0;
        return besselI0(beta * Math.sqrt(1 - u * u)) / besselI0(beta);
    }

    /** The kernel's continuous Fourier transform at image offset {@code x} pixels on a grid of {@code m} cells. */
    double transform(double x, int m) {
        double a = Math.PI * width * x / m;
        double s = beta * beta - a * a;
        double shape;
        if (s > 1e-12) {
            double r = Math.sqrt(s);
            shape = Math.sinh(r) / r;
        } else if (s < -1e-12) {
            double r = Math.sqrt(-s);
            shape = Math.sin(r) / r;
        } else {
            shape = 1;
        }
        return width * shape / besselI0(beta);
    }

    /** The modified Bessel function of the first kind and order zero, by its power series (ample for x ≤ 50). */
    static double besselI0(double x) {
        double term = 1, sum = 1, h = x * x / 4;
        for (int k = 1; k < 500 && term > 1e-17 * sum; k++) {
            term *= h / ((double) k * k);
            sum += term;
        }
        return sum;
    }
}
