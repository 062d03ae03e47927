package org.tomospark.bench;

import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;

/**
 * Host preprocessing throughput: flat/dark correction, −log and the repair pass of {@link Preprocessor} on a band of
 * uint16 counts, on every core and on one (the baseline), median of several runs after a warm-up. This is the
 * path java and opencl runs, and cuda runs with host-side workflow stages, take. The sinograms are fresh each call,
 * as in the product.
 *
 * <pre>PreprocessBench [projections rows width runs]   (default 2048 32 2048 5)</pre>
 */
public final class PreprocessBench {
    private PreprocessBench() {
    }

    public static void main(String[] a) throws Exception {
        int np = a.length > 0 ? Integer.parseInt(a[0]) : 2048, rows = a.length > 1 ? Integer.parseInt(a[1]) : 32;
        int w = a.length > 2 ? Integer.parseInt(a[2]) : 2048, runs = a.length > 3 ? Integer.parseInt(a[3]) : 5;
        Random r = new Random(1);
        short[] counts = new short[RawStack.samples(np, rows, w, "bench")];
        for (int i = 0; i < counts.length; i++) counts[i] = (short) (200 + r.nextInt(19000));
        float[] flat = new float[rows * w], dark = new float[rows * w];
        Arrays.fill(flat, 20100);
        Arrays.fill(dark, 100);
        RawStack band = RawStack.ofUint16(np, rows, w, counts);
        FlatDark fields = new FlatDark(0, rows, w, flat, dark);
        Preprocessor pre = Preprocessor.defaults();
        long pixels = (long) np * rows * w;
        int cores = Runtime.getRuntime().availableProcessors();
        for (int threads : new int[]{cores, 1}) {
            ForkJoinPool pool = new ForkJoinPool(threads);
            double[] s = new double[runs];
            pool.submit(() -> pre.apply(band, fields, "bench", "bench")).get(); // warm-up
            for (int i = 0; i < runs; i++) {
                long t0 = System.nanoTime();
                pool.submit(() -> pre.apply(band, fields, "bench", "bench")).get();
                s[i] = (System.nanoTime() - t0) / 1e9;
            }
            pool.shutdown();
            Arrays.sort(s);
            System.out.printf(Locale.ROOT, "preprocess %d x %d x %d uint16 on %d threads: median %.3f s, %.2f Gpix/s%n",
                    np, rows, w, threads, s[runs / 2], pixels / s[runs / 2] / 1e9);
        }
    }
}
