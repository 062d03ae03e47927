package org.tomospark.job.spark;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.params.ConeParams;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spark's cone-beam slabs: the widest a task's memory holds, counting in local mode that only as many tasks run at once
 * as there are slabs; on a cluster each task's own share; the GPU's share too; group.rows as it is.
 */
class ConePlanTest {
    private static final ConeGeometry G = ConeGeometry.builder().dso(500).dsd(1000).pixel(0.2, 0.2).centre(767.5, 767.5)
            .detector(1536, 1536).anglesRange(360, 1440).build();
    private static final ConeParams CONE = ConeParams.of(true, Map.of(), 1024, 1024, 0.1, false).resolve(G);
    private static final ScanMetadata META = new ScanMetadata("scan.h5", 1440, 1536, 1536, ScanMetadata.SampleType.UINT16,
            new double[1440], 0, 0);
    private static final long GIB = 1L << 30;

    private static MemoryPlanner.Plan perTask(long host, long device) {
        return new MemoryPlanner.Plan(1, 0, host, 0, device);
    }

    @Test
    void localModeSharesTheExecutorsMemoryAmongTheSlabsThatRunAtOnce() {
        // 16 cores, 2.4 GiB a task: 16 slabs of 64 would each fit a task's share, but two of 512 fit half the executor's
        MemoryPlanner.Plan p = SparkReconstruction.conePlan(CONE, META, perTask(2400L << 20, Long.MAX_VALUE), 0, 1024, 1024, 16,
                false, 1);
        assertEquals(512, p.groupRows());
        assertEquals(16 * (2400L << 20) / 2, p.hostBudgetPerTask());
        assertTrue(p.hostBytesPerTask() <= p.hostBudgetPerTask());
        assertEquals(CONE.slabHostBytes(META, 512), p.hostBytesPerTask());
        // never wider than the direct engine's slab
        assertEquals(256, SparkReconstruction.conePlan(CONE, META, perTask(2400L << 20, Long.MAX_VALUE), 0, 256, 1024, 16,
                false, 1).groupRows());
    }

    @Test
    void onAClusterEachTaskKeepsItsOwnShare() {
        MemoryPlanner.Plan p = SparkReconstruction.conePlan(CONE, META, perTask(2400L << 20, Long.MAX_VALUE), 0, 1024, 1024, 1,
                false, 1);
        assertTrue(p.groupRows() < 512 && p.groupRows() >= 1, "slab " + p.groupRows());
        assertTrue(p.hostBytesPerTask() <= 2400L << 20);
        assertTrue(CONE.slabHostBytes(META, 2 * p.groupRows()) > 2400L << 20);
    }

    @Test
    void theGpusShareBoundsTheSlabAndGroupRowsIsTakenAsItIs() {
        // two tasks a GPU of 8 GiB usable: a slab's band and slices on the device within 4 GiB, or 8 GiB when one runs
        MemoryPlanner.Plan p = SparkReconstruction.conePlan(CONE, META, perTask(64 * GIB, 4 * GIB), 0, 1024, 1024, 16, true, 2);
        assertTrue(p.deviceBytesPerTask() <= p.deviceBudgetPerTask(), p.toString());
        assertTrue(CONE.slabDeviceBytes(META, 2 * p.groupRows()) > 4 * GIB * 2 / Math.min(2, (1024 + 2 * p.groupRows() - 1)
                / (2 * p.groupRows())), p.toString());
        assertEquals(24, SparkReconstruction.conePlan(CONE, META, perTask(GIB, GIB), 24, 1024, 1024, 16, true, 1).groupRows());
    }
}
