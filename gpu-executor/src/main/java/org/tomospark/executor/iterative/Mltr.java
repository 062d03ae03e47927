package org.tomospark.executor.iterative;

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
    public Convergence solve(Projector a, Measurements data, float[] x, StopRule stop) {
        if (!data.hasBlank()) throw new IllegalArgumentException("MLTR needs the unattenuated counts (flats)");
        int k = a.slicesPerPass(), width = a.detectorWidth(), rowLen = width * k;
        float[] p = data.lineIntegrals(), blank = data.blank();
        Subsets order = Subsets.of(a.numProjections(), subsets);
        int[] all = a.allAngles();
        float[] rowSum = new float[p.length];
        a.forward(Interleaved.ones(x.length), rowSum, all);
        float[] counts = new float[p.length];
        Interleaved.forEach(p.length, (from, to) -> {
            for (int i = from; i < to; i++) counts[i] = blank[i % rowLen] * (float) Math.exp(-p[i]);
        });
        float[] line = new float[p.length], num = new float[p.length], den = new float[p.length];
        float[] gNum = new float[x.length], gDen = new float[x.length];
        Convergence conv = new Convergence(new double[0], Interleaved.sum(Interleaved.dots(p, p, k)));
        boolean current = false;
        for (int it = 0; it < stop.iterations(); it++) {
            for (int[] angles : order.angles()) {
                if (!current) a.forward(x, line, angles);
                current = false;
                Interleaved.forEach(angles.length, (from, to) -> {
                    for (int ai = from; ai < to; ai++) {
                        int o = angles[ai] * rowLen;
                        for (int e = 0; e < rowLen; e++) {
                            float expected = blank[e] * (float) Math.exp(-line[o + e]);
                            num[o + e] = expected - counts[o + e];
                            den[o + e] = rowSum[o + e] * expected;
                        }
                    }
                });
                a.back(num, gNum, angles);
                a.back(den, gDen, angles);
                Interleaved.forEach(x.length, (from, to) -> {
                    for (int i = from; i < to; i++) {
                        if (gDen[i] <= 0) continue;
                        float v = x[i] + gNum[i] / gDen[i];
                        x[i] = v < 0 ? 0f : v;
                    }
                });
            }
            a.forward(x, line, all);
            current = subsets == 1;
            conv = conv.with(Interleaved.distanceSquared(p, line));
            if (stop.reached(conv)) break;
        }
        return conv;
    }
}
