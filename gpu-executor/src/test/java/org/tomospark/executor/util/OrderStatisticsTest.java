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

    static Stream<Arguments> largeArrays() {
        return Stream.of(OrderStatistics.BUCKETED - 1, OrderStatistics.BUCKETED, 300_001).flatMap(n -> Stream.of("uniform",
                "fewValues", "sorted", "reversed", "constant", "signedZeros", "wideRange").map(kind -> Arguments.of(n, kind)));
    }

    @ParameterizedTest(name = "{0} values, {1}")
    @MethodSource("largeArrays")
    void rankingThroughBucketsGivesTheSortedArraysElementAndLeavesTheArray(int n, String kind) {
        float[] a = kind.equals("wideRange") ? wideRange(n) : make(n, kind, n);
        float[] before = a.clone(), sorted = a.clone();
        Arrays.sort(sorted);
        for (int k : new int[]{0, 1, n / 200, n / 2, n - 1 - n / 200, n - 2, n - 1})
            assertEquals(Float.floatToIntBits(sorted[k]), Float.floatToIntBits(OrderStatistics.kth(a, n, k)), "rank " + k);
        assertTrue(Arrays.equals(before, a), "kth leaves the array as it was");
    }

    /** Values over many binades and both signs, so that most buckets hold a few values and the ranks cross buckets. */
    private static float[] wideRange(int n) {
        Random r = new Random(n);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = (float) ((r.nextBoolean() ? 1 : -1) * Math.pow(10, r.nextDouble() * 60 - 30));
        return a;
    }

    @Test
    void sortableBitsOrderFloatsAsFloatCompareDoes() {
        float[] v = {Float.NEGATIVE_INFINITY, -Float.MAX_VALUE, -1f, -Float.MIN_VALUE, -0f, 0f, Float.MIN_VALUE, 1f, Float.MAX_VALUE,
                Float.POSITIVE_INFINITY};
        for (int i = 0; i + 1 < v.length; i++)
            assertTrue(Integer.compareUnsigned(OrderStatistics.sortable(v[i]), OrderStatistics.sortable(v[i + 1])) < 0,
                    v[i] + " before " + v[i + 1]);
    }

    @Test
    void aRankOutsideTheValuesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.kth(new float[4], 4, 4));
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.kth(new float[4], 5, 0));
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.kth(new float[4], 0, 0));
    }
}
