package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.resource.ResourceProfile;
import org.apache.spark.resource.TaskResourceRequest;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.GroupShape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conveyor's one formula: depth from GPUs and tasks per GPU, the task slots it gives a cluster, the groups planned. */
class ConveyorTest {
    static SparkConf conf(String... kv) {
        SparkConf c = new SparkConf(false);
        for (int i = 0; i < kv.length; i += 2) c.set(kv[i], kv[i + 1]);
        return c;
    }

    @Test
    void depthIsEachGpusGroupsInFlightAndOneReadAhead() {
        assertEquals(0, Conveyor.depth(0, 2), "a CPU backend has no bound");
        assertEquals(3, Conveyor.depth(1, 2));
        assertEquals(6, Conveyor.depth(2, 2));
        assertEquals(8, Conveyor.depth(4, 1));
    }

    @Test
    void aGpuExecutorOfSixteenCoresGetsFiveCpusATaskAndNoTaskGpuAmount() {
        ResourceProfile p = Conveyor.profile(conf("spark.executor.cores", "16", "spark.executor.resource.gpu.amount", "1"), false,
                true, 2);
        assertNotNull(p);
        TaskResourceRequest cpus = p.taskResources().get("cpus").get();
        assertEquals(5.0, cpus.amount(), "16 cores over a depth of 3");
        assertFalse(p.taskResources().contains("gpu"), "the tasks share their executor's GPU");
        // two GPUs: depth 6, 2 cores a task
        assertEquals(2.0, Conveyor.profile(conf("spark.executor.cores", "16", "spark.executor.resource.gpu.amount", "2"), false, true,
                2).taskResources().get("cpus").get().amount());
    }

    @Test
    void sparksOwnSettingsStandWhereTheUserGaveThemOrNothingIsKnown() {
        SparkConf gpu = conf("spark.executor.cores", "16", "spark.executor.resource.gpu.amount", "1");
        assertNull(Conveyor.profile(gpu, true, true, 2), "local mode has no task profiles");
        assertNull(Conveyor.profile(gpu, false, false, 2), "a CPU backend");
        assertNull(Conveyor.profile(gpu.clone().set("spark.task.resource.gpu.amount", "0.25"), false, true, 2), "the user's task GPUs");
        assertNull(Conveyor.profile(gpu.clone().set("spark.task.cpus", "2"), false, true, 2), "the user's task cpus");
        assertNull(Conveyor.profile(conf("spark.executor.resource.gpu.amount", "1"), false, true, 2), "executor cores unknown");
        assertNull(Conveyor.profile(conf("spark.executor.cores", "16"), false, true, 2), "no executor GPUs");
    }

    @Test
    void theMemoryIsSharedAmongTheGroupsAnExecutorHolds() {
        SparkConf gpu = conf("spark.executor.cores", "16", "spark.executor.resource.gpu.amount", "1");
        assertEquals(3, Conveyor.groupsHeld(gpu, false, 0, 2, 16), "a cluster: the conveyor's three task slots");
        assertEquals(6, Conveyor.groupsHeld(gpu.clone().set("spark.task.cpus", "1"), false, 0, 2, 16),
                "the user's sixteen task slots, of which six hold a group: three read or processed, three being written");
        assertEquals(6, Conveyor.groupsHeld(conf(), true, 1, 2, 32), "local mode on 32 cores and one GPU");
        assertEquals(12, Conveyor.groupsHeld(conf(), true, 2, 2, 64), "local mode on 64 cores and two GPUs");
        assertEquals(6, Conveyor.groupsHeld(conf(), true, 0, 2, 32), "local mode on the default GPU");
        assertEquals(2, Conveyor.groupsHeld(conf(), true, 1, 2, 2), "local[2]: Spark's two slots");
    }

    @Test
    void thirtyTwoRowGroupsOfA2048ScanFitLocalModeOnThirtyTwoCoresAndOneGpu() {
        // 2048 angles x 2048 columns of uint16, 2048² float32 slices, group.rows=32, a 64 GiB heap, half of it for groups:
        // shared among 32 tasks (one per core) 1019 MiB is too little for a group's 1312 MiB; among the six groups the
        // conveyor holds it is plenty
        long heap = 64L << 30;
        MemoryPlanner.Input perCore = new MemoryPlanner.Input(2048, 2048, 2, 2048L * 2048, 2, 1024, 32, heap, 32, 0.5, 0, 2, 0,
                1, 0, new GroupShape(2, 32), true, true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemoryPlanner.plan(perCore));
        assertTrue(e.getMessage().contains("needs 1312 MiB") && e.getMessage().contains("1019 MiB per task"), e.getMessage());
        int held = Conveyor.groupsHeld(conf(), true, 1, 2, 32);
        MemoryPlanner.Plan p = MemoryPlanner.plan(new MemoryPlanner.Input(2048, 2048, 2, 2048L * 2048, 2, 1024, 32, heap, held,
                0.5, 0, 2, 0, 1, 0, new GroupShape(2, 32), true, true));
        assertEquals(32, p.groupRows());
        assertEquals(((heap - (300L << 20)) / 2) / 6, p.hostBudgetPerTask());
    }

    @Test
    void anExecutorGpuAmountThatIsNoNumberIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Conveyor.executorGpus(conf("spark.executor.resource.gpu.amount", "one")));
        assertEquals("spark.executor.resource.gpu.amount: not a number: 'one'", e.getMessage());
        assertEquals(2, Conveyor.executorGpus(conf("spark.executor.resource.gpu.amount", " 2 ")));
        assertEquals(0, Conveyor.executorGpus(conf()));
    }

    @Test
    void theApplicationsSlotsForPlanningGroups() {
        SparkConf gpu = conf("spark.executor.cores", "16", "spark.executor.resource.gpu.amount", "1");
        assertEquals(12, Conveyor.applicationSlots(gpu, false, 0, 4, 2, 64), "four executors of depth 3");
        assertEquals(3, Conveyor.applicationSlots(gpu, false, 0, 0, 2, 64), "none registered yet: one");
        assertEquals(6, Conveyor.applicationSlots(conf(), true, 2, 1, 2, 64), "local mode, two GPUs");
        assertEquals(64, Conveyor.applicationSlots(conf(), true, 0, 1, 2, 64), "local mode, no GPU: Spark's slots");
    }
}
