package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;

/**
 * MLTR, maximum likelihood for transmission tomography (Nuyts et al., IEEE TMI 17 (1998) 179; the seed slides'
 * method), with ordered subsets. The measured counts are y = b·exp(−p), b the unattenuated counts from the flats and p
 * the −log sinogram; the expected counts are ŷ = b·exp(−A·μ). Each subset S updates every pixel by the ratio of the
 * log-likelihood's gradient to a separable curvature,
 * <pre>  μ_j ← max(0, μ_j + Σ_{i∈S} a_ij (ŷ_i − y_i) / Σ_{i∈S} a_ij (Σ_k a_ik) ŷ_i),</pre>
 * two back-projections (numerator and denominator) per forward projection. μ ≥ 0 is enforced after every update.
 * The residual reported is that of the −log data, ‖A·μ − p‖, as for the other methods.
 */
public final class Mltr implements Solver {
    private final int subsets;

    public Mltr(int subsets) {
        if (subsets < 1) throw new IllegalArgumentException("subsets must be >= 1, got " + subsets);
        this.subsets = subsets;
    }

    @Override
    public SolveFootprint footprint() {
        return new SolveFootprint(3, 6, 0);
    }

    @Override
    public Convergence solve(SolverOps ops, Measurements data, float[] x0, StopRule stop) {
        if (!data.hasBlank()) throw new IllegalArgumentException("MLTR needs the unattenuated counts (flats)");
        Subsets order = Subsets.of(ops.shape().projections(), subsets);
        int[] all = ops.allAngles();
        try (Vec p = ops.sinogram(); Vec blank = ops.row(data.blank()); Vec x = ops.image(); Vec rowSum = ops.sinogram();
             Vec counts = ops.sinogram(); Vec line = ops.sinogram(); Vec num = ops.sinogram(); Vec den = ops.sinogram();
             Vec gNum = ops.image(); Vec gDen = ops.image()) {
            ops.upload(data.lineIntegrals(), p);
            ops.upload(x0, x);
            ops.fill(gNum, 1f);
            ops.forward(gNum, rowSum, all);
            ops.counts(blank, p, counts);
            double[] pp = ops.dots(p, p);
            Convergence conv = new Convergence(new double[0], Interleaved.sum(pp));
            StopRule.Monitor monitor = stop.monitor(data, pp);
            boolean current = false;
            for (int it = 0; it < stop.iterations(); it++) {
                for (int[] angles : order.angles()) {
                    if (!current) ops.forward(x, line, angles);
                    current = false;
                    ops.likelihoodTerms(line, blank, counts, rowSum, angles, num, den);
                    ops.back(num, gNum, angles);
                    ops.back(den, gDen, angles);
                    ops.ratioUpdate(x, gNum, gDen);
                }
                ops.forward(x, line, all);
                current = subsets == 1;
                conv = monitor.record(conv, ops.distancesSquared(p, line));
                if (monitor.decide()) monitor.keep(ops, x, x0);
                if (monitor.done()) break;
            }
            return monitor.finish(ops, x, x0, conv);
        }
    }
}
