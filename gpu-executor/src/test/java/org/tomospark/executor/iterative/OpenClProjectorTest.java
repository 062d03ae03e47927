package org.tomospark.executor.iterative;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.backend.opencl.ClRuntime;
import org.tomospark.executor.backend.opencl.OpenClProjector;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.util.ImageErrors;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The OpenCL Joseph pair (kernels/joseph.cl; PoCL here, any OpenCL device elsewhere): against the double-precision
 * oracle and its own adjoint over the awkward geometries of {@link JosephProjectorTest}, and against the Java pair after
 * iterations of SIRT and MLTR.
 */
class OpenClProjectorTest {

    @BeforeAll
    static void needsOpenCl() {
        assumeTrue(ClRuntime.unavailableReason() == null, "no OpenCL here: " + ClRuntime.unavailableReason());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.tomospark.executor.iterative.JosephProjectorTest#cases")
    void matchesTheOracleAndIsItsOwnAdjoint(JosephProjectorTest.Case c) {
        JosephOracle oracle = new JosephOracle(c.scan(), c.slice());
        int k = c.k(), np = c.slice().pixels(), nb = c.scan().numProjections() * c.scan().detectorWidth();
        Random rnd = new Random(c.name().hashCode());
        float[] x = new float[np * k], y = new float[nb * k];
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextFloat() * 2 - 0.5f;
        for (int i = 0; i < y.length; i++) y[i] = rnd.nextFloat() * 2 - 0.5f;
        float[] ax = new float[nb * k], aty = new float[np * k];
        try (OpenClProjector a = new OpenClProjector(c.scan(), c.slice(), k, "")) {
            a.forward(x, ax, a.allAngles());
            a.back(y, aty, a.allAngles());
        }
        for (int s = 0; s < k; s++) {
            double[] xs = JosephProjectorTest.slice(x, s, k), ys = JosephProjectorTest.slice(y, s, k);
            double[] axRef = oracle.forward(xs), atyRef = oracle.back(ys);
            assertTrue(ImageErrors.relL2(JosephProjectorTest.sliceF(ax, s, k), axRef) < 1e-5, c + " forward, slice " + s);
            assertTrue(ImageErrors.relL2(JosephProjectorTest.sliceF(aty, s, k), atyRef) < 1e-5, c + " adjoint, slice " + s);
            double lhs = JosephProjectorTest.dot(JosephProjectorTest.slice(ax, s, k), ys);
            double rhs = JosephProjectorTest.dot(xs, JosephProjectorTest.slice(aty, s, k));
            double scale = Math.sqrt(JosephProjectorTest.dot(axRef, axRef) * JosephProjectorTest.dot(ys, ys));
            assertEquals(0, (lhs - rhs) / scale, 1e-5, c + " <Ax,y> against <x,A'y>, slice " + s);
            assertEquals(0, (lhs - JosephProjectorTest.dot(axRef, ys)) / scale, 1e-5, c + " against the oracle, slice " + s);
        }
    }

    @Test
    void agreesWithTheJavaPairAfterIterations() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(48).anglesRange(180, 60).centerOfRotation(23.2).build();
        SliceGeometry slice = SliceGeometry.square(48);
        int k = 4;
        Poisson data = Poisson.discs(scan, slice, k, 2000, 17);
        for (Solver solver : new Solver[]{new Sirt(true), new Cgls(), new Mltr(4)}) {
            float[] java = new float[slice.pixels() * k], cl = new float[slice.pixels() * k];
            solver.solve(new JosephProjector(scan, slice, k), data.measurements(), java, new StopRule(10, 0));
            try (OpenClProjector a = new OpenClProjector(scan, slice, k, "")) {
                solver.solve(a, data.measurements(), cl, new StopRule(10, 0));
            }
            double d = ImageErrors.relL2(cl, java);
            assertTrue(d < 1e-4, solver.getClass().getSimpleName() + ": OpenCL against Java after 10 iterations, relative L2 " + d);
        }
    }
}
