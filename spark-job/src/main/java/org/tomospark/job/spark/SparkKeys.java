package org.tomospark.job.spark;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.InputKeys;
import org.tomospark.job.JobKeys;
import org.tomospark.job.outputs.OptionNames;
import org.tomospark.job.run.JobRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Config keys of the Spark engine, and the translation of settings into a {@link SparkJobSpec}. */
public final class SparkKeys {
    private SparkKeys() {
    }

    private static final String SP = "Spark engine";

    static {
        InputKeys.INPUT_FORMAT.name(); // the core's, the job's and the input formats' keys are registered before these
    }

    public static final ConfigKey<String> DEVICES = ConfigKey.string(SP, "job.devices",
            "GPU addresses for Spark local mode (which cannot give tasks GPUs), comma-separated; one device per concurrent task. "
                    + "Empty: spark.driver.resource.gpu addresses if any. On a cluster, tasks use spark.task.resource.gpu.", "");
    public static final ConfigKey<Integer> TASKS_PER_DEVICE = ConfigKey.integer(SP, "job.tasksPerDevice",
            "Tasks of one executor JVM that may use one GPU at once (each holds its own processor and buffers on it). A task "
                    + "holds the GPU only while it corrects, filters and back-projects: reading and writing overlap anyway; "
                    + "2 also overlaps one task's host copies with another's kernels.", 2, 1, 64);
    public static final ConfigKey<Double> MEMORY_FRACTION = ConfigKey.decimal(SP, "job.memoryFraction",
            "Share of the executor heap (less Spark's 300 MiB) the memory planner lets the concurrent tasks use.", "0.5", 0.01, 1);
    public static final ConfigKey<Long> GPU_MEMORY = ConfigKey.of(SP, "job.gpuMemory",
            "Memory of one GPU in bytes for the memory planner; 0 when unknown (not checked).", "0", Long::parseLong, v -> v >= 0,
            "bytes >= 0");
    public static final ConfigKey<Boolean> PROGRESS = ConfigKey.bool(SP, "job.progress",
            "Print the driver's progress bar (slices done/total, GU/s, ETA).", true);
    public static final ConfigKey<Long> TEST_TASK_DELAY = ConfigKey.of(SP, "job.test.taskDelayMs",
            "Fault-injection for tests: every task sleeps this long before its group. Leave at 0.", "0", Long::parseLong,
            v -> v >= 0, "milliseconds >= 0").internal();
    public static final ConfigKey<Integer> TEST_STICKY_ERROR_ON_GROUP = ConfigKey.integer(SP, "job.test.stickyErrorOnGroup",
            "Fault-injection for tests: the first attempt of this slice group fails as a task does on a broken GPU (a sticky "
                    + "CUDA error), which stops its executor (ExecutorGpuPlugin). -1: never.", -1, -1, Integer.MAX_VALUE)
            .internal();
    public static final ConfigKey<Integer> TEST_FAIL_WRITE_OF_GROUP = ConfigKey.integer(SP, "job.test.failWriteOfGroup",
            "Fault-injection for tests: the first attempt of this slice group fails halfway through committing its "
                    + "slices, as a task killed mid-write, leaving a slice's file half-written under its temporary name. "
                    + "-1: never.", -1, -1, Integer.MAX_VALUE).internal();

    public static SparkOptions sparkOptions(Settings s) {
        List<String> devices = new ArrayList<>();
        for (String d : s.get(DEVICES).split(",")) if (!d.isBlank()) devices.add(d.trim());
        return new SparkOptions(devices, s.get(TASKS_PER_DEVICE), s.get(MEMORY_FRACTION), s.get(GPU_MEMORY),
                s.get(JobKeys.OUTPUT_RAW), s.get(PROGRESS), s.get(TEST_TASK_DELAY), s.get(TEST_STICKY_ERROR_ON_GROUP),
                s.get(TEST_FAIL_WRITE_OF_GROUP));
    }

    /** Settings from their map form ({@link SparkJobSpec#settings}); every key must be known. */
    public static Settings settings(Map<String, String> values) {
        Settings s = Settings.empty();
        for (Map.Entry<String, String> e : new TreeMap<>(values).entrySet()) s = s.with(e.getKey(), e.getValue());
        return s;
    }

    /** The spec of a request made by the CLI (or any Settings). */
    public static SparkJobSpec spec(JobRequest req) {
        Settings s = req.settings() == null ? Settings.empty() : req.settings();
        return new SparkJobSpec(req.input(), req.output(), req.params(), req.overwrite(), req.resume(), req.preview(),
                InputKeys.inputOptions(s), sparkOptions(s), s.asMap(), req.names());
    }

    /** The spec from settings alone (spark-submit arguments). */
    public static SparkJobSpec spec(Settings s) {
        return spec(s, OptionNames.CLI);
    }

    /** The spec from settings, its errors naming the options as {@code names} does (the notebook API's methods). */
    public static SparkJobSpec spec(Settings s, OptionNames names) {
        return spec(new JobRequest(s.get(JobKeys.INPUT), s.get(JobKeys.OUTPUT), CoreKeys.params(s), s.get(JobKeys.OVERWRITE),
                s.get(JobKeys.RESUME), s.get(JobKeys.PREVIEW), s, names));
    }
}
