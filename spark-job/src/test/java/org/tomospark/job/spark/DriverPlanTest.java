package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backends.cuda.CudaKeys;
import org.tomospark.executor.params.ReconstructionParams;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the driver's plan tells every task's backend, beyond the user's own settings. */
class DriverPlanTest {

    private static SparkJobSpec spec(String name) {
        return TestScans.spec(TestScans.hdf5().toUri().toString(), TestScans.tmp(name).resolve("rec").toUri().toString());
    }

    /** auto with GPUs given (local mode: job.devices) is planned onto the GPU backend, which the plan tells these. */
    @Test
    void theBackendLearnsHowManyTasksShareAGpuAndComputesTheFallbackKernelsBytes() {
        SparkJobSpec spec = onGpus(spec("plan-shared"));
        ReconstructionParams p = SparkReconstruction.planDriver(SparkStart.of(TestScans.spark()), spec, new Configuration()).params();
        assertEquals(spec.spark().tasksPerDevice(), p.algorithm().backendOptions().get(CudaKeys.PROCESSORS_PER_DEVICE));
        assertFalse(p.algorithm().backendOptions().get(CudaKeys.AUTOTUNE), "every executor takes the fallback table's kernel");
    }

    /** A run on the host's cores shares no device: its backend options are the user's. */
    @Test
    void aRunOnTheHostsCoresKeepsItsOptions() {
        SparkJobSpec spec = spec("plan-host");
        ReconstructionParams p = SparkReconstruction.planDriver(SparkStart.of(TestScans.spark()), spec, new Configuration()).params();
        assertEquals(spec.params().algorithm().backendOptions().extra(), p.algorithm().backendOptions().extra());
    }

    private static SparkJobSpec onGpus(SparkJobSpec spec) {
        return spec.withParams(spec.params().toBuilder().backend("auto").build())
                .withSpark(SparkOptions.defaults().withProgress(false).withDevices(List.of("0")));
    }

    @Test
    void aUsersOwnSettingIsKept() {
        SparkJobSpec spec = onGpus(spec("plan-mine"));
        ReconstructionParams mine = spec.params().toBuilder().backendOptions(spec.params().algorithm().backendOptions()
                .withExtra(CudaKeys.PROCESSORS_PER_DEVICE.name(), "1").withExtra(CudaKeys.AUTOTUNE.name(), "true"))
                .build();
        ReconstructionParams p = SparkReconstruction.planDriver(SparkStart.of(TestScans.spark()), spec.withParams(mine),
                new Configuration()).params();
        assertEquals(1, p.algorithm().backendOptions().get(CudaKeys.PROCESSORS_PER_DEVICE));
        assertTrue(p.algorithm().backendOptions().get(CudaKeys.AUTOTUNE));
    }
}
