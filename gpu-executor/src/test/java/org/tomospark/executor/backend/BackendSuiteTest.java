package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.HostOps;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.JosephProjector;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.util.ImageErrors;

import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The suite every backend passes, run over every provider that can run here (java and the toy one everywhere, OpenCL
 * where a platform is installed, CUDA on a GPU machine): each operation it offers against the Java reference, FBP and
 * SIRT through the pipeline by the backend's id alone, FDK and the projector pair through the provider. A new backend
 * is one package and a line in META-INF/services; this suite then covers it with no other edit.
 */
class BackendSuiteTest {

    static Stream<String> backends() {
        return Backends.providers().stream().filter(p -> p.unavailableReason() == null).map(BackendProvider::id);
    }

    /** The slices of {@code d} by the pipeline, which must have run on backend {@code p.backend()}. */
    private static float[][] reconstruct(DemoDataset d, ReconstructionParams p) {
        float[][] got = new float[d.spec().rows()][];
        VolumeReconstructor.Summary s = VolumeReconstructor.run(d.asSource(), p, (row, px, w, h) -> got[row] = px.toArray(), null, null);
        assertEquals(p.algorithm().backend(), s.backend(), "the backend that ran");
        return got;
    }

    private static DemoDataset scan() {
        return new DemoDataset(DemoDataset.Spec.demo().withSize(64, 3, 90));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void fbpThroughThePipelineEqualsJava(String id) {
        DemoDataset d = scan();
        float[][] ref = reconstruct(d, ReconstructionParams.builder().backend("java").build());
        float[][] got = reconstruct(d, ReconstructionParams.builder().backend(id).build());
        double err = ImageErrors.relL2(got, ref);
        assertTrue(err < 1e-3, id + ": relative L2 " + err);
        assertTrue(ImageErrors.relL2(ref, new float[ref.length][ref[0].length]) > 0.5, "the reference is not empty");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void sirtThroughThePipelineEqualsJava(String id) {
        assumeOffers(id, Operation.PROJECTOR_PAIR);
        DemoDataset d = scan();
        IterativeParams sirt = new IterativeParams(Algorithm.SIRT, 5, 0, 0);
        float[][] ref = reconstruct(d, ReconstructionParams.builder().backend("java").iterative(sirt).build());
        float[][] got = reconstruct(d, ReconstructionParams.builder().backend(id).iterative(sirt).build());
        double err = ImageErrors.relL2(got, ref);
        assertTrue(err < 1e-3, id + ": relative L2 " + err);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void projectorPairEqualsJavasAndIsMatched(String id) {
        assumeOffers(id, Operation.PROJECTOR_PAIR);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(48).anglesRange(180, 60).centerOfRotation(23.25).build();
        SliceGeometry grid = SliceGeometry.square(40);
        int k = 3;
        Random rnd = new Random(7);
        float[] x = new float[grid.pixels() * k], y = new float[scan.numProjections() * scan.detectorWidth() * k];
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextFloat();
        for (int i = 0; i < y.length; i++) y[i] = rnd.nextFloat();
        BackendOptions o = BackendOptions.defaults();
        try (SolverOps ops = Backends.of(id).openSolverOps(scan, grid, k, o);
             SolverOps ref = HostOps.owning(new JosephProjector(scan, grid, k))) {
            float[] ax = apply(ops, x, true), ay = apply(ops, y, false);
            assertTrue(ImageErrors.relL2(ax, apply(ref, x, true)) < 1e-4, id + ": forward");
            assertTrue(ImageErrors.relL2(ay, apply(ref, y, false)) < 1e-4, id + ": back");
            double lhs = dot(ax, y), rhs = dot(x, ay);
            assertEquals(lhs, rhs, 1e-4 * Math.abs(lhs), id + ": <Ax, y> = <x, A'y>");
        }
    }

    /** A·v (forward) or Aᵀ·v on the ops' own vectors, downloaded. */
    private static float[] apply(SolverOps ops, float[] v, boolean forward) {
        Projector.Shape s = ops.shape();
        int images = s.rows() * s.cols() * s.k(), sinos = s.projections() * s.width() * s.k();
        int[] all = new int[s.projections()];
        for (int p = 0; p < all.length; p++) all[p] = p;
        try (SolverOps.Vec image = ops.image(); SolverOps.Vec sino = ops.sinogram()) {
            float[] out = new float[forward ? sinos : images];
            if (forward) {
                ops.upload(v, image);
                ops.forward(image, sino, all);
                ops.download(sino, out);
            } else {
                ops.upload(v, sino);
                ops.back(sino, image, all);
                ops.download(image, out);
            }
            return out;
        }
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += (double) a[i] * b[i];
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void fdkEqualsJava(String id) {
        assumeOffers(id, Operation.FDK);
        ConeGeometry g = ConeGeometry.builder().dso(500).dsd(1000).pixel(0.2, 0.2).centre(23.5, 19.5).detector(48, 40)
                .anglesRange(360, 60).build();
        ConeVolume vol = new ConeVolume(32, 12, 0.1);
        Random rnd = new Random(11);
        float[][] q = new float[g.numProjections()][g.rows() * g.cols()];
        for (float[] p : q) for (int i = 0; i < p.length; i++) p[i] = rnd.nextFloat();
        int first = 2, slices = 8;
        float[][] ref = new float[slices][vol.pixels()], got = new float[slices][vol.pixels()];
        try (ConeBackprojector bp = Backends.of(id).openFdk(g, vol, g.rows(), slices, BackendOptions.defaults());
             ConeBackprojector java = new FdkBackprojector(g, vol)) {
            java.backproject(q, 0, g.rows(), first, ref);
            bp.backproject(q, 0, g.rows(), first, got);
            double err = ImageErrors.relL2(got, ref);
            assertTrue(err < 1e-4, id + " (" + bp.description() + "): relative L2 " + err);
            if (bp.filtersOnDevice()) {
                FdkFilter filter = new FdkFilter(g, FilterSpec.of(FilterWindow.RAMLAK), "/exchange/theta");
                float[][] filtered = new float[q.length][];
                for (int p = 0; p < q.length; p++) {
                    filtered[p] = q[p].clone();
                    filter.apply(p, filtered[p], 0, 0, g.rows());
                }
                float[][] hostFiltered = new float[slices][vol.pixels()], deviceFiltered = new float[slices][vol.pixels()];
                java.backproject(filtered, 0, g.rows(), first, hostFiltered);
                bp.backprojectFiltering(filter, q, 0, g.rows(), first, deviceFiltered);
                double e2 = ImageErrors.relL2(deviceFiltered, hostFiltered);
                assertTrue(e2 < 1e-4, id + ": filtered on the device, relative L2 " + e2);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void everyOfferedOperationIsAccepted(String id) {
        BackendProvider p = Backends.of(id);
        assertTrue(p.operations().contains(Operation.FBP), id + " must offer FBP");
        for (Operation op : p.operations()) assertEquals(p, Backends.offering(p, op, "a test"));
    }

    @Test
    void anOperationNotOfferedIsRefusedNamingTheKey() {
        BackendProvider fbpOnly = new BackendProvider() {
            @Override
            public String id() {
                return "fbponly";
            }

            @Override
            public String unavailableReason() {
                return null;
            }

            @Override
            public BackprojectionBackend create() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int autoPriority() {
                return 0;
            }
        };
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Backends.offering(fbpOnly, Operation.FDK, "geometry=cone"));
        assertEquals("config key backend=fbponly cannot run geometry=cone: backend fbponly does not offer cone-beam FDK "
                + "(it offers filtered back-projection)", refused.getMessage());
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(8).anglesRange(180, 10).centerOfRotation(3.5).build();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> fbpOnly.openSolverOps(scan, SliceGeometry.square(8), 1, BackendOptions.defaults()));
        assertEquals("backend fbponly does not offer the iterative methods' projector pair (it offers filtered back-projection)",
                e.getMessage());
    }

    /** Skips what a backend does not offer. */
    private static void assumeOffers(String id, Operation op) {
        assumeTrue(Backends.of(id).operations().contains(op), id + " does not offer " + op.words());
    }
}
