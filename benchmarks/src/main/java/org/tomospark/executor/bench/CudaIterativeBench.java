package org.tomospark.executor.bench;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.backends.cuda.CudaProjector;
import org.tomospark.executor.backends.cuda.CudaSolverOps;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.Cgls;
import org.tomospark.executor.iterative.HostOps;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.Measurements;
import org.tomospark.executor.iterative.Mltr;
import org.tomospark.executor.iterative.OsSart;
import org.tomospark.executor.iterative.Sirt;
import org.tomospark.executor.iterative.Solver;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.iterative.TvPrimalDual;
import org.tomospark.executor.iterative.TvWeight;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * The iterative methods on CUDA for one slice group: {@code size}² pixels, {@code size} projections of {@code size}
 * columns, {@code slices} slices interleaved in one pass. Prints, best of {@code reps} after a warm-up:
 * <ul>
 *   <li>the forward projection and the adjoint, kernels alone (data on the device), with 32 slices a pass and one;</li>
 *   <li>one iteration of SIRT, CGLS, MLTR (8 subsets), OS-SART (its automatic subsets) and TV with every
 *       vector on the device ({@link CudaSolverOps}): the
 *       difference between 1 + reps iterations and 1, divided by reps, so that the upload, the solver's set-up and
 *       the download are not in it;</li>
 *   <li>SIRT with the projector pair on host arrays (each projection crosses the bus twice) for comparison;</li>
 *   <li>the CUDA backend's filtered back-projection of the same slices.</li>
 * </ul>
 * GU/s counts slices × size² × projections per projection; an iteration is quoted both per N (one forward and one
 * adjoint counted as one) and per 2N (the updates of both counted).
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
        float[] x = new float[n * n * slices], sino = new float[n * n * slices], blank = new float[n * slices];
        for (int i = 0; i < x.length; i++) x[i] = 0.01f * r.nextFloat();
        Arrays.fill(blank, 1000f);
        try (CudaSolverOps ops = new CudaSolverOps(scan, slice, slices, "")) {
            System.out.println("kernels: " + ops.kernels());
            int[] all = ops.allAngles();
            try (Vec img = ops.image(); Vec s = ops.sinogram()) {
                ops.upload(x, img);
                double fwd = best(reps, () -> ops.forward(img, s, all), ops::lastKernelSeconds);
                double back = best(reps, () -> ops.back(s, img, all), ops::lastKernelSeconds);
                report("forward projection, kernel, " + slices + " slices a pass", fwd, updates);
                report("adjoint, kernel, " + slices + " slices a pass", back, updates);
                report("  forward + adjoint kernels (2N per s)", fwd + back, 2 * updates);
                ops.download(s, sino);
                try (Vec p = ops.sinogram(); Vec y = ops.sinogram(); Vec w = ops.sinogram(); Vec c = ops.image(); Vec u = ops.image()) {
                    ops.copy(s, p);
                    ops.copy(s, y);
                    ops.fill(w, 0.5f);
                    ops.fill(c, 0.5f);
                    double res = best(reps, () -> ops.weightedResidual(p, y, w), null);
                    double upd = best(reps, () -> ops.scaledUpdate(img, c, u, true), null);
                    double dist = best(reps, () -> ops.distanceSquared(p, y), null);
                    System.out.printf(Locale.ROOT, "SIRT's vector work per iteration: weighted residual %.2f ms, update %.2f ms, "
                            + "residual norm %.2f ms%n", res * 1e3, upd * 1e3, dist * 1e3);
                }
            }
            Measurements m = new Measurements(sino, blank);
            float[] img = new float[x.length];
            sirtSteps(ops, sino, reps);
            // OS-SART with its automatic subsets, and with √projections of them
            int osSubsets = IterativeParams.automaticSubsets(Algorithm.OS_SART, n), rootSubsets = (int) Math.round(Math.sqrt(n));
            Solver[] solvers = {new Sirt(true), new Cgls(), new Mltr(8), new OsSart(osSubsets, 1.0), new OsSart(rootSubsets, 1.0),
                new TvPrimalDual(TvWeight.of(0.01))};
            String[] names = {"SIRT", "CGLS", "MLTR (8 subsets)", "OS-SART (" + osSubsets + " subsets)", "OS-SART (" + rootSubsets
                    + " subsets)", "TV"};
            for (int i = 0; i < solvers.length; i++) {
                Solver solver = solvers[i];
                double it = iteration(solver, ops, m, img, reps);
                String name = names[i];
                report(name + " iteration on the device, per N", it, updates);
                report(name + " iteration on the device, per 2N", it, 2 * updates);
            }
        }
        if (slices > 8 && slices % 8 == 0) {
            // the same slices as passes of 8
            float[] x8 = Arrays.copyOf(x, n * n * 8), s8 = new float[n * n * 8], b8 = Arrays.copyOf(blank, n * 8);
            try (CudaSolverOps ops8 = new CudaSolverOps(scan, slice, 8, "")) {
                try (Vec img = ops8.image(); Vec s = ops8.sinogram()) {
                    ops8.upload(x8, img);
                    ops8.forward(img, s, ops8.allAngles());
                    ops8.download(s, s8);
                }
                double it = iteration(new Sirt(true), ops8, new Measurements(s8, b8), x8, reps) * (slices / 8);
                report("SIRT iteration on the device, passes of 8 slices (x" + slices / 8 + "), per N", it, updates);
            }
        }
        try (CudaProjector p = new CudaProjector(scan, slice, slices, "")) {
            float[] img = new float[x.length];
            double it = iteration(new Sirt(true), HostOps.over(p), new Measurements(sino, null), img, reps);
            report("SIRT iteration, pair on host arrays (transfers), per N", it, updates);
        }
        try (CudaSolverOps one = new CudaSolverOps(scan, slice, 1, "")) {
            int[] all = one.allAngles();
            try (Vec img = one.image(); Vec s = one.sinogram()) {
                double fwd = best(reps, () -> one.forward(img, s, all), one::lastKernelSeconds) * slices;
                double back = best(reps, () -> one.back(s, img, all), one::lastKernelSeconds) * slices;
                report("forward, kernel, one slice a pass (x" + slices + ")", fwd, updates);
                report("adjoint, kernel, one slice a pass (x" + slices + ")", back, updates);
            }
        }
        float[][] sinos = new float[slices][n * n], out = new float[slices][n * n];
        for (float[] s : sinos) for (int i = 0; i < s.length; i++) s[i] = r.nextFloat();
        try (BackprojectionBackend b = Backends.open("cuda", BackendOptions.defaults())) {
            b.validate(new BackprojectionJob(scan, slice, slices, FilterSpec.of(FilterWindow.SHEPP_LOGAN)));
            double fbp = best(reps, () -> b.process(new SliceBatch(0, sinos, n, n, false), out), null);
            report("FBP back-projection (cuda backend, filter and transfers included)", fbp, updates);
        }
    }

    /** A SIRT iteration's calls one by one, each timed to its completion, best of reps. */
    private static void sirtSteps(CudaSolverOps ops, float[] sino, int reps) {
        int[] all = ops.allAngles();
        double[] best = new double[5];
        Arrays.fill(best, Double.MAX_VALUE);
        try (Vec p = ops.sinogram(); Vec x = ops.image(); Vec r = ops.sinogram(); Vec c = ops.image(); Vec res = ops.sinogram();
             Vec upd = ops.image()) {
            ops.upload(sino, p);
            ops.fill(r, 1e-3f);
            ops.fill(c, 1e-3f);
            ops.forward(x, res, all);
            for (int it = 0; it <= reps; it++) {
                long t0 = System.nanoTime();
                ops.weightedResidual(p, res, r);
                long t1 = System.nanoTime();
                ops.back(res, upd, all);
                long t2 = System.nanoTime();
                ops.scaledUpdate(x, c, upd, true);
                long t3 = System.nanoTime();
                ops.forward(x, res, all);
                long t4 = System.nanoTime();
                ops.distanceSquared(p, res);
                long t5 = System.nanoTime();
                long[] t = {t0, t1, t2, t3, t4, t5};
                if (it > 0) for (int i = 0; i < 5; i++) best[i] = Math.min(best[i], (t[i + 1] - t[i]) / 1e9);
            }
        }
        System.out.printf(Locale.ROOT, "SIRT iteration step by step (wall, ms): residual %.2f, adjoint %.2f, update %.2f, forward %.2f,"
                + " norm %.2f; sum %.2f%n", best[0] * 1e3, best[1] * 1e3, best[2] * 1e3, best[3] * 1e3, best[4] * 1e3,
                Arrays.stream(best).sum() * 1e3);
    }

    /** Seconds of one iteration: (1 + reps iterations − 1 iteration) / reps. */
    private static double iteration(Solver solver, SolverOps ops, Measurements m, float[] img, int reps) {
        Arrays.fill(img, 0f);
        solver.solve(ops, m, img, StopRule.after(1));  // warm-up
        Arrays.fill(img, 0f);
        long t0 = System.nanoTime();
        solver.solve(ops, m, img, StopRule.after(1));
        long t1 = System.nanoTime();
        Arrays.fill(img, 0f);
        solver.solve(ops, m, img, StopRule.after(1 + reps));
        long t2 = System.nanoTime();
        return ((t2 - t1) - (t1 - t0)) / 1e9 / reps;
    }

    interface Timer {
        double seconds();
    }

    /** Best of reps after one warm-up: the timer's reading (a kernel's own time) when given, else the wall clock. */
    private static double best(int reps, Runnable body, Timer timer) {
        body.run();
        double best = Double.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            body.run();
            best = Math.min(best, timer != null ? timer.seconds() : (System.nanoTime() - t0) / 1e9);
        }
        return best;
    }

    private static void report(String what, double seconds, double updates) {
        System.out.printf(Locale.ROOT, "%-66s %8.4f s  %8.1f GU/s%n", what, seconds, updates / seconds / 1e9);
    }
}
