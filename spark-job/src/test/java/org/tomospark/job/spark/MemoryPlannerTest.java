package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.GroupShape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryPlannerTest {
    static final long GIB = 1L << 30;

    /** 2048 x 2048 detector, 1500 uint16 projections, 2048^2 slices, 4 per pass, 1000 rows. */
    static MemoryPlanner.Input big(int requested, long execMem, int tasks, long gpu) {
        return new MemoryPlanner.Input(1500, 2048, 2, 2048L * 2048, 4, 1000, requested, execMem, tasks, 0.5, gpu, 1, 0);
    }

    @Test
    void hostBytesFollowTheDocumentedFormula() {
        MemoryPlanner.Input in = big(8, 8 * GIB, 1, 0);
        long nw = 1500L * 2048, p = 2048L * 2048;
        assertEquals(8 * nw * 6 + 16 * p * 4 + 4 * nw * 4 + 2 * p * 4, MemoryPlanner.hostBytes(in, 8));
        assertEquals(8 * (nw + p) * 4, MemoryPlanner.deviceBytes(in, 8));
        // Paganin reads 6 halo rows above and below: the raw band, its copy and the float band are 8 + 12 rows
        MemoryPlanner.Input halo = new MemoryPlanner.Input(1500, 2048, 2, 2048L * 2048, 4, 1000, 8, 8 * GIB, 1, 0.5, 0, 1, 0, 1, 6);
        assertEquals(20 * nw * 6 + 16 * p * 4 + 4 * nw * 4 + 2 * p * 4, MemoryPlanner.hostBytes(halo, 8));
        assertEquals(8 * (nw + p) * 4, MemoryPlanner.deviceBytes(halo, 8), "the device gets the group's rows only");
        // so the planner picks smaller groups when the halo is large
        MemoryPlanner.Input wide = new MemoryPlanner.Input(1500, 2048, 2, 2048L * 2048, 4, 1000, 0, 8 * GIB, 2, 0.5, 0, 1, 0, 1, 16);
        MemoryPlanner.Plan hp = MemoryPlanner.plan(wide);
        assertTrue(hp.hostBytesPerTask() <= hp.hostBudgetPerTask(), String.valueOf(hp));
        assertTrue(hp.groupRows() < MemoryPlanner.plan(big(0, 8 * GIB, 2, 0)).groupRows(), String.valueOf(hp));
        // bin.rows 2 with 6 halo rows: 8 slices read 16 + 12 detector rows of raw samples, copies and float band
        MemoryPlanner.Input binned = new MemoryPlanner.Input(1500, 2048, 2, 2048L * 2048, 4, 1000, 8, 8 * GIB, 1, 0.5, 0, 1, 0, 2, 6);
        assertEquals(28 * nw * 6 + 16 * p * 4 + 4 * nw * 4 + 2 * p * 4, MemoryPlanner.hostBytes(binned, 8));
        // raw counts corrected on the device: no float band on the host
        MemoryPlanner.Input onDevice = new MemoryPlanner.Input(1500, 2048, 2, 2048L * 2048, 4, 1000, 8, 8 * GIB, 1, 0.5, 0, 1, 0, 1, 0,
                new GroupShape(4, 32), true, true);
        assertEquals(8 * nw * 2 + 16 * p * 4 + 2 * p * 4, MemoryPlanner.hostBytes(onDevice, 8));
    }

    @Test
    void choosesTheLargestFittingMultipleOfSlicesPerPass() {
        // budget (16 GiB - 300 MiB) * 0.5 / 2 tasks ≈ 3.9 GiB; each row costs ~30.7 MB + 16.8 MB
        MemoryPlanner.Plan p = MemoryPlanner.plan(big(0, 16 * GIB, 2, 0));
        assertEquals(0, p.groupRows() % 4);
        assertTrue(p.hostBytesPerTask() <= p.hostBudgetPerTask());
        MemoryPlanner.Input in = big(0, 16 * GIB, 2, 0);
        // within the budget, the core's default rules: about 256 MiB of raw rows (43 rows of 6 MB -> 40)
        assertEquals(40, p.groupRows());
        // less memory: the largest multiple of 4 that fits
        MemoryPlanner.Input small = big(0, 2 * GIB, 2, 0);
        MemoryPlanner.Plan q = MemoryPlanner.plan(small);
        assertTrue(q.groupRows() < 40 && q.hostBytesPerTask() <= q.hostBudgetPerTask(), String.valueOf(q));
        assertTrue(MemoryPlanner.hostBytes(small, q.groupRows() + 4) > q.hostBudgetPerTask(), "not the largest: " + q);
    }

    @Test
    void keepsEveryTaskSlotBusy() {
        // 32 rows on 4 CPU slots: ten groups a slot would be 1 row, so groups of one pass (4 rows), not one group of 32
        MemoryPlanner.Input in = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 4, 32, 0, 4 * GIB, 2, 0.5, 0, 1, 4);
        assertEquals(4, MemoryPlanner.plan(in).groupRows());
        // 320 rows: ten groups a slot, 40 groups of 8
        MemoryPlanner.Input more = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 4, 320, 0, 4 * GIB, 2, 0.5, 0, 1, 4);
        assertEquals(320 / (4 * 10), MemoryPlanner.plan(more).groupRows());
        // 256 rows: 6.4 rows a group, rounded down to whole passes
        MemoryPlanner.Input between = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 4, 256, 0, 4 * GIB, 2, 0.5, 0, 1, 4);
        assertEquals(4, MemoryPlanner.plan(between).groupRows());
        // backend's choice of slices per pass (0): multiples of 16 when there are enough rows, else any size
        MemoryPlanner.Input auto = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 640, 0, 4 * GIB, 2, 0.5, 0, 1, 4);
        assertEquals(16, MemoryPlanner.plan(auto).groupRows());
        MemoryPlanner.Input autoMore = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 2560, 0, 4 * GIB, 2, 0.5, 0, 1, 4);
        assertEquals(64, MemoryPlanner.plan(autoMore).groupRows());
        MemoryPlanner.Input few = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 12, 0, 4 * GIB, 2, 0.5, 0, 1, 4);
        // 12 rows on 4 slots, no pass to respect: groups of one row (ten a slot would be 0.3)
        assertEquals(1, MemoryPlanner.plan(few).groupRows());
    }

    /** The small-scan case: 8 rows on 2 slots with the java backend's pass of 8 make one group of 8, not two of 4. */
    @Test
    void neverSmallerThanTheBackendsPass() {
        GroupShape java = new GroupShape(8, 8);
        MemoryPlanner.Input small = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 8, 0, 4 * GIB, 2, 0.5, 0, 1, 2, 1, 0, java);
        assertEquals(8, MemoryPlanner.plan(small).groupRows());
        // fewer rows than a pass: one group of all of them
        MemoryPlanner.Input tiny = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 5, 0, 4 * GIB, 2, 0.5, 0, 1, 2, 1, 0, java);
        assertEquals(5, MemoryPlanner.plan(tiny).groupRows());
        // many rows: ten groups a slot, in whole passes
        MemoryPlanner.Input many = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 64, 0, 4 * GIB, 2, 0.5, 0, 1, 4, 1, 0, java);
        assertEquals(8, MemoryPlanner.plan(many).groupRows());
        MemoryPlanner.Input lots = new MemoryPlanner.Input(180, 128, 2, 128 * 128, 0, 640, 0, 4 * GIB, 2, 0.5, 0, 1, 4, 1, 0, java);
        assertEquals(16, MemoryPlanner.plan(lots).groupRows());
    }

    /** On GPUs (no task-slot rule) groups fill the tensor-core kernels' 32-slice blocks. */
    @Test
    void gpuGroupsFillTensorCoreBlocks() {
        GroupShape cuda = new GroupShape(8, 32);
        MemoryPlanner.Input in = new MemoryPlanner.Input(2048, 2048, 2, 2048L * 2048, 0, 256, 0, 64 * GIB, 16, 0.9, 0, 2, 0, 1, 0, cuda);
        assertEquals(32, MemoryPlanner.plan(in).groupRows());
        // the H200 machine's local mode: a 48 GiB heap shared by 16 task slots at the default share, counts corrected on
        // the device: a group of 32 still fits
        MemoryPlanner.Input local = new MemoryPlanner.Input(2048, 2048, 2, 2048L * 2048, 0, 256, 0, 48 * GIB, 16, 0.5, 0, 2, 0, 1, 0,
                cuda, true, true);
        MemoryPlanner.Plan lp = MemoryPlanner.plan(local);
        assertEquals(32, lp.groupRows(), String.valueOf(lp));
        assertTrue(lp.hostBytesPerTask() <= lp.hostBudgetPerTask());
        // the same scan planned for 16 CPU slots would make four groups a slot of one pass, a quarter of a block
        MemoryPlanner.Input slots = new MemoryPlanner.Input(2048, 2048, 2, 2048L * 2048, 0, 256, 0, 64 * GIB, 16, 0.9, 0, 2, 16, 1, 0,
                cuda);
        assertEquals(8, MemoryPlanner.plan(slots).groupRows());
    }

    @Test
    void refusesWhatCannotFitAndNamesTheKeys() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemoryPlanner.plan(big(64, 2 * GIB, 2, 0)));
        assertTrue(e.getMessage().contains("group.rows") && e.getMessage().contains("spark.executor.memory")
                && e.getMessage().contains("spark.executor.cores") && e.getMessage().contains("64 rows"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MemoryPlanner.plan(big(0, 400L << 20, 1, 0)));
        assertTrue(e.getMessage().contains("backend.slicesPerPass") && e.getMessage().contains("spark.executor.memory"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MemoryPlanner.plan(big(32, 64 * GIB, 1, GIB / 2)));
        assertTrue(e.getMessage().contains("GPU memory") && e.getMessage().contains("job.gpuMemory")
                && e.getMessage().contains("group.rows"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MemoryPlanner.plan(big(6, 64 * GIB, 1, 0)));
        assertTrue(e.getMessage().contains("multiple of backend.slicesPerPass"), e.getMessage());
    }

    @Test
    void gpuBudgetBoundsTheChoice() {
        MemoryPlanner.Plan p = MemoryPlanner.plan(big(0, 64 * GIB, 1, 2 * GIB));
        assertTrue(p.deviceBytesPerTask() <= p.deviceBudgetPerTask());
        assertTrue(p.groupRows() < 64 && p.groupRows() >= 4, String.valueOf(p));
    }
}
