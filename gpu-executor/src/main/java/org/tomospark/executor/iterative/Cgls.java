package org.tomospark.executor.iterative;

/**
 * CGLS (conjugate gradients on the normal equations AᵀA·x = Aᵀ·p) on the −log sinograms, with its step lengths
 * computed per slice, so that the slices of a pass converge exactly as they would one at a time. Unconstrained:
 * clipping would break the conjugacy that makes it converge, so negative values are left for the caller to judge.
 */
public final class Cgls implements Solver {
    @Override
    public Convergence solve(Projector a, Measurements data, float[] x, StopRule stop) {
        int k = a.slicesPerPass();
        float[] b = data.lineIntegrals();
        int[] all = a.allAngles();
        float[] r = new float[b.length], q = new float[b.length];
        a.forward(x, r, all);
        for (int i = 0; i < r.length; i++) r[i] = b[i] - r[i];
        float[] s = new float[x.length];
        a.back(r, s, all);
        float[] dir = s.clone();
        double[] gamma = Interleaved.dots(s, s, k);
        Convergence conv = new Convergence(new double[0], Interleaved.sum(Interleaved.dots(b, b, k)));
        for (int it = 0; it < stop.iterations(); it++) {
            a.forward(dir, q, all);
            double[] qq = Interleaved.dots(q, q, k);
            float[] alpha = new float[k];
            for (int j = 0; j < k; j++) alpha[j] = qq[j] > 0 ? (float) (gamma[j] / qq[j]) : 0f;
            Interleaved.forEach(x.length / k, (from, to) -> {
                for (int e = from; e < to; e++)
                    for (int j = 0; j < k; j++) x[e * k + j] += alpha[j] * dir[e * k + j];
            });
            Interleaved.forEach(b.length / k, (from, to) -> {
                for (int e = from; e < to; e++)
                    for (int j = 0; j < k; j++) r[e * k + j] -= alpha[j] * q[e * k + j];
            });
            conv = conv.with(Interleaved.sum(Interleaved.dots(r, r, k)));
            if (stop.reached(conv) || it == stop.iterations() - 1) break;
            a.back(r, s, all);
            double[] next = Interleaved.dots(s, s, k);
            float[] beta = new float[k];
            for (int j = 0; j < k; j++) beta[j] = gamma[j] > 0 ? (float) (next[j] / gamma[j]) : 0f;
            gamma = next;
            Interleaved.forEach(x.length / k, (from, to) -> {
                for (int e = from; e < to; e++)
                    for (int j = 0; j < k; j++) dir[e * k + j] = s[e * k + j] + beta[j] * dir[e * k + j];
            });
        }
        return conv;
    }
}
