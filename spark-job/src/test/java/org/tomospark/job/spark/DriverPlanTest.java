package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.params.ReconstructionParams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the driver's plan tells every task's backend, beyond the user's own settings. */
class DriverPlanTest {

    private static SparkJobSpec spec(String name) {
        return TestScans.spec(TestScans.hdf5().toUri().toString(), TestScans.tmp(name).resolve("rec").toUri().toString());
    }

    @Test
    void theBackendLearnsHowManyTasksShareAGpuAndComputesTheFallbackKernelsBytes() {
        SparkJobSpec spec = spec("plan-shared");
        ReconstructionParams p = SparkReconstruction.planDriver(SparkStart.of(TestScans.spark()), spec, new Configuration()).params();
        assertEquals(spec.spark().tasksPerDevice(), p.algorithm().backendOptions().get(BackendKeys.CUDA_PROCESSORS_PER_DEVICE));
        assertFalse(p.algorithm().backendOptions().get(BackendKeys.CUDA_AUTOTUNE), "every executor takes the fallback table's kernel");
    }

    @Test
    void aUsersOwnSettingIsKept() {
        SparkJobSpec spec = spec("plan-mine");
        ReconstructionParams mine = spec.params().toBuilder().backendOptions(spec.params().algorithm().backendOptions()
                .withExtra(BackendKeys.CUDA_PROCESSORS_PER_DEVICE.name(), "1").withExtra(BackendKeys.CUDA_AUTOTUNE.name(), "true"))
                .build();
        ReconstructionParams p = SparkReconstruction.planDriver(SparkStart.of(TestScans.spark()), spec.withParams(mine),
                new Configuration()).params();
        assertEquals(1, p.algorithm().backendOptions().get(BackendKeys.CUDA_PROCESSORS_PER_DEVICE));
        assertTrue(p.algorithm().backendOptions().get(BackendKeys.CUDA_AUTOTUNE));
    }
}
