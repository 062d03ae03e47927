package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;

/**
 * SIRT on the −log sinograms: x ← x + C·Aᵀ·R·(p − A·x), with R and C the reciprocal row and column sums of A (the
 * form ASTRA and TIGRE use). Unconstrained it converges to the R-weighted least-squares solution; with
 * {@code nonNegative} every iterate is clipped at 0 (attenuation cannot be negative).
 */
public final class Sirt implements Solver {
    private final boolean nonNegative;

    public Sirt(boolean nonNegative) {
        this.nonNegative = nonNegative;
    }

    @Override
    public SolveFootprint footprint() {
        return new SolveFootprint(3, 3, 0);
    }

    @Override
    public Convergence solve(SolverOps ops, Measurements data, float[] x0, StopRule stop) {
        int[] all = ops.allAngles();
        try (Vec p = ops.sinogram(); Vec x = ops.image(); Vec r = ops.sinogram(); Vec c = ops.image();
             Vec residual = ops.sinogram(); Vec update = ops.image()) {
            ops.upload(data.lineIntegrals(), p);
            ops.upload(x0, x);
            // R and C: the row and column sums of A, inverted
            ops.fill(update, 1f);
            ops.forward(update, r, all);
            ops.fill(residual, 1f);
            ops.back(residual, c, all);
            ops.reciprocal(r);
            ops.reciprocal(c);
            ops.forward(x, residual, all);
            double[] pp = ops.dots(p, p);
            Convergence conv = new Convergence(new double[0], Interleaved.sum(pp));
            StopRule.Monitor monitor = stop.monitor(data, pp);
            for (int it = 0; it < stop.iterations(); it++) {
                ops.weightedResidual(p, residual, r);
                ops.back(residual, update, all);
                ops.scaledUpdate(x, c, update, nonNegative);
                ops.forward(x, residual, all);
                conv = monitor.record(conv, ops.distancesSquared(p, residual));
                if (monitor.decide()) monitor.keep(ops, x, x0);
                if (monitor.done()) break;
            }
            return monitor.finish(ops, x, x0, conv);
        }
    }
}
