package org.tomospark.job.spark;

import java.io.Serializable;
import java.util.List;

/**
 * Settings of the Spark engine (config keys {@code job.*}).
 *
 * @param devices        GPU addresses for local mode, where Spark cannot give tasks GPUs (job.devices); empty to
 *                       use the driver's {@code spark.driver.resource.gpu} addresses, if any
 * @param tasksPerDevice tasks sharing one GPU at once in an executor JVM (job.tasksPerDevice)
 * @param memoryFraction share of executor heap the planner gives to tasks (job.memoryFraction)
 * @param gpuMemory      bytes of one GPU for the planner, 0 if unknown (job.gpuMemory)
 * @param outputRaw      also write volume.raw, float32 little-endian [slice][y][x] (job.output.raw)
 * @param progress       print the progress bar (job.progress)
 * @param taskDelayMs    fault-injection: each task sleeps this long before its group (job.test.taskDelayMs; tests only)
 * @param stickyErrorOnGroup fault-injection: the first attempt of this group fails with a sticky CUDA error, -1 for none
 *                       (job.test.stickyErrorOnGroup; tests only)
 * @param failWriteOfGroup fault-injection: the first attempt of this group fails halfway through committing its slices,
 *                       leaving a slice's file half-written under its temporary name, -1 for none
 *                       (job.test.failWriteOfGroup; tests only)
 */
public record SparkOptions(List<String> devices, int tasksPerDevice, double memoryFraction, long gpuMemory, boolean outputRaw,
                           boolean progress, long taskDelayMs, int stickyErrorOnGroup, int failWriteOfGroup)
        implements Serializable {
    public SparkOptions {
        devices = devices == null ? List.of() : List.copyOf(devices);
        if (tasksPerDevice < 1) throw new IllegalArgumentException("job.tasksPerDevice must be >= 1, got " + tasksPerDevice);
        if (!(memoryFraction > 0 && memoryFraction <= 1))
            throw new IllegalArgumentException("job.memoryFraction must be in (0, 1], got " + memoryFraction);
        if (gpuMemory < 0) throw new IllegalArgumentException("job.gpuMemory must be >= 0");
        if (taskDelayMs < 0) throw new IllegalArgumentException("job.test.taskDelayMs must be >= 0");
        if (stickyErrorOnGroup < -1) throw new IllegalArgumentException("job.test.stickyErrorOnGroup must be >= -1");
        if (failWriteOfGroup < -1) throw new IllegalArgumentException("job.test.failWriteOfGroup must be >= -1");
    }

    public static SparkOptions defaults() {
        return new SparkOptions(List.of(), 1, 0.5, 0, false, true, 0, -1, -1);
    }

    public SparkOptions withDevices(List<String> d) {
        return new SparkOptions(d, tasksPerDevice, memoryFraction, gpuMemory, outputRaw, progress,
                taskDelayMs, stickyErrorOnGroup, failWriteOfGroup);
    }

    public SparkOptions withOutputRaw(boolean r) {
        return new SparkOptions(devices, tasksPerDevice, memoryFraction, gpuMemory, r, progress,
                taskDelayMs, stickyErrorOnGroup, failWriteOfGroup);
    }

    public SparkOptions withProgress(boolean p) {
        return new SparkOptions(devices, tasksPerDevice, memoryFraction, gpuMemory, outputRaw, p,
                taskDelayMs, stickyErrorOnGroup, failWriteOfGroup);
    }

    public SparkOptions withTaskDelayMs(long ms) {
        return new SparkOptions(devices, tasksPerDevice, memoryFraction, gpuMemory, outputRaw, progress,
                ms, stickyErrorOnGroup, failWriteOfGroup);
    }

    public SparkOptions withStickyErrorOnGroup(int group) {
        return new SparkOptions(devices, tasksPerDevice, memoryFraction, gpuMemory, outputRaw, progress,
                taskDelayMs, group, failWriteOfGroup);
    }

    public SparkOptions withMemoryFraction(double f) {
        return new SparkOptions(devices, tasksPerDevice, f, gpuMemory, outputRaw, progress,
                taskDelayMs, stickyErrorOnGroup, failWriteOfGroup);
    }
}
