package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import jcuda.driver.CUevent;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.IntStream;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

/**
 * FDK back-projection on a CUDA device in RabbitCT's setting: 496 projections of 1248 × 960 pixels of 0.308 mm, DSO
 * 785 mm, DSD 1200 mm, a full circle given as projection matrices, synthetic projections (every pixel a multiple of
 * 1/1024, so that the double-precision reference reads the same values). Cases:
 * <ul>
 *   <li>{@code rabbit512}: into 512³ voxels of 0.5 mm; {@code rabbit1024}: 1024³ of 0.25 mm (4 GiB on the device);</li>
 *   <li>{@code general512}: 512³ from matrices of a tilted, wobbling trajectory (u and w depend on z).</li>
 * </ul>
 * For each kernel ({@code fdk_tsplit} where the device and module have tensor copies): back-projection alone (the
 * band already on the device; constant uploads, the footprint kernel and the launches between two CUDA events), best of
 * {@code reps} after a warm-up; GUPS = voxels × projections / s; the speed-up over the naive kernel of the same run; the
 * relative L2 error against double precision on 256 sampled voxels.
 * {@code rabbit512} also times one whole {@link CudaFdk#backproject} call in each mode (upload, kernels, download, adding
 * into Java arrays).
 *
 * <pre>FdkGpuBenchmark [reps [case,case...]]   (default 3 rabbit512,rabbit1024,general512)</pre>
 */
public final class FdkGpuBenchmark {
    private static final int SAMPLES = 256;

    private FdkGpuBenchmark() {
    }

    public static void main(String[] a) {
        int reps = a.length > 0 ? Integer.parseInt(a[0]) : 3;
        List<String> cases = List.of((a.length > 1 ? a[1] : "rabbit512,rabbit1024,general512").split(","));
        ConeGeometry rabbit = ConeGeometry.builder().dso(785).dsd(1200).pixel(0.308, 0.308).centre(623.5, 479.5).detector(1248, 960)
                .anglesRange(360, 496).build();
        long t0 = System.nanoTime();
        float[][] q = projections(rabbit);
        System.out.printf(Locale.ROOT, "projections: %d x %d x %d synthetic (%.1f s)%n", q.length, rabbit.rows(), rabbit.cols(),
                (System.nanoTime() - t0) / 1e9);
        List<FdkVariant> circular = List.of(FdkVariant.NAIVE, FdkVariant.COLUMNS, FdkVariant.HYBRID,
                FdkVariant.HYBRID_LARGE_TILES, FdkVariant.TENSOR_SPLIT, FdkVariant.TEXTURE);
        for (String c : cases) {
            switch (c) {
                case "rabbit512" -> run("RabbitCT 512^3, matrices (circular)", CudaFdkGpuTest.asMatrices(rabbit),
                        new ConeVolume(512, 512, 0.5), q, reps, circular, true);
                case "rabbit1024" -> run("RabbitCT 1024^3, matrices (circular)", CudaFdkGpuTest.asMatrices(rabbit),
                        new ConeVolume(1024, 1024, 0.25), q, reps, circular, false);
                case "general512" -> run("RabbitCT detector 512^3, general matrices (tilted, wobbling)", CudaFdkGpuTest.tilted(rabbit),
                        new ConeVolume(512, 512, 0.5), q, reps, List.of(FdkVariant.NAIVE, FdkVariant.GENERAL,
                                FdkVariant.GENERAL_TEXTURE), false);
                default -> throw new IllegalArgumentException("unknown case " + c + ": rabbit512, rabbit1024, general512");
            }
        }
    }

    private static void run(String title, ConeGeometry g, ConeVolume vol, float[][] q, int reps, List<FdkVariant> kernels,
                            boolean endToEnd) {
        int n = vol.n(), nz = vol.nz(), rows = g.rows();
        double updates = (double) n * n * nz * g.numProjections();
        int[][] samples = samples(vol);
        double[] reference = new double[SAMPLES];
        IntStream.range(0, SAMPLES).parallel().forEach(s -> reference[s] = reference(g, vol, samples[s]));
        System.out.println("== " + title);
        try (CudaFdk fdk = new CudaFdk(g, vol, rows, nz, "", CudaFdk.Mode.TEXTURE)) {
            long t0 = System.nanoTime();
            fdk.upload(q, 0, rows);
            System.out.printf(Locale.ROOT, "   band upload (and its half-precision pairs and texture): %.0f ms; %s%n",
                    (System.nanoTime() - t0) / 1e6, fdk.description());
            float naive = 0;
            for (FdkVariant v : kernels) {
                if (v == FdkVariant.TENSOR_SPLIT && !fdk.tensorCopies()) {
                    System.out.printf(Locale.ROOT, "   %-24s skipped: no tensor copies on this device or module%n", v.name());
                    continue;
                }
                fdk.clear(nz);
                List<FdkVariant> ran = fdk.launchAll(v, 0, nz, 0, rows);
                double err = error(fdk, samples, reference);
                float best = Float.MAX_VALUE;
                for (int r = 0; r < reps; r++) best = Math.min(best, time(fdk, () -> fdk.launchAll(v, 0, nz, 0, rows)));
                if (v == FdkVariant.NAIVE) naive = best;
                System.out.printf(Locale.ROOT, "   %-24s %9.2f ms %8.1f GUPS  x%5.2f naive  rel. error %.2e%s%n", v.name(), best,
                        updates / best / 1e6, naive / best, err, ran.contains(v) ? "" : "  (ran " + ran + ")");
            }
        }
        if (endToEnd) endToEnd(g, vol, q);
    }

    /** One whole backproject() call in each mode: upload, kernels, download, adding into Java arrays. */
    private static void endToEnd(ConeGeometry g, ConeVolume vol, float[][] q) {
        float[][] out = new float[vol.nz()][vol.pixels()];
        for (CudaFdk.Mode mode : CudaFdk.Mode.values())
            try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), vol.nz(), "", mode)) {
                long t0 = System.nanoTime();
                fdk.backproject(q, 0, g.rows(), 0, out);
                double ms = (System.nanoTime() - t0) / 1e6;
                System.out.printf(Locale.ROOT, "   backproject() of the whole volume, host to host: %.0f ms (%s)%n", ms, fdk.description());
            }
    }

    private static float time(CudaFdk fdk, Runnable r) {
        return fdk.calls().run("timing the kernels", () -> {
            CUevent start = new CUevent(), stop = new CUevent();
            cuEventCreate(start, 0);
            cuEventCreate(stop, 0);
            cuEventRecord(start, null);
            r.run();
            cuEventRecord(stop, null);
            cuEventSynchronize(stop);
            float[] ms = new float[1];
            cuEventElapsedTime(ms, start, stop);
            cuEventDestroy(start);
            cuEventDestroy(stop);
            return ms[0];
        });
    }

    private static double error(CudaFdk fdk, int[][] samples, double[] reference) {
        double e = 0, r = 0;
        for (int s = 0; s < samples.length; s++) {
            double d = fdk.voxel(samples[s][2], samples[s][1], samples[s][0]) - reference[s];
            e += d * d;
            r += reference[s] * reference[s];
        }
        return Math.sqrt(e / r);
    }

    private static int[][] samples(ConeVolume vol) {
        Random rnd = new Random(7);
        int[][] s = new int[SAMPLES][];
        for (int t = 0; t < SAMPLES; t++) s[t] = new int[]{rnd.nextInt(vol.n()), rnd.nextInt(vol.n()), rnd.nextInt(vol.nz())};
        return s;
    }

    /** A synthetic pixel: a ramp pattern and hashed noise, a multiple of 1/1024 (exact in float). */
    static float pixel(int p, int u, int v) {
        int h = p * 73856093 ^ u * 19349663 ^ v * 83492791;
        h ^= h >>> 13;
        h *= 0x5bd1e995;
        h ^= h >>> 15;
        int lin = (u * 13 + v * 7 + p * 29) % 211;
        return (lin * 4 + (h & 255) - 550) / 1024f;
    }

    private static float[][] projections(ConeGeometry g) {
        float[][] q = new float[g.numProjections()][];
        IntStream.range(0, q.length).parallel().forEach(p -> {
            float[] a = new float[g.rows() * g.cols()];
            for (int v = 0; v < g.rows(); v++) for (int u = 0; u < g.cols(); u++) a[v * g.cols() + u] = pixel(p, u, v);
            q[p] = a;
        });
        return q;
    }

    /** Voxel {i, j, k} back-projected in double precision from the synthetic pixels. */
    private static double reference(ConeGeometry g, ConeVolume vol, int[] ijk) {
        double x = vol.x(ijk[0]), y = vol.y(ijk[1]), z = vol.z(ijk[2]), acc = 0;
        for (int p = 0; p < g.numProjections(); p++) {
            double[] m = g.matrix(p).m();
            double w = m[8] * x + m[9] * y + m[10] * z + m[11];
            double u = (m[0] * x + m[1] * y + m[2] * z + m[3]) / w, v = (m[4] * x + m[5] * y + m[6] * z + m[7]) / w;
            if (!(u > -1 && u < g.cols() && v > -1 && v < g.rows())) continue;
            int iu = (int) Math.floor(u), iv = (int) Math.floor(v);
            double fu = u - iu, fv = v - iv;
            double top = (1 - fu) * px(g, p, iu, iv) + fu * px(g, p, iu + 1, iv);
            double bottom = (1 - fu) * px(g, p, iu, iv + 1) + fu * px(g, p, iu + 1, iv + 1);
            acc += ((1 - fv) * top + fv * bottom) / (w * w);
        }
        return acc;
    }

    private static double px(ConeGeometry g, int p, int u, int v) {
        return u < 0 || u >= g.cols() || v < 0 || v >= g.rows() ? 0 : pixel(p, u, v);
    }
}
