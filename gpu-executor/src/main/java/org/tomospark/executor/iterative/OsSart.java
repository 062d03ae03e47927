package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;

import java.util.List;

/**
 * OS-SART (ordered-subsets SART; Andersen and Kak 1984, Wang and Jiang 2004) on the −log sinograms: SIRT's update
 * taken subset by subset of the projections,
 * <pre>  x ← max(0, x + λ·C_S·A_Sᵀ·R·(p − A_S·x))</pre>
 * with R the reciprocal row sums of A (one per ray) and C_S the reciprocal column sums of A_S (one per pixel: every
 * slice of a pass shares them, so each subset keeps one weight image). With one subset it is SIRT; with one projection
 * per subset, SART. Subsets are {@link Subsets}: interleaved projections, visited in bit-reversed order so that
 * consecutive subsets lie far apart in angle. Each subset sees the whole angular range, so one pass over the subsets
 * does about as much as S iterations of SIRT for the price of one.
 * <p>
 * The residual recorded for an iteration is Σ_S ‖p_S − A_S·x‖² with x the image each subset started from: it costs no
 * projection more, and it is the full residual once the iterates settle.
 */
public final class OsSart implements Solver {
    /** The relaxation λ when none is given: SART's own (Andersen and Kak); stable with every subset count here. */
    public static final double DEFAULT_RELAXATION = 1.0;

    private final int subsets;
    private final float relaxation;

    public OsSart(int subsets, double relaxation) {
        if (subsets < 1) throw new IllegalArgumentException("subsets must be >= 1, got " + subsets);
        if (!(relaxation > 0 && relaxation < 2)) throw new IllegalArgumentException("relaxation must be in (0, 2), got " + relaxation);
        this.subsets = subsets;
        this.relaxation = (float) relaxation;
    }

    /** The subsets of the projections. */
    public int subsets() {
        return subsets;
    }

    @Override
    public SolveFootprint footprint() {
        return new SolveFootprint(3, 3, subsets);
    }

    @Override
    public Convergence solve(SolverOps ops, Measurements data, float[] x0, StopRule stop) {
        List<int[]> order = Subsets.of(ops.shape().projections(), subsets).angles();
        int[] all = ops.allAngles();
        Vec[] weights = new Vec[order.size()];
        try (Vec p = ops.sinogram(); Vec x = ops.image(); Vec r = ops.sinogram(); Vec line = ops.sinogram(); Vec u = ops.image();
             Vec ones = ops.image()) {
            ops.upload(data.lineIntegrals(), p);
            ops.upload(x0, x);
            // R: the reciprocal row sums of A
            ops.fill(ones, 1f);
            ops.forward(ones, r, all);
            ops.reciprocal(r);
            // λ·C_S: back-projecting 1/λ over a subset gives its column sums over λ
            ops.fill(line, 1f / relaxation);
            for (int s = 0; s < weights.length; s++) {
                weights[s] = ops.weights();
                ops.back(line, u, order.get(s));
                ops.reciprocal(u);
                ops.firstSlice(u, weights[s]);
            }
            double[] pp = ops.dots(p, p);
            Convergence conv = new Convergence(new double[0], Interleaved.sum(pp));
            StopRule.Monitor monitor = stop.monitor(data, pp);
            int k = ops.slicesPerPass();
            for (int it = 0; it < stop.iterations(); it++) {
                double[] residual = new double[k];
                for (int s = 0; s < weights.length; s++) {
                    int[] angles = order.get(s);
                    ops.forward(x, line, angles);
                    double[] part = ops.subsetResidual(p, line, r, angles);
                    for (int j = 0; j < k; j++) residual[j] += part[j];
                    ops.back(line, u, angles);
                    ops.weightedUpdate(x, weights[s], u, true);
                }
                conv = monitor.record(conv, residual);
                if (monitor.decide()) monitor.keep(ops, x, x0);
                if (monitor.done()) break;
            }
            return monitor.finish(ops, x, x0, conv);
        } finally {
            for (Vec w : weights) if (w != null) w.close();
        }
    }
}
