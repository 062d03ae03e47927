package org.tomospark.executor.iterative;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Ordered subsets of the projections: subset m holds projections m, m+S, m+2S, …, so that each subset spans the whole
 * angular range; they are visited in bit-reversed order of m, so that consecutive subsets lie far apart in angle.
 */
public record Subsets(List<int[]> angles) {
    /** The fewest projections one subset may hold. */
    public static final int MIN_PER_SUBSET = 4;

    public Subsets {
        angles = List.copyOf(angles);
    }

    /** {@code count} subsets of {@code n} projections; one subset is every projection in order. */
    public static Subsets of(int n, int count) {
        if (count < 1 || count > n)
            throw new IllegalArgumentException(count + " subsets of " + n + " projections: need 1 to " + n);
        List<int[]> out = new ArrayList<>();
        for (int m : visitOrder(count)) {
            int size = (n - m + count - 1) / count;
            int[] a = new int[size];
            for (int i = 0; i < size; i++) a[i] = m + i * count;
            out.add(a);
        }
        return new Subsets(out);
    }

    /** 0 … count−1 sorted by their bit-reversed value. */
    static int[] visitOrder(int count) {
        int shift = 32 - Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, count - 1)));
        return IntStream.range(0, count).boxed()
                .sorted((a, b) -> Integer.compare(Integer.reverse(a) >>> shift, Integer.reverse(b) >>> shift))
                .mapToInt(Integer::intValue).toArray();
    }

    public int count() {
        return angles.size();
    }
}
