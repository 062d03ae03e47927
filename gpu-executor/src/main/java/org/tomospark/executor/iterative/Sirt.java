package org.tomospark.executor.iterative;

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
    public Convergence solve(Projector a, Measurements data, float[] x, StopRule stop) {
        int k = a.slicesPerPass();
        float[] p = data.lineIntegrals();
        int[] all = a.allAngles();
        float[] rowSum = new float[p.length], colSum = new float[x.length];
        a.forward(Interleaved.ones(x.length), rowSum, all);
        a.back(Interleaved.ones(p.length), colSum, all);
        float[] r = Interleaved.reciprocal(rowSum), c = Interleaved.reciprocal(colSum);
        float[] residual = new float[p.length], update = new float[x.length];
        a.forward(x, residual, all);
        double pp = Interleaved.sum(Interleaved.dots(p, p, k));
        Convergence conv = new Convergence(new double[0], pp);
        for (int it = 0; it < stop.iterations(); it++) {
            Interleaved.forEach(p.length, (from, to) -> {
                for (int i = from; i < to; i++) residual[i] = (p[i] - residual[i]) * r[i];
            });
            a.back(residual, update, all);
            Interleaved.forEach(x.length, (from, to) -> {
                for (int i = from; i < to; i++) {
                    float v = x[i] + c[i] * update[i];
                    x[i] = nonNegative && v < 0 ? 0f : v;
                }
            });
            a.forward(x, residual, all);
            conv = conv.with(Interleaved.distanceSquared(p, residual));
            if (stop.reached(conv)) break;
        }
        return conv;
    }
}
