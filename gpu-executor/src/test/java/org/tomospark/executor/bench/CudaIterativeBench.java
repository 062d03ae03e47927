package org.tomospark.executor.bench;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backend.cuda.CudaProjector;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Measurements;
import org.tomospark.executor.iterative.Sirt;
import org.tomospark.executor.iterative.StopRule;

import java.util.Locale;
import java.util.Random;

/**
 * The CUDA projector pair of the iterative methods on one slice group: {@code size}² pixels, {@code size} projections
 * of {@code size} columns, {@code slices} slices interleaved in one pass. Prints, best of {@code reps}: the forward
 * projection, the adjoint, one SIRT iteration (both, plus the solver's vector updates on the host), each as seconds
 * and GU/s (slices × size² × projections / s: a forward plus an adjoint per iteration count once); one slice per pass
 * for comparison (one pass, times the slices); and the CUDA backend's filtered back-projection of the same slices.
 * Each projector call includes its host-device transfers; the kernels alone are printed too.
 *
 * <pre>CudaIterativeBench [size slices reps]   (default 2048 32 3)</pre>
 */
public final class CudaIterativeBench {
    private CudaIterativeBench() {
    }

    public static void main(String[] a) throws Exception {
        int n = a.length > 0 ? Integer.parseInt(a[0]) : 2048, slices = a.length > 1 ? Integer.parseInt(a[1]) : 32;
        int reps = a.length > 2 ? Integer.parseInt(a[2]) : 3;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(n).anglesRange(180, n).centerOfRotation((n - 1) / 2.0).build();
        SliceGeometry slice = SliceGeometry.square(n);
        double updates = (double) slices * n * n * n;
        Random r = new Random(1);
        float[] x = new float[n * n * slices], sino = new float[n * n * slices];
        for (int i = 0; i < x.length; i++) x[i] = r.nextFloat();
        try (CudaProjector p = new CudaProjector(scan, slice, slices, "")) {
            int[] all = p.allAngles();
            double[] kernel = {Double.MAX_VALUE, Double.MAX_VALUE};
            double fwd = best(reps, () -> {
                p.forward(x, sino, all);
                kernel[0] = Math.min(kernel[0], p.lastKernelSeconds());
            });
            double back = best(reps, () -> {
                p.back(sino, x, all);
                kernel[1] = Math.min(kernel[1], p.lastKernelSeconds());
            });
            report("forward projection, " + slices + " slices a pass", fwd, updates);
            report("  its kernel alone", kernel[0], updates);
            for (int group : new int[]{4, 0}) {
                if (group != 0 && slices % group != 0) continue;
                String how = group == 0 ? "one projection (row) a thread" : group + " slices and " + (32 / group)
                        + " projections (rows) a thread";
                try (CudaProjector single = new CudaProjector(scan, slice, slices, "", group)) {
                    double[] k1 = {Double.MAX_VALUE};
                    double t = best(reps, () -> {
                        single.forward(x, sino, all);
                        k1[0] = Math.min(k1[0], single.lastKernelSeconds());
                    });
                    report("forward projection, " + how, t, updates);
                    report("  its kernel alone", k1[0], updates);
                    k1[0] = Double.MAX_VALUE;
                    double b = best(reps, () -> {
                        single.back(sino, x, all);
                        k1[0] = Math.min(k1[0], single.lastKernelSeconds());
                    });
                    report("adjoint, " + how, b, updates);
                    report("  its kernel alone", k1[0], updates);
                }
            }
            report("adjoint (back-projection), " + slices + " slices a pass", back, updates);
            report("  its kernel alone", kernel[1], updates);
            float[] img = new float[x.length];
            Measurements m = new Measurements(sino, null);
            // the solver's setup (row and column sums, the first residual) is three projections: time 1 and 1 + reps
            // iterations and take the difference
            double one = best(1, () -> new Sirt(true).solve(p, m, img, new StopRule(1, 0)));
            double more = best(1, () -> new Sirt(true).solve(p, m, img, new StopRule(1 + reps, 0)));
            report("SIRT iteration (forward + adjoint + host updates)", (more - one) / reps, updates);
        }
        float[] x1 = new float[n * n], s1 = new float[n * n];
        try (CudaProjector p = new CudaProjector(scan, slice, 1, "")) {
            int[] all = p.allAngles();
            double fwd = best(reps, () -> p.forward(x1, s1, all)) * slices;
            double back = best(reps, () -> p.back(s1, x1, all)) * slices;
            report("forward projection, one slice a pass (x" + slices + ")", fwd, updates);
            report("adjoint, one slice a pass (x" + slices + ")", back, updates);
        }
        float[][] sinos = new float[slices][n * n], out = new float[slices][n * n];
        for (float[] s : sinos) for (int i = 0; i < s.length; i++) s[i] = r.nextFloat();
        BackendOptions o = BackendOptions.defaults();
        try (BackprojectionBackend b = Backends.open("cuda", o)) {
            b.validate(new BackprojectionJob(scan, slice, slices, FilterSpec.of(FilterWindow.SHEPP_LOGAN)));
            double fbp = best(reps, () -> b.process(new SliceBatch(0, sinos, n, n, false), out));
            report("FBP back-projection (cuda backend, filter included)", fbp, updates);
        }
    }

    private static double best(int reps, Runnable body) {
        body.run();
        double best = Double.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            body.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        return best;
    }

    private static void report(String what, double seconds, double updates) {
        System.out.printf(Locale.ROOT, "%-60s %8.3f s  %8.1f GU/s%n", what, seconds, updates / seconds / 1e9);
    }
}
