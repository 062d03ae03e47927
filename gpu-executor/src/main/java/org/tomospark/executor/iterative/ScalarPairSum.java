package org.tomospark.executor.iterative;

/** {@link PairSum} in plain loops over the k slices. */
final class ScalarPairSum implements PairSum {
    private final int k;

    ScalarPairSum(int k) {
        this.k = k;
    }

    @Override
    public void add(float[] acc, int o, float[] src, int b, float w0, float w1) {
        if (k == 1) {
            acc[o] += w0 * src[b] + w1 * src[b + 1];
            return;
        }
        for (int s = 0; s < k; s++) acc[o + s] += w0 * src[b + s] + w1 * src[b + k + s];
    }

    @Override
    public boolean vector() {
        return false;
    }
}
