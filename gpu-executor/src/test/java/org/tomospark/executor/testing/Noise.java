package org.tomospark.executor.testing;

import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import java.util.stream.IntStream;

/** Fixed-seed noise sinograms: one flat array of {@code n} bins per slice, drawn slice after slice. */
public final class Noise {
    private Noise() {
    }

    /** Uniform bins in [0, 1). */
    public static float[][] uniform(int slices, int n, long seed) {
        Random r = new Random(seed);
        float[][] s = new float[slices][n];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = r.nextFloat();
        return s;
    }

    /** Uniform bins in [-amp/2, amp/2), with amplitude {@code amp(i)} for slice i. */
    public static float[][] centred(int slices, int n, long seed, IntToDoubleFunction amp) {
        Random r = new Random(seed);
        float[][] s = new float[slices][n];
        for (int i = 0; i < slices; i++) {
            float a = (float) amp.applyAsDouble(i);
            for (int j = 0; j < n; j++) s[i][j] = a * (r.nextFloat() - 0.5f);
        }
        return s;
    }

    /**
     * Uniform bins in [-1, 1): zero mean, so reconstructions are small sums of large terms. Each bin is
     * 2·(u − ½) of the uniform draw u, which equals 2u − 1 exactly in float arithmetic.
     */
    public static float[][] zeroMean(int slices, int n, long seed) {
        return centred(slices, n, seed, i -> 2);
    }

    /**
     * Uniform bins in [-0.5, 0.5), each slice from its own generator (seed + 7919·i), so that large stacks are made in
     * parallel and every slice is the same whatever the number of threads.
     */
    public static float[][] perSlice(int slices, int n, long seed) {
        float[][] s = new float[slices][];
        IntStream.range(0, slices).parallel().forEach(i -> {
            SplittableRandom r = new SplittableRandom(seed + i * 7919L);
            float[] a = new float[n];
            for (int j = 0; j < n; j++) a[j] = (float) (r.nextDouble() - 0.5);
            s[i] = a;
        });
        return s;
    }

    /** Gaussian bins of unit variance around {@code mean}. */
    public static float[][] gaussian(int slices, int n, long seed, double mean) {
        Random r = new Random(seed);
        float[][] s = new float[slices][n];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = (float) (r.nextGaussian() + mean);
        return s;
    }
}
