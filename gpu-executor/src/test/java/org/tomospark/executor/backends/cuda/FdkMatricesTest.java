package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backends.cuda.FdkMatrices.Range;
import org.tomospark.executor.geometry.ConeGeometry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The matrices as the FDK kernels take them: the geometry's own (normalised, row-major), whether u and w depend on z
 * (which picks the column kernels), and the split into constant-memory chunks and launches.
 */
class FdkMatricesTest {

    @Test
    void packsTheGeometrysMatrices() {
        ConeGeometry g = CudaFdkGpuTest.scan(128, 97, 7);
        FdkMatrices m = new FdkMatrices(g);
        assertEquals(7, m.count());
        double[] c = m.constants(new Range(2, 3));
        assertEquals(36, c.length);
        for (int p = 0; p < 3; p++) assertArrayEquals(g.matrix(2 + p).m(), Arrays.copyOfRange(c, 12 * p, 12 * p + 12));
        for (int p = 0; p < 3; p++) assertEquals(1.0, c[12 * p + 11], 1e-15);
    }

    @Test
    void circularTrajectoriesKeepUAndWIndependentOfZ() {
        ConeGeometry g = CudaFdkGpuTest.scan(128, 97, 24);
        assertTrue(new FdkMatrices(g).zInvariant());
        assertTrue(new FdkMatrices(CudaFdkGpuTest.asMatrices(g)).zInvariant());
        assertFalse(new FdkMatrices(CudaFdkGpuTest.tilted(g)).zInvariant());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 100, 128, 129, 496, 512, 513, 1440, 2048})
    void chunksAndLaunchesCoverEveryProjectionOnce(int np) {
        List<Range> chunks = FdkMatrices.chunks(np);
        int next = 0, launches = 0;
        for (Range c : chunks) {
            assertTrue(c.count() >= 1 && c.count() <= FdkMatrices.CONSTANT_PROJECTIONS, c.toString());
            assertEquals(next, c.first());
            int inner = c.first();
            for (Range l : FdkMatrices.launches(c)) {
                assertTrue(l.count() >= 1 && l.count() <= FdkMatrices.LAUNCH_PROJECTIONS, l.toString());
                assertEquals(inner, l.first());
                inner += l.count();
                launches++;
            }
            assertEquals(c.first() + c.count(), inner);
            next += c.count();
        }
        assertEquals(np, next);
        assertEquals((np + FdkMatrices.LAUNCH_PROJECTIONS - 1) / FdkMatrices.LAUNCH_PROJECTIONS, launches, "launches for " + np);
    }

    @Test
    void launchesAreEven() {
        assertEquals(List.of(new Range(0, 124), new Range(124, 124), new Range(248, 124), new Range(372, 124)),
                FdkMatrices.launches(new Range(0, 496)));
        assertEquals(List.of(new Range(0, 480), new Range(480, 480), new Range(960, 480)), FdkMatrices.chunks(1440));
        // launches of at most 308 (FdkVariant.launchProjections): two of 248; of the whole chunk: one
        assertEquals(List.of(new Range(0, 248), new Range(248, 248)), FdkMatrices.launches(new Range(0, 496), 308));
        assertEquals(List.of(new Range(16, 496)), FdkMatrices.launches(new Range(16, 496), 496));
        assertEquals(List.of(new Range(0, 171), new Range(171, 171), new Range(342, 170)), FdkMatrices.launches(new Range(0, 512), 200));
        assertThrows(IllegalArgumentException.class, () -> FdkMatrices.launches(new Range(0, 10), 0));
    }
}
