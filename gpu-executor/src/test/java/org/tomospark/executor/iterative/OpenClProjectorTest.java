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
        try (OpenClProjector a = new OpenClProjector(c.scan(), c.slice(), c.k(), "")) {
            JosephProjectorTest.checkAgainstOracle(c, a);
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
