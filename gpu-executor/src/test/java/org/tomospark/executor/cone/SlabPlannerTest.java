package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The band every slab reads, against the rows its voxels actually project to (every voxel centre of the slab, every
 * projection, and the bilinear neighbour row), and the widest band a slab of a given height can need wherever it starts
 * (the device back-projectors size their buffers by it).
 */
class SlabPlannerTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 12, 31})
    void everySlabsBandHoldsItsVoxelsRowsAndNoSlabExceedsTheMaximum(int slices) {
        ConeGeometry g = new ConeDemoDataset(40, 30, 24, false, 200, 400, 0.8, false, false, 1).geometry();
        ConeVolume vol = new ConeVolume(19, 36, 0.5);
        int max = SlabPlanner.maxRows(g, vol, slices);
        double[] uvw = new double[3];
        for (int k0 = 0; k0 + slices <= vol.nz(); k0++) {
            int[] band = SlabPlanner.rows(g, vol, k0, k0 + slices);
            assertTrue(band[1] <= max, "slab at " + k0 + ": " + band[1] + " rows, more than the maximum " + max);
            int lo = Integer.MAX_VALUE, hi = Integer.MIN_VALUE;
            for (int p = 0; p < g.numProjections(); p++)
                for (int k = k0; k < k0 + slices; k++)
                    for (int j = 0; j < vol.n(); j++)
                        for (int i = 0; i < vol.n(); i++) {
                            g.matrix(p).project(vol.x(i), vol.y(j), vol.z(k), uvw);
                            int v = (int) Math.floor(uvw[1]);
                            lo = Math.min(lo, Math.max(0, v));
                            hi = Math.max(hi, Math.min(g.rows() - 1, v + 1));
                        }
            if (lo > hi) {
                assertTrue(band[1] == 0, "slab at " + k0 + " sees no detector row, yet reads " + band[1]);
                continue;
            }
            assertTrue(band[0] <= lo && band[0] + band[1] - 1 >= hi, "slab at " + k0 + ": band " + band[0] + "+" + band[1]
                    + " misses rows " + lo + ".." + hi);
            // from an even row, to an odd one or the detector's last: the same row pairs in every slab
            assertTrue(band[0] % 2 == 0 && ((band[0] + band[1]) % 2 == 0 || band[0] + band[1] == g.rows()),
                    "slab at " + k0 + ": band " + band[0] + "+" + band[1] + " is not aligned to row pairs");
            assertTrue(band[0] >= lo - 2 && band[0] + band[1] - 1 <= hi + 2, "slab at " + k0 + ": band " + band[0] + "+"
                    + band[1] + " is wider than rows " + lo + ".." + hi + " need");
        }
    }
}
