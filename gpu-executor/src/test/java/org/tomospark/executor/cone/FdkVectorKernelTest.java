package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.util.ImageErrors;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Vector API column path ({@link FdkVectorKernel}) against the per-voxel general path on awkward sizes: a slice
 * width that is no multiple of the tile or of the vector, slabs of odd heights starting anywhere, bands cut by the top
 * and the bottom of the detector, columns projecting beyond its sides, a projection count that is no multiple of four,
 * and detector rows per voxel step near 0.75, 1, 1.5 and 3. Random filtered data. Also: the same sums whatever the
 * number of threads, bit for bit.
 */
class FdkVectorKernelTest {
    private static final int COLS = 64, ROWS = 40, PROJECTIONS = 37;

    /** Detector rows per voxel step: about 5 × the voxel edge in mm (magnification 2, 0.4 mm pixels). */
    private static ConeGeometry geometry() {
        return ConeGeometry.builder().dso(200).dsd(400).pixel(0.4, 0.4).centre(31.3, 18.7).detector(COLS, ROWS)
                .anglesRange(360, PROJECTIONS).build();
    }

    private static float[][] band(Random r, int rows) {
        float[][] q = new float[PROJECTIONS][rows * COLS];
        for (float[] p : q) for (int i = 0; i < p.length; i++) p[i] = r.nextFloat() - 0.5f;
        return q;
    }

    @Test
    void theVectorPathEqualsTheGeneralPathOnAwkwardSizes() {
        ConeGeometry g = geometry();
        Random r = new Random(7);
        int edges = 0;
        for (double voxel : new double[]{0.15, 0.2, 0.3, 0.6}) {
            ConeVolume vol = new ConeVolume(37, 29, voxel);
            FdkBackprojector bp = new FdkBackprojector(g, vol);
            assumeTrue(bp.vectorColumns(), "the JVM or the machine has no 256-bit Vector API: " + bp.description());
            double[] steps = FdkVectorKernel.rowSteps(g, vol);
            for (int[] slab : new int[][]{{0, 5}, {3, 16}, {11, 24}, {22, 29}, {0, 29}}) {
                int[] band = SlabPlanner.rows(g, vol, slab[0], slab[1]);
                if (band[1] == 0) continue;
                if (band[0] == 0 || band[0] + band[1] == ROWS) edges++;
                float[][] q = band(r, band[1]);
                int nz = slab[1] - slab[0];
                float[][] vector = new float[nz][vol.pixels()], general = new float[nz][vol.pixels()], scalar = new float[nz][vol.pixels()];
                bp.backproject(q, band[0], band[1], slab[0], vector);
                bp.backprojectGeneral(q, band[0], band[1], slab[0], general);
                bp.backprojectColumns(q, band[0], band[1], slab[0], scalar);
                String what = String.format("voxel %.2f mm (%.2f to %.2f rows per step), slices %d to %d, rows %d + %d", voxel,
                        steps[0], steps[1], slab[0], slab[1], band[0], band[1]);
                assertTrue(ImageErrors.relL2(vector, general) < 1e-6, what + ": " + ImageErrors.relL2(vector, general));
                assertTrue(ImageErrors.relL2(vector, scalar) < 1e-6, what + ", scalar path: " + ImageErrors.relL2(vector, scalar));
                // slices at the detector's edge hold few voxels that see it, so their relative error is larger
                for (int k = 0; k < nz; k++)
                    assertTrue(ImageErrors.relL2(vector[k], general[k]) < 1e-5,
                            what + ", slice " + (slab[0] + k) + ": " + ImageErrors.relL2(vector[k], general[k]));
            }
        }
        assertTrue(edges > 0, "a band reaches the top or the bottom of the detector");
        ConeVolume wide = new ConeVolume(37, 29, 0.3);
        double reach = wide.cornerRadius() * g.dsd() / (g.dso() - wide.cornerRadius()) / g.du();
        assertTrue(g.cu() - reach < -1 && g.cu() + reach > COLS, "some columns project beyond the detector's sides");
    }

    @Test
    void theSumsDoNotDependOnTheNumberOfThreads() throws Exception {
        ConeGeometry g = geometry();
        ConeVolume vol = new ConeVolume(37, 29, 0.3);
        FdkBackprojector bp = new FdkBackprojector(g, vol);
        assumeTrue(bp.vectorColumns(), "the JVM or the machine has no 256-bit Vector API: " + bp.description());
        int k0 = 5, k1 = 18;
        int[] band = SlabPlanner.rows(g, vol, k0, k1);
        float[][] q = band(new Random(3), band[1]);
        float[][] common = new float[k1 - k0][vol.pixels()];
        bp.backproject(q, band[0], band[1], k0, common);
        for (int threads : new int[]{1, 3}) {
            ForkJoinPool pool = new ForkJoinPool(threads);
            try {
                float[][] got = new float[k1 - k0][vol.pixels()];
                pool.submit(() -> bp.backproject(q, band[0], band[1], k0, got)).get();
                for (int k = 0; k < got.length; k++) assertArrayEquals(common[k], got[k], threads + " threads, slice " + (k0 + k));
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void theScalarPathIsChosenWhenAsked() {
        ConeGeometry g = geometry();
        ConeVolume vol = new ConeVolume(37, 29, 0.3);
        assertFalse(new FdkBackprojector(g, vol, false).vectorColumns());
        assertEquals("java fdk, circular column path, scalar", new FdkBackprojector(g, vol, false).description());
    }
}
