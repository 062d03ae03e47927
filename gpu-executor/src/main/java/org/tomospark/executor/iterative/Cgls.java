package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;

/**
 * CGLS (conjugate gradients on the normal equations AᵀA·x = Aᵀ·p) on the −log sinograms, with its step lengths
 * computed per slice, so that the slices of a pass converge exactly as they would one at a time. Unconstrained:
 * clipping would break the conjugacy that makes it converge, so negative values are left for the caller to judge.
 */
public final class Cgls implements Solver {
    @Override
    public SolveFootprint footprint() {
        return new SolveFootprint(3, 3, 0);
    }

    @Override
    public Convergence solve(SolverOps ops, Measurements data, float[] x0, StopRule stop) {
        int k = ops.slicesPerPass();
        int[] all = ops.allAngles();
        try (Vec b = ops.sinogram(); Vec x = ops.image(); Vec r = ops.sinogram(); Vec q = ops.sinogram();
             Vec s = ops.image(); Vec dir = ops.image()) {
            ops.upload(data.lineIntegrals(), b);
            ops.upload(x0, x);
            ops.forward(x, r, all);
            ops.subtractFrom(b, r);
            ops.back(r, s, all);
            ops.copy(s, dir);
            double[] gamma = ops.dots(s, s);
            double[] bb = ops.dots(b, b);
            Convergence conv = new Convergence(new double[0], Interleaved.sum(bb));
            StopRule.Monitor monitor = stop.monitor(data, bb);
            for (int it = 0; it < stop.iterations(); it++) {
                ops.forward(dir, q, all);
                double[] qq = ops.dots(q, q);
                float[] alpha = new float[k], minus = new float[k];
                for (int j = 0; j < k; j++) {
                    alpha[j] = qq[j] > 0 ? (float) (gamma[j] / qq[j]) : 0f;
                    minus[j] = -alpha[j];
                }
                ops.axpy(alpha, dir, x);
                ops.axpy(minus, q, r);
                conv = monitor.record(conv, ops.dots(r, r));
                if (monitor.decide()) monitor.keep(ops, x, x0);
                if (monitor.done()) break;
                ops.back(r, s, all);
                double[] next = ops.dots(s, s);
                float[] beta = new float[k];
                for (int j = 0; j < k; j++) beta[j] = gamma[j] > 0 ? (float) (next[j] / gamma[j]) : 0f;
                gamma = next;
                ops.xpby(s, beta, dir);
            }
            return monitor.finish(ops, x, x0, conv);
        }
    }
}
