package org.tomospark.executor.iterative;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.backend.cuda.CudaBackendProvider;
import org.tomospark.executor.backend.cuda.CudaProjector;
import org.tomospark.executor.backend.cuda.CudaSolverOps;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.executor.pipeline.VolumeReconstructor;
import org.tomospark.executor.util.ImageErrors;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA Joseph pair (kernels/joseph.cu; skipped without a CUDA device, as in CI): against the double-precision
 * oracle and its own adjoint over the awkward geometries of {@link JosephProjectorTest}, on subsets of the
 * projections, and against the Java pair after iterations of SIRT, CGLS and MLTR.
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
    @ValueSource(strings = {"sirt", "mltr"})
    void thePipelineOnCudaMatchesTheJavaBackend(String algorithm) {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(96, 12, 120));
        IterativeParams it = new IterativeParams(Algorithm.parse(algorithm), 8, algorithm.equals("mltr") ? 4 : 1, 0);
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
}
