package org.tomospark.bench;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.testing.Noise;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;

/**
 * Host preprocessing throughput: flat/dark correction, −log and the repair pass of {@link Preprocessor} on a band of
 * uint16 counts, on every core and on one, lane-parallel and with the scalar loop as the baseline, median of several
 * runs after a warm-up; and the java backend's kernel before and after it in the same JVM. This is the
 * path java and opencl runs, and cuda runs with host-side workflow stages, take.
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
        double before = javaKernelGups();
        for (int threads : new int[]{cores, 1})
            for (Preprocessor p : new Preprocessor[]{pre, pre.scalar()}) {
                ForkJoinPool pool = new ForkJoinPool(threads);
                double[] s = new double[runs];
                pool.submit(() -> p.apply(band, fields, "bench", "bench")).get(); // warm-up
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    pool.submit(() -> p.apply(band, fields, "bench", "bench")).get();
                    s[i] = (System.nanoTime() - t0) / 1e9;
                }
                pool.shutdown();
                Arrays.sort(s);
                System.out.printf(Locale.ROOT, "preprocess %d x %d x %d uint16, %s, on %d threads: median %.3f s, %.2f Gpix/s%n",
                        np, rows, w, p == pre ? "lanes (Vector API)" : "scalar loop (baseline)", threads, s[runs / 2],
                        pixels / s[runs / 2] / 1e9);
            }
        double after = javaKernelGups();
        System.out.printf(Locale.ROOT, "java back-projection after the preprocessing: %.2fx its speed before%n", after / before);
    }

    /**
     * The java backend's back-projection throughput (GU/s), 16 slices of 256² from 256 angles, the best of the passes
     * after three seconds of warm-up: printed before and after the preprocessing in the same JVM, whose vector loops
     * must leave the kernel's speed alone.
     */
    private static double javaKernelGups() {
        int n = 256, slices = 16;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(n).anglesRange(180, n).build();
        SliceBatch batch = new SliceBatch(0, Noise.uniform(slices, n * n, 7), n, n, true);
        float[][] out = new float[slices][n * n];
        double best = 0;
        try (BackprojectionBackend b = Backends.open("java", BackendOptions.defaults())) {
            b.validate(new BackprojectionJob(scan, SliceGeometry.square(n), slices));
            long warm = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < warm) b.process(batch, out);
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                b.process(batch, out);
                best = Math.max(best, (double) slices * n * n * n / (System.nanoTime() - t0));
            }
            System.out.printf(Locale.ROOT, "java back-projection (%s): %.2f GU/s%n", b.deviceDescription(), best);
        }
        return best;
    }
}
