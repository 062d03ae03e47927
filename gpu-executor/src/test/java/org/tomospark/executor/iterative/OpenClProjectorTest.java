package org.tomospark.executor.iterative;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.backends.opencl.ClRuntime;
import org.tomospark.executor.backends.opencl.OpenClProjector;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;


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
    void agreesWithTheJavaPairAfterIterations() throws Exception {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(48).anglesRange(180, 60).centerOfRotation(23.2).build();
        JosephProjectorTest.checkIterationsAgainstJava("OpenCL", scan, SliceGeometry.square(48), 4, 4,
                (sc, sl, kk) -> HostOps.owning(new OpenClProjector(sc, sl, kk, "")));
    }
}
