package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.inputs.ScanMetadata;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How wide a cone-beam slab is planned: its host bytes counted from its widest band (raw counts and corrected floats)
 * and its slices, the widest slab within a budget, the whole volume when it fits, and never a band one Java array cannot
 * hold.
 */
class ConeSlabSizeTest {

    private static ConeParams resolved(int cols, int rows, int projections, int size, int slices, double voxel) {
        ConeGeometry g = ConeGeometry.builder().dso(500).dsd(1000).pixel(0.2, 0.2).centre((cols - 1) / 2.0, (rows - 1) / 2.0)
                .detector(cols, rows).anglesRange(360, projections).build();
        return ConeParams.of(true, Map.of(), size, slices, voxel, false).resolve(g);
    }

    private static ScanMetadata meta(int cols, int rows, int projections) {
        return new ScanMetadata("scan.h5", projections, rows, cols, ScanMetadata.SampleType.UINT16, new double[projections], 0, 0);
    }

    @Test
    void hostBytesAreTheWidestBandAsCountsAndFloatsAndTheSlices() {
        ConeParams c = resolved(256, 192, 90, 200, 160, 0.1);
        ScanMetadata m = meta(256, 192, 90);
        for (int s : new int[]{1, 8, 37, 160}) {
            long band = 90L * 256 * SlabPlanner.maxRows(c.geometry(), c.volume(), s);
            assertEquals(band * 6 + 4L * 200 * 200 * s, c.slabHostBytes(m, s), "slab of " + s);
            // on the device: the band as floats and the texture mode's half-precision copies, the slices as floats
            assertEquals(12 * band + 4 * 200L * 200 * s, c.slabDeviceBytes(m, s), "slab of " + s);
        }
    }

    @Test
    void theWidestSlabWithinTheBudgetIsAPowerOfTwoOrTheWholeVolume() {
        ConeParams c = resolved(256, 192, 90, 200, 160, 0.1);
        ScanMetadata m = meta(256, 192, 90);
        // the whole volume's height (160, not a power of two) when it fits
        assertEquals(160, c.largestSlab(m, c.slabHostBytes(m, 160)));
        assertEquals(160, c.largestSlab(m, Long.MAX_VALUE));
        // below it, the widest power of two that fits; one slice at least, even when nothing fits
        assertEquals(128, c.largestSlab(m, c.slabHostBytes(m, 160) - 1));
        assertEquals(32, c.largestSlab(m, c.slabHostBytes(m, 63)));
        assertEquals(1, c.largestSlab(m, 0));
        // and within a device budget
        assertEquals(16, c.largestSlab(m, Long.MAX_VALUE, c.slabDeviceBytes(m, 31)));
        assertEquals(160, c.largestSlab(m, Long.MAX_VALUE, c.slabDeviceBytes(m, 160)));
        for (long budget : new long[]{1L << 20, 5L << 20, 20L << 20, 60L << 20}) {
            int s = c.largestSlab(m, budget);
            assertTrue(s == 1 || c.slabHostBytes(m, s) <= budget, budget + " bytes: slab " + s);
            assertTrue(s == 160 || c.slabHostBytes(m, Math.min(160, 2 * s)) > budget, budget + " bytes: slab " + s + " is not the widest");
        }
    }

    @Test
    void aBandIsNeverLargerThanOneArray() {
        // the real-path benchmark's scan: 1440 projections of 1536 columns, 970 rows make 2^31 samples
        ConeParams c = resolved(1536, 1536, 1440, 1024, 1024, 0.1);
        ScanMetadata m = meta(1536, 1536, 1440);
        int s = c.largestSlab(m, Long.MAX_VALUE);
        long band = 1440L * 1536 * SlabPlanner.maxRows(c.geometry(), c.volume(), s);
        assertTrue(s > 1 && band <= Integer.MAX_VALUE - 8, "slab " + s + " has a band of " + band + " samples");
        assertTrue(1440L * 1536 * SlabPlanner.maxRows(c.geometry(), c.volume(), 2 * s) > Integer.MAX_VALUE - 8, "slab " + s);
    }

    @Test
    void aVolumeWhoseSingleSliceBandExceedsAnArrayIsRefusedNamingTheKeys() {
        // 4000 projections of 4096 columns: 131 rows make 2^31 samples, and the top slice of this tall, wide volume needs
        // hundreds
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> resolved(4096, 2048, 4000, 2048, 2048, 0.1));
        assertTrue(e.getMessage().contains("cone.volume.slices") && e.getMessage().contains("2^31"), e.getMessage());
        // a volume of the middle third of the height fits
        ConeParams c = resolved(4096, 2048, 4000, 2048, 64, 0.1);
        assertTrue(c.largestSlab(meta(4096, 2048, 4000), Long.MAX_VALUE) >= 1);
    }
}
