package org.tomospark.executor.util;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Selection gives the element a full sort puts at each rank, and leaves the array partitioned around it. */
class OrderStatisticsTest {

    static Stream<Arguments> arrays() {
        return Stream.of(1, 2, 3, 7, 64, 1000, 4097).flatMap(n -> Stream.of("uniform", "fewValues", "sorted", "reversed",
                "constant", "signedZeros").map(kind -> Arguments.of(n, kind)));
    }

    private static float[] make(int n, String kind, long seed) {
        Random r = new Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = switch (kind) {
                case "uniform" -> (float) r.nextGaussian();
                case "fewValues" -> r.nextInt(3) - 1; // a reconstruction's zeros outside its circle, and little else
                case "sorted" -> i;
                case "reversed" -> n - i;
                case "constant" -> 2.5f;
                default -> r.nextBoolean() ? 0f : -0f;
            };
        }
        return a;
    }

    @ParameterizedTest(name = "{0} values, {1}")
    @MethodSource("arrays")
    void everyRankIsTheSortedArraysElement(int n, String kind) {
        float[] sorted = make(n, kind, n);
        Arrays.sort(sorted);
        int[] ranks = n <= 64 ? IntStream.range(0, n).toArray() : new int[]{0, 1, n / 200, n / 2, n - 1 - n / 200, n - 2, n - 1};
        for (int k : ranks) {
            float[] a = make(n, kind, n);
            float v = OrderStatistics.select(a, 0, n, k);
            assertEquals(Float.floatToIntBits(sorted[k]), Float.floatToIntBits(v), "rank " + k);
            assertEquals(Float.floatToIntBits(v), Float.floatToIntBits(a[k]));
            for (int i = 0; i < n; i++) {
                int c = Float.compare(a[i], v);
                assertTrue(i < k ? c <= 0 : i > k ? c >= 0 : c == 0, "not partitioned at " + i + " around rank " + k);
            }
            // the same multiset of values
            float[] back = a.clone();
            Arrays.sort(back);
            assertEquals(Arrays.toString(sorted), Arrays.toString(back));
        }
    }

    @ParameterizedTest(name = "{0} values, {1}")
    @MethodSource("arrays")
    void aSecondRankFromTheFirstOnIsTheSortedArraysElement(int n, String kind) {
        float[] sorted = make(n, kind, 7 * n);
        Arrays.sort(sorted);
        int first = n / 200, second = n - 1 - n / 200;
        float[] a = make(n, kind, 7 * n);
        OrderStatistics.select(a, 0, n, first);
        assertEquals(Float.floatToIntBits(sorted[second]), Float.floatToIntBits(OrderStatistics.select(a, first, n, second)));
    }

    @Test
    void aRankOutsideTheRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.select(new float[4], 0, 4, 4));
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.select(new float[4], 2, 4, 1));
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.select(new float[4], 0, 0, 0));
    }
}
