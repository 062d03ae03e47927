package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.util.ImageErrors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The Java Joseph pair against a double-precision oracle, over awkward sizes, ROIs, centres and angle sets. */
class JosephProjectorTest {

    record Case(String name, ScanGeometry scan, SliceGeometry slice, int k) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                new Case("square 16, 180deg x 12, k=1", scan(16, 12, 180, Double.NaN, false), SliceGeometry.square(16), 1),
                new Case("odd 17, 45-degree steps, k=3", ScanGeometry.builder().detectorWidth(17)
                        .anglesDeg(new double[]{0, 45, 90, 135, 180, 225, 270, 315}).build(), SliceGeometry.square(17), 3),
                new Case("wide detector 23, slice 14x9, centre 12.37, k=4", scan(23, 31, 180, 12.37, false),
                        SliceGeometry.full(14, 9), 4),
                new Case("ROI 7x5 at (3,6) of 20x18, off-centre 8.6, k=2", scan(20, 19, 360, 8.6, false),
                        new SliceGeometry(20, 18, 3, 6, 7, 5), 2),
                new Case("axis corrections, skimage grid, k=4", scan(24, 40, 180, 11.25, true),
                        SliceGeometry.square(24).withGrid(SliceGrid.SKIMAGE), 4),
                new Case("one angle, ROI column strip, k=1", scan(13, 1, 180, Double.NaN, false),
                        new SliceGeometry(13, 13, 5, 0, 1, 13), 1),
                new Case("irregular angles, slice larger than the detector, k=8", ScanGeometry.builder().detectorWidth(11)
                        .anglesDeg(new double[]{3.1, 17.9, 44.999, 45.001, 89.7, 91.3, 133.3, 200.2, 301.7}).centerOfRotation(4.9)
                        .build(), SliceGeometry.square(19), 8),
                new Case("60 angles over 180, 32x32 skimage, k=16", scan(32, 60, 180, 15.5, false),
                        SliceGeometry.square(32).withGrid(SliceGrid.SKIMAGE), 16))
                .map(Arguments::of);
    }

    static ScanGeometry scan(int width, int n, double range, double centre, boolean corrections) {
        ScanGeometry.Builder b = ScanGeometry.builder().detectorWidth(width).anglesRange(range, n).centerOfRotation(centre);
        if (corrections) {
            double[] c = new double[n];
            for (int p = 0; p < n; p++) c[p] = 0.7 * Math.sin(p * 0.9) - 0.2;
            b.axisCorrection(c);
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesTheOracleAndIsItsOwnAdjoint(Case c) {
        checkAgainstOracle(c, new JosephProjector(c.scan, c.slice, c.k));
    }

    /** Opens a device's solver ops for a geometry (closed after use). */
    interface OpsOpener {
        SolverOps open(ScanGeometry scan, SliceGeometry slice, int k);
    }

    /**
     * A device's solver ops against the Java pair after 10 iterations of SIRT and MLTR and 5 of CGLS on Poisson-noisy
     * discs: relative L2 within 1e-4 (float sums in another order, nothing more), and the residuals within 1e-3 of
     * theirs. CGLS gets fewer: in float32 it loses conjugacy after about 8 iterations on these data, where perturbing
     * the Java pair's own projections by 1e-7 (float rounding) moves its 10th iterate by up to 1e-3 and its 5th by 4e-6.
     */
    static void checkIterationsAgainstJava(String device, ScanGeometry scan, SliceGeometry slice, int k, int subsets,
                                           OpsOpener opener) {
        Poisson data = Poisson.discs(scan, slice, k, 2000, 17);
        for (Solver solver : new Solver[]{new Sirt(true), new Cgls(), new Mltr(subsets), new OsSart(subsets, 1.0),
                new TvPrimalDual(TvWeight.of(0.3))}) {
            float[] java = new float[slice.pixels() * k], dev = new float[slice.pixels() * k];
            StopRule stop = StopRule.after(solver instanceof Cgls ? 5 : 10);
            Convergence cj = solver.solve(new JosephProjector(scan, slice, k), data.measurements(), java, stop);
            Convergence cd;
            try (SolverOps ops = opener.open(scan, slice, k)) {
                cd = solver.solve(ops, data.measurements(), dev, stop);
            }
            String name = solver.getClass().getSimpleName();
            double d = ImageErrors.relL2(dev, java);
            assertTrue(d < 1e-4, name + ": " + device + " against Java after " + stop.iterations() + " iterations, relative L2 " + d);
            assertEquals(cj.iterations(), cd.iterations(), name + ": iterations");
            for (int i = 0; i < cj.iterations(); i++)
                assertEquals(cj.relative(i), cd.relative(i), 1e-3 * cj.relative(i) + 1e-9, name + ": residual after iteration " + (i + 1));
        }
    }

    /**
     * A projector pair of case c (any device's) against the double-precision oracle, element by element within 1e-5
     * of the largest value, and ⟨Ax, y⟩ = ⟨x, Aᵀy⟩ within 1e-5, slice by slice, on random images and sinograms.
     */
    static void checkAgainstOracle(Case c, Projector a) {
        JosephOracle oracle = new JosephOracle(c.scan, c.slice);
        int np = c.slice.pixels(), nb = c.scan.numProjections() * c.scan.detectorWidth(), k = c.k;
        Random rnd = new Random(c.name.hashCode());
        float[] x = new float[np * k], y = new float[nb * k];
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextFloat() * 2 - 0.5f;
        for (int i = 0; i < y.length; i++) y[i] = rnd.nextFloat() * 2 - 0.5f;
        float[] ax = new float[nb * k], aty = new float[np * k];
        a.forward(x, ax, a.allAngles());
        a.back(y, aty, a.allAngles());
        for (int s = 0; s < k; s++) {
            double[] xs = slice(x, s, k), ys = slice(y, s, k);
            double[] axRef = oracle.forward(xs), atyRef = oracle.back(ys);
            assertClose(axRef, sliceF(ax, s, k), c + " forward, slice " + s);
            assertClose(atyRef, sliceF(aty, s, k), c + " adjoint, slice " + s);
            double ref = dot(axRef, ys);
            double lhs = dot(slice(ax, s, k), ys), rhs = dot(xs, slice(aty, s, k));
            double scale = Math.sqrt(dot(axRef, axRef) * dot(ys, ys));
            assertTrue(scale > 0, c + ": the case must project something");
            assertEquals(0, (lhs - rhs) / scale, 1e-5, c + " <Ax,y> against <x,A'y>, slice " + s);
            assertEquals(0, (lhs - ref) / scale, 1e-5, c + " <Ax,y> against the double oracle, slice " + s);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void interleavedSlicesEqualSingleSlicePassesExactly(Case c) {
        int k = c.k, np = c.slice.pixels(), nb = c.scan.numProjections() * c.scan.detectorWidth();
        JosephProjector many = new JosephProjector(c.scan, c.slice, k), one = new JosephProjector(c.scan, c.slice, 1);
        Random rnd = new Random(7);
        float[] x = new float[np * k], y = new float[nb * k];
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextFloat();
        for (int i = 0; i < y.length; i++) y[i] = rnd.nextFloat();
        float[] ax = new float[nb * k], aty = new float[np * k];
        many.forward(x, ax, many.allAngles());
        many.back(y, aty, many.allAngles());
        for (int s = 0; s < k; s++) {
            float[] axs = new float[nb], atys = new float[np];
            one.forward(sliceF(x, s, k), axs, one.allAngles());
            one.back(sliceF(y, s, k), atys, one.allAngles());
            assertArrayEquals(axs, sliceF(ax, s, k), c + " forward, slice " + s);
            assertArrayEquals(atys, sliceF(aty, s, k), c + " adjoint, slice " + s);
        }
    }

    @Test
    void theEightSlicePassRunsOnTheVectorApiWhereTheJvmHasIt() {
        // the bit-for-bit comparison above then compares the Vector API path (k = 8) with the plain loops (k = 1)
        assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(), "no Vector API in this JVM");
        assumeTrue(VectorPairSum.supported(), "vectors narrower than 256 bits");
        assertTrue(new JosephProjector(scan(16, 4, 180, Double.NaN, false), SliceGeometry.square(8), 8).vectorised());
        assertFalse(new JosephProjector(scan(16, 4, 180, Double.NaN, false), SliceGeometry.square(8), 4).vectorised());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void subsetsOfAnglesAddUpToAllAngles(Case c) {
        JosephProjector a = new JosephProjector(c.scan, c.slice, c.k);
        int np = c.slice.pixels() * c.k, nb = c.scan.numProjections() * c.scan.detectorWidth() * c.k;
        float[] y = new float[nb];
        Random rnd = new Random(3);
        for (int i = 0; i < nb; i++) y[i] = rnd.nextFloat();
        float[] all = new float[np];
        a.back(y, all, a.allAngles());
        double[] sum = new double[np];
        for (int[] subset : Subsets.of(c.scan.numProjections(), Math.min(3, c.scan.numProjections())).angles()) {
            float[] part = new float[np];
            a.back(y, part, subset);
            for (int i = 0; i < np; i++) sum[i] += part[i];
        }
        assertClose(sum, all, c + " sum of subset adjoints");
    }

    private static void assertClose(double[] expected, float[] actual, String what) {
        double max = 0;
        for (double v : expected) max = Math.max(max, Math.abs(v));
        for (int i = 0; i < expected.length; i++)
            assertEquals(expected[i], actual[i], 1e-5 * Math.max(max, 1e-30), what + " at " + i);
    }

    static double[] slice(float[] a, int s, int k) {
        double[] out = new double[a.length / k];
        for (int i = 0; i < out.length; i++) out[i] = a[i * k + s];
        return out;
    }

    static float[] sliceF(float[] a, int s, int k) {
        float[] out = new float[a.length / k];
        for (int i = 0; i < out.length; i++) out[i] = a[i * k + s];
        return out;
    }

    static double dot(double[] a, double[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) d += a[i] * b[i];
        return d;
    }
}
