package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.backends.cuda.CudaBackendProvider;
import org.tomospark.executor.backends.cuda.CudaProjector;
import org.tomospark.executor.backends.cuda.CudaSolverOps;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.util.ImageErrors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA Joseph pair (kernels/joseph.cu; skipped without a CUDA device, as in CI): against the double-precision
 * oracle and its own adjoint over the awkward geometries of {@link JosephProjectorTest}, on subsets of the
 * projections, and against the Java pair after iterations of SIRT, CGLS and MLTR; the device's vector operations
 * (those of OS-SART and TV too) against the host's, and its gradient and divergence against each other's adjoint.
 */
@Tag("gpu")
class CudaProjectorGpuTest {

    @BeforeAll
    static void needsCuda() {
        String why = new CudaBackendProvider().unavailableReason();
        assumeTrue(why == null, "no CUDA device: " + why);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.tomospark.executor.iterative.JosephProjectorTest#cases")
    void matchesTheOracleAndIsItsOwnAdjoint(JosephProjectorTest.Case c) {
        try (CudaProjector a = new CudaProjector(c.scan(), c.slice(), c.k(), "")) {
            JosephProjectorTest.checkAgainstOracle(c, a);
        }
    }

    /**
     * A subset of the projections: only its sinogram rows are written (forward) and read (adjoint); with k = 4 and 8
     * the grouped kernels, whose first group straddles 45 degrees and whose last is partial.
     */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {3, 4, 8})
    void subsetsTouchOnlyTheirRows(int k) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(37).anglesRange(180, 24).centerOfRotation(18.3).build();
        SliceGeometry slice = SliceGeometry.square(33);
        int nb = scan.numProjections() * scan.detectorWidth();
        int[] subset = {1, 5, 9, 13, 17, 21};
        Random rnd = new Random(3);
        float[] x = new float[slice.pixels() * k], y = new float[nb * k];
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextFloat();
        for (int i = 0; i < y.length; i++) y[i] = rnd.nextFloat();
        float[] javaAx = new float[nb * k], cudaAx = new float[nb * k], javaAty = new float[x.length], cudaAty = new float[x.length];
        Arrays.fill(cudaAx, -7f);
        Arrays.fill(javaAx, -7f);
        JosephProjector j = new JosephProjector(scan, slice, k);
        j.forward(x, javaAx, subset);
        j.back(y, javaAty, subset);
        try (CudaProjector a = new CudaProjector(scan, slice, k, "0")) {
            a.forward(x, cudaAx, subset);
            a.back(y, cudaAty, subset);
        }
        assertTrue(ImageErrors.relL2(cudaAx, javaAx) < 1e-6, "forward on a subset against Java");
        assertTrue(ImageErrors.relL2(cudaAty, javaAty) < 1e-6, "adjoint on a subset against Java");
        int row = nb / scan.numProjections() * k;
        for (int p = 0; p < scan.numProjections(); p++) {
            if (Arrays.binarySearch(subset, p) >= 0) continue;
            for (int i = p * row; i < (p + 1) * row; i++)
                assertEquals(-7f, cudaAx[i], "projection " + p + " is not in the subset and stays untouched");
        }
    }

    /** The host-array pair under the Java solvers, and the device-resident solvers, against the Java pair. */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {8, 3, 12})
    void agreesWithTheJavaPairAfterIterations(int k) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(64).anglesRange(180, 90).centerOfRotation(31.7).build();
        SliceGeometry slice = SliceGeometry.square(64);
        JosephProjectorTest.checkIterationsAgainstJava("CUDA pair, host vectors", scan, slice, k, 6,
                (sc, sl, kk) -> HostOps.owning(new CudaProjector(sc, sl, kk, "")));
        JosephProjectorTest.checkIterationsAgainstJava("CUDA solver on the device", scan, slice, k, 6,
                (sc, sl, kk) -> new CudaSolverOps(sc, sl, kk, ""));
    }

    /**
     * The product's path on the cuda backend (the pipeline's slice-group step, its default pass width and its device
     * solver, the ROI cut out of the result) against the java backend's, for SIRT and MLTR on the demo scan.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sirt", "mltr", "os-sart", "tv"})
    void thePipelineOnCudaMatchesTheJavaBackend(String algorithm) {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(96, 12, 120));
        Algorithm a = Algorithm.parse(algorithm);
        IterativeParams it = new IterativeParams(a, 8, a.hasSubsets() ? 4 : 1, 0);
        float[][] java = new float[12][], cuda = new float[12][];
        for (String backend : new String[]{"java", "cuda"}) {
            float[][] out = backend.equals("java") ? java : cuda;
            ReconstructionParams p = ReconstructionParams.builder().backend(backend).iterative(it).build();
            VolumeReconstructor.Summary s = VolumeReconstructor.run(d.asSource(), p, (row, px, w, h) -> out[row] = px.toArray(),
                    null, null);
            assertEquals(8, s.convergence().iterations(), backend + ": iterations in the report");
        }
        for (int r = 0; r < 12; r++)
            assertTrue(ImageErrors.relL2(cuda[r], java[r]) < 1e-4, algorithm + ", slice " + r + ": " + ImageErrors.relL2(cuda[r], java[r]));
    }

    /** A non-square grid larger than the detector, off-centre, 360 degrees: the device solver against Java. */
    @Test
    void deviceSolverOnAnAwkwardGeometry() {
        ScanGeometry scan = JosephProjectorTest.scan(37, 50, 360, 15.3, true);
        JosephProjectorTest.checkIterationsAgainstJava("CUDA solver on the device", scan, SliceGeometry.full(41, 29), 4, 5,
                (sc, sl, kk) -> new CudaSolverOps(sc, sl, kk, ""));
    }

    /**
     * The device ops one by one against the host ops on the same vectors: every element-wise update, the reductions
     * and a subset's likelihood terms, with guards kept zero (a later projection would read them).
     */
    @Test
    void deviceOpsMatchTheHostOps() {
        ScanGeometry scan = JosephProjectorTest.scan(21, 16, 180, 9.7, false);
        SliceGeometry slice = SliceGeometry.full(19, 23);
        int k = 3;
        Random rnd = new Random(5);
        try (SolverOps dev = new CudaSolverOps(scan, slice, k, ""); HostOps host = HostOps.over(new JosephProjector(scan, slice, k))) {
            OpsPair ops = new OpsPair(dev, host, rnd);
            ops.compareAll();
        }
    }

    /**
     * The operations of OS-SART and TV one by one against the host ops, on random vectors of a non-square grid: weight
     * images, the weighted update, a subset's residual, the offset reciprocal and the three primal–dual steps; then
     * projections of what they wrote, which read the guards of the device's layout (an update that wrote them shows).
     */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {3, 8})
    void solverStepsMatchTheHostOps(int k) {
        ScanGeometry scan = JosephProjectorTest.scan(21, 16, 180, 9.7, false);
        SliceGeometry slice = SliceGeometry.full(19, 23);
        Random rnd = new Random(11 + k);
        try (SolverOps dev = new CudaSolverOps(scan, slice, k, ""); HostOps host = HostOps.over(new JosephProjector(scan, slice, k))) {
            Twins t = new Twins(dev, host, rnd);
            int[] all = host.allAngles(), subset = {0, 3, 6, 9, 12, 15};
            float[] lambda = new float[k];
            for (int s = 0; s < k; s++) lambda[s] = s == 0 ? 0f : 0.05f + 0.3f * rnd.nextFloat();
            try (Twin x = t.image(-1, 1); Twin c = t.image(0, 2); Twin u = t.image(-1, 1); Twin w = t.weights();
                 Twin p = t.sino(0, 3); Twin y = t.sino(0, 3); Twin r = t.sino(0, 2); Twin q = t.sino(-1, 1);
                 Twin sigma = t.sino(0, 2); Twin xbar = t.image(0, 1); Twin zx = t.image(-0.3f, 0.3f); Twin zy = t.image(-0.3f, 0.3f);
                 Twin tau = t.image(0, 0.5f); Twin img = t.image(0, 1)) {
                assertArrayEquals(new float[w.len], w.device(), "a new weight image is zero");
                dev.firstSlice(c.d, w.d);
                host.firstSlice(c.h, w.h);
                w.check("first slice", 0);
                dev.weightedUpdate(x.d, w.d, u.d, false);
                host.weightedUpdate(x.h, w.h, u.h, false);
                x.check("weighted update", 1e-7);
                dev.weightedUpdate(x.d, w.d, u.d, true);
                host.weightedUpdate(x.h, w.h, u.h, true);
                x.check("weighted update, non-negative", 1e-7);

                double[] again;
                try (Vec y2 = dev.sinogram()) {
                    dev.copy(y.d, y2);
                    again = dev.subsetResidual(p.d, y2, r.d, subset);
                }
                double[] rd = dev.subsetResidual(p.d, y.d, r.d, subset), rh = host.subsetResidual(p.h, y.h, r.h, subset);
                for (int s = 0; s < rh.length; s++) assertEquals(rh[s], rd[s], 1e-9 * rh[s], "subset residual Σ d² of slice " + s);
                assertArrayEquals(again, rd, "the subset residual repeats bit for bit");
                y.check("subset residual: y ← (p − y)·r on the subset's rows, the others untouched", 1e-7);

                // a positive offset would make the zero guards 1/offset, a negative one leaves zeros in the real elements
                dev.offsetReciprocal(c.d, 0.5f);
                host.offsetReciprocal(c.h, 0.5f);
                c.check("offset reciprocal of an image", 1e-7);
                for (float offset : new float[]{0.25f, -1f}) {
                    dev.offsetReciprocal(r.d, offset);
                    host.offsetReciprocal(r.h, offset);
                    r.check("offset reciprocal of a sinogram, offset " + offset, 1e-7);
                }

                dev.dataDual(q.d, y.d, p.d, sigma.d);
                host.dataDual(q.h, y.h, p.h, sigma.h);
                q.check("data dual step", 1e-7);

                dev.tvDual(zx.d, zy.d, xbar.d, 0.5f, lambda);
                host.tvDual(zx.h, zy.h, xbar.h, 0.5f, lambda);
                zx.check("TV dual step, zx", 1e-7);
                zy.check("TV dual step, zy", 1e-7);
                for (boolean nonNegative : new boolean[]{false, true}) {
                    dev.tvPrimal(x.d, xbar.d, u.d, zx.d, zy.d, tau.d, nonNegative);
                    host.tvPrimal(x.h, xbar.h, u.h, zx.h, zy.h, tau.h, nonNegative);
                    x.check("TV primal step, x, nonNegative=" + nonNegative, 1e-7);
                    xbar.check("TV primal step, x̄, nonNegative=" + nonNegative, 1e-7);
                }

                // projections of every vector written above: the device's guards must still be zero
                for (Twin image : new Twin[]{x, xbar, zx, zy, c}) {
                    dev.forward(image.d, y.d, all);
                    host.forward(image.h, y.h, all);
                    y.check("forward projection after the steps", 1e-6);
                }
                for (Twin sino : new Twin[]{q, r, p}) {
                    dev.back(sino.d, img.d, all);
                    host.back(sino.h, img.h, all);
                    img.check("back-projection after the steps", 1e-6);
                }
            }
        }
    }

    /**
     * The device's gradient and divergence: ∇x from the dual step (σ = 1, z = 0, a radius no gradient reaches) and
     * div z from the primal step (x = 0, u = 0, τ = 1: x' = div z); each against {@link TotalVariation}, and the pair
     * against its adjoint identity ⟨∇x, z⟩ = −⟨x, div z⟩.
     */
    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {3, 8})
    void gradientAndDivergenceAreAdjoint(int k) {
        ScanGeometry scan = JosephProjectorTest.scan(21, 16, 180, 9.7, false);
        SliceGeometry slice = SliceGeometry.full(19, 23);
        Random rnd = new Random(17 + k);
        try (SolverOps dev = new CudaSolverOps(scan, slice, k, "")) {
            Projector.Shape sh = dev.shape();
            int rows = sh.rows(), cols = sh.cols(), n = rows * cols * k;
            float[] x = random(n, rnd, 0, 1), zx = random(n, rnd, -1, 1), zy = random(n, rnd, -1, 1);
            float[] huge = new float[k];
            Arrays.fill(huge, 1e30f);
            float[] gx = new float[n], gy = new float[n], div = new float[n];
            try (Vec xd = dev.image(); Vec gxd = dev.image(); Vec gyd = dev.image()) {
                dev.upload(x, xd);
                dev.tvDual(gxd, gyd, xd, 1f, huge);
                dev.download(gxd, gx);
                dev.download(gyd, gy);
            }
            try (Vec xd = dev.image(); Vec xbar = dev.image(); Vec u = dev.image(); Vec zxd = dev.image(); Vec zyd = dev.image();
                 Vec tau = dev.image()) {
                dev.upload(zx, zxd);
                dev.upload(zy, zyd);
                dev.fill(tau, 1f);
                dev.tvPrimal(xd, xbar, u, zxd, zyd, tau, false);
                dev.download(xd, div);
            }
            float[] gxRef = new float[n], gyRef = new float[n], divRef = new float[n];
            TotalVariation.gradient(x, gxRef, gyRef, rows, cols, k);
            TotalVariation.divergence(zx, zy, divRef, rows, cols, k);
            assertTrue(ImageErrors.relL2(gx, gxRef) <= 1e-6, "gx against TotalVariation.gradient: " + ImageErrors.relL2(gx, gxRef));
            assertTrue(ImageErrors.relL2(gy, gyRef) <= 1e-6, "gy against TotalVariation.gradient: " + ImageErrors.relL2(gy, gyRef));
            assertTrue(ImageErrors.relL2(div, divRef) <= 1e-6, "div against TotalVariation.divergence: " + ImageErrors.relL2(div, divRef));
            double gz = 0, xdiv = 0;
            for (int i = 0; i < n; i++) {
                gz += (double) gx[i] * zx[i] + (double) gy[i] * zy[i];
                xdiv += (double) x[i] * div[i];
            }
            assertTrue(Math.abs(gz + xdiv) <= 1e-5 * Math.max(Math.abs(gz), Math.abs(xdiv)),
                    "<grad x, z> = " + gz + " against -<x, div z> = " + -xdiv);
        }
    }

    private static float[] random(int n, Random rnd, float lo, float hi) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = lo + (hi - lo) * rnd.nextFloat();
        return v;
    }

    /** Vectors of the same kind and random content made by a device's ops and the host's. */
    private record Twins(SolverOps dev, SolverOps host, Random rnd) {
        Twin image(float lo, float hi) {
            return random(dev.image(), host.image(), hostLength(true), lo, hi);
        }

        Twin sino(float lo, float hi) {
            return random(dev.sinogram(), host.sinogram(), hostLength(false), lo, hi);
        }

        /** A weight image on both sides, zero as made. */
        Twin weights() {
            Projector.Shape s = host.shape();
            return new Twin(dev, host, dev.weights(), host.weights(), s.rows() * s.cols());
        }

        private int hostLength(boolean image) {
            Projector.Shape s = host.shape();
            return (image ? s.rows() * s.cols() : s.projections() * s.width()) * s.k();
        }

        private Twin random(Vec d, Vec h, int len, float lo, float hi) {
            float[] v = CudaProjectorGpuTest.random(len, rnd, lo, hi);
            dev.upload(v, d);
            host.upload(v, h);
            return new Twin(dev, host, d, h, len);
        }
    }

    /** One vector on the device and its twin on the host. */
    private record Twin(SolverOps dev, SolverOps host, Vec d, Vec h, int len) implements AutoCloseable {
        float[] device() {
            float[] a = new float[len];
            dev.download(d, a);
            return a;
        }

        void check(String what, double tolerance) {
            float[] b = new float[len];
            host.download(h, b);
            double e = ImageErrors.relL2(device(), b);
            assertTrue(e <= tolerance, what + ": device against host, relative L2 " + e);
        }

        @Override
        public void close() {
            d.close();
            h.close();
        }
    }
}
