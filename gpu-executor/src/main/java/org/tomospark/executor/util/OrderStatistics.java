package org.tomospark.executor.util;

import java.util.Arrays;

/**
 * The k-th smallest of an array's values without sorting it: a quickselect with three-way partitions (so that many
 * equal values, such as the zeros outside a reconstruction's circle, cost one pass) in expected linear time. Values are
 * ordered as {@link Float#compare} orders them, so the result is exactly the element a full sort would put at k.
 */
public final class OrderStatistics {
    /** Partition rounds after which the rest of the range is sorted instead (a guard against unlucky pivots). */
    private static final int MAX_ROUNDS = 64;

    private OrderStatistics() {
    }

    /**
     * Rearranges {@code a[from, to)} so that {@code a[k]} holds the value a sort would put there, every element before it
     * is not greater and every element after it is not smaller; returns that value.
     */
    public static float select(float[] a, int from, int to, int k) {
        if (from < 0 || to > a.length || from >= to || k < from || k >= to)
            throw new IllegalArgumentException("k=" + k + " outside [" + from + ", " + to + ") of " + a.length + " values");
        int lo = from, hi = to - 1;
        for (int round = 0; lo < hi; round++) {
            if (round == MAX_ROUNDS) {
                Arrays.sort(a, lo, hi + 1);
                return a[k];
            }
            float p = medianOfThree(a[lo], a[(lo + hi) >>> 1], a[hi]);
            // [lo, lt) < p, [lt, i) == p, (gt, hi] > p
            int lt = lo, i = lo, gt = hi;
            while (i <= gt) {
                int c = Float.compare(a[i], p);
                if (c < 0) swap(a, lt++, i++);
                else if (c > 0) swap(a, i, gt--);
                else i++;
            }
            if (k < lt) hi = lt - 1;
            else if (k > gt) lo = gt + 1;
            else return a[k];
        }
        return a[k];
    }

    /** Values at least this many are ranked by {@link #kth} through buckets first. */
    static final int BUCKETED = 1 << 16;

    /**
     * The value a sort of {@code a[0, n)} would put at rank k, leaving the array as it is. A large array is ranked in
     * two passes: a count of its values in 65536 buckets of the float order (the high 16 bits of each value's sortable
     * bits) finds the bucket that holds rank k, and only that bucket's values are selected among. A smaller one is
     * copied and selected directly.
     */
    public static float kth(float[] a, int n, int k) {
        if (n < 1 || n > a.length || k < 0 || k >= n)
            throw new IllegalArgumentException("rank " + k + " outside [0, " + n + ") of " + a.length + " values");
        if (n < BUCKETED) return select(Arrays.copyOf(a, n), 0, n, k);
        int[] counts = new int[1 << 16];
        for (int i = 0; i < n; i++) counts[sortable(a[i]) >>> 16]++;
        int bucket = 0, below = 0;
        while (below + counts[bucket] <= k) below += counts[bucket++];
        float[] in = new float[counts[bucket]];
        int m = 0;
        for (int i = 0; i < n; i++) if (sortable(a[i]) >>> 16 == bucket) in[m++] = a[i];
        return select(in, 0, m, k - below);
    }

    /** The float's bits as an int whose unsigned order is {@link Float#compare}'s order of the floats (NaN aside). */
    static int sortable(float v) {
        int bits = Float.floatToIntBits(v);
        return bits ^ ((bits >> 31) | 0x80000000);
    }

    private static float medianOfThree(float x, float y, float z) {
        if (Float.compare(x, y) > 0) {
            float t = x;
            x = y;
            y = t;
        }
        if (Float.compare(y, z) > 0) y = z;
        return Float.compare(x, y) > 0 ? x : y;
    }

    private static void swap(float[] a, int i, int j) {
        float t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
