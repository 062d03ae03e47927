package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;

/**
 * Total-variation regularised least squares on the −log sinograms,
 * <pre>  min over x ≥ 0 of ½‖A·x − p‖² + λ·Σ |∇x|₂</pre>
 * (isotropic TV, {@link TotalVariation}), solved by the first-order primal–dual method of Chambolle and Pock
 * (J. Math. Imaging Vis. 40 (2011) 120) with the diagonal preconditioning of Pock and Chambolle (ICCV 2011, α = 1),
 * which needs no estimate of the operator's norm: K = [A; ∇], dual steps σ = 1/(row sums of |K|) (R of SIRT for the
 * rays, ½ for the gradient) and primal steps τ = 1/(column sums of |K|) (A's column sums plus 4). Each iteration is one
 * forward and one back-projection:
 * <pre>  q ← (q + σ(A·x̄ − p)) / (1 + σ)
 *   z ← proj_{|z| ≤ λ}(z + ½∇x̄)
 *   x' ← max(0, x − τ(Aᵀq − div z)),  x̄ ← 2x' − x,  x ← x'</pre>
 * The residual recorded is that of x̄, ‖A·x̄ − p‖² (the forward projection the step computes anyway); the image's
 * relative change ‖x' − x‖/‖x'‖ is what {@link StopRule.Rule#CHANGE} watches, since the method converges to its
 * regularised solution, not to the data.
 */
public final class TvPrimalDual implements Solver {
    /** Dual step of the gradient: 1/(|+1| + |−1|), the row sums of forward differences. */
    private static final float GRADIENT_SIGMA = 0.5f;
    /** The most rows of ∇ a pixel appears in (its two forward differences and its two neighbours'). */
    private static final float GRADIENT_COLUMN_SUM = 4f;

    private final TvWeight weight;

    public TvPrimalDual(TvWeight weight) {
        this.weight = weight;
    }

    @Override
    public SolveFootprint footprint() {
        return new SolveFootprint(6, 4, 0);
    }

    @Override
    public Convergence solve(SolverOps ops, Measurements data, float[] x0, StopRule stop) {
        int[] all = ops.allAngles();
        float[] lambda = weight.perSlice(data, ops.shape());
        try (Vec p = ops.sinogram(); Vec q = ops.sinogram(); Vec sigma = ops.sinogram(); Vec line = ops.sinogram();
             Vec x = ops.image(); Vec xbar = ops.image(); Vec u = ops.image(); Vec zx = ops.image(); Vec zy = ops.image();
             Vec tau = ops.image()) {
            ops.upload(data.lineIntegrals(), p);
            ops.upload(x0, x);
            ops.copy(x, xbar);
            // σ for the rays: the reciprocal row sums of A; τ: the reciprocal of A's column sums plus the gradient's
            ops.fill(u, 1f);
            ops.forward(u, sigma, all);
            ops.reciprocal(sigma);
            ops.fill(line, 1f);
            ops.back(line, tau, all);
            ops.offsetReciprocal(tau, GRADIENT_COLUMN_SUM);
            double[] pp = ops.dots(p, p);
            Convergence conv = new Convergence(new double[0], Interleaved.sum(pp));
            StopRule.Monitor monitor = stop.monitor(data, pp);
            int k = ops.slicesPerPass();
            for (int it = 0; it < stop.iterations(); it++) {
                ops.forward(xbar, line, all);
                conv = monitor.record(conv, ops.distancesSquared(p, line));
                ops.dataDual(q, line, p, sigma);
                ops.back(q, u, all);
                ops.tvDual(zx, zy, xbar, GRADIENT_SIGMA, lambda);
                ops.tvPrimal(x, xbar, u, zx, zy, tau, true);
                // x̄ − x is now x' − x_before: the step's change
                double[] step = ops.distancesSquared(xbar, x), size = ops.dots(x, x), change = new double[k];
                for (int j = 0; j < k; j++) change[j] = size[j] > 0 ? Math.sqrt(step[j] / size[j]) : 0;
                if (monitor.decide(change)) monitor.keep(ops, x, x0);
                if (monitor.done()) break;
            }
            return monitor.finish(ops, x, x0, conv);
        }
    }
}
