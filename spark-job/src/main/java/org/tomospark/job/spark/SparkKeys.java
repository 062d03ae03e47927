package org.tomospark.job.spark;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.CoreKeys;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.JobKeys;
import org.tomospark.job.io.InputOptions;
import org.tomospark.job.local.JobRequest;

import java.util.ArrayList;
import java.util.List;

/** Config keys of the Spark engine and of the non-HDF5 inputs, and their translation into a {@link SparkJobSpec}. */
public final class SparkKeys {
    private SparkKeys() {
    }

    private static final String IN = "Input formats";
    private static final String SP = "Spark engine";

    static {
        JobKeys.INPUT.name(); // the job's and the core's keys are registered with these
    }

    public static final ConfigKey<String> INPUT_FORMAT = ConfigKey.of(IN, "job.input.format",
            "Input format: auto (by name: .h5/.hdf5/.nxs DataExchange, .raw/.bin raw binary; a directory is a TIFF stack), hdf5, tiff, raw.",
            "auto", s -> s.trim().toLowerCase(java.util.Locale.ROOT), s -> s.matches("auto|hdf5|tiff|raw"), "auto, hdf5, tiff, raw");
    public static final ConfigKey<String> TIFF_PROJECTIONS = ConfigKey.string(IN, "job.input.tiff.projections",
            "TIFF stack: glob of the projection files in the input directory, one projection per file, ordered by name.", "proj_*.tif");
    public static final ConfigKey<String> TIFF_FLATS = ConfigKey.string(IN, "job.input.tiff.flats",
            "TIFF stack: glob of the flat-field files (empty for none).", "flat_*.tif");
    public static final ConfigKey<String> TIFF_DARKS = ConfigKey.string(IN, "job.input.tiff.darks",
            "TIFF stack: glob of the dark-field files (empty for none).", "dark_*.tif");
    public static final ConfigKey<String> TIFF_THETA = ConfigKey.string(IN, "job.input.tiff.theta",
            "TIFF stack: text file of angles in degrees, one per line; if absent, give angles.start and angles.step.", org.tomospark.job.io.TiffStackSource.DEFAULT_THETA);
    public static final ConfigKey<int[]> RAW_SHAPE = ConfigKey.of(IN, "job.input.raw.shape",
            "Raw binary: PROJECTIONS,ROWS,COLUMNS of the [projection][row][column] data.", "",
            s -> s.isBlank() ? null : InputOptions.parseShape(s), v -> true, "empty or PROJECTIONS,ROWS,COLUMNS");
    public static final ConfigKey<String> RAW_DTYPE = ConfigKey.of(IN, "job.input.raw.dtype",
            "Raw binary: sample type.", "uint16", s -> s.trim().toLowerCase(java.util.Locale.ROOT), s -> s.matches("uint16|float32"),
            "uint16, float32");
    public static final ConfigKey<String> RAW_ENDIAN = ConfigKey.of(IN, "job.input.raw.endian",
            "Raw binary: byte order.", "little", s -> s.trim().toLowerCase(java.util.Locale.ROOT), s -> s.matches("little|big"), "little, big");
    public static final ConfigKey<Integer> RAW_OFFSET = ConfigKey.integer(IN, "job.input.raw.offset",
            "Raw binary: header bytes to skip at the start of each raw file.", 0, 0, Integer.MAX_VALUE);
    public static final ConfigKey<String> RAW_FLATS = ConfigKey.string(IN, "job.input.raw.flats",
            "Raw binary: URI of the flat frames [n][row][column], same type and header (empty for none).", "");
    public static final ConfigKey<String> RAW_DARKS = ConfigKey.string(IN, "job.input.raw.darks",
            "Raw binary: URI of the dark frames (empty for none).", "");
    public static final ConfigKey<String> RAW_THETA = ConfigKey.string(IN, "job.input.raw.theta",
            "Raw binary: URI of a text file of angles in degrees (empty: angles.start and angles.step).", "");

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
    public static final ConfigKey<Boolean> OUTPUT_RAW = ConfigKey.bool(SP, "job.output.raw",
            "Also write volume.raw: float32 little-endian [slice][y][x].", false);
    public static final ConfigKey<Boolean> PROGRESS = ConfigKey.bool(SP, "job.progress",
            "Print the driver's progress bar (slices done/total, GU/s, ETA).", true);
    public static final ConfigKey<Long> TEST_TASK_DELAY = ConfigKey.of(SP, "job.test.taskDelayMs",
            "Fault-injection for tests: every task sleeps this long before its group. Leave at 0.", "0", Long::parseLong,
            v -> v >= 0, "milliseconds >= 0").internal();

    public static InputOptions inputOptions(Settings s) {
        return new InputOptions(s.get(INPUT_FORMAT), s.get(TIFF_PROJECTIONS), s.get(TIFF_FLATS), s.get(TIFF_DARKS), s.get(TIFF_THETA),
                s.get(RAW_SHAPE), s.get(RAW_DTYPE), s.get(RAW_ENDIAN).equals("big"), s.get(RAW_OFFSET), s.get(RAW_FLATS),
                s.get(RAW_DARKS), s.get(RAW_THETA));
    }

    public static SparkOptions sparkOptions(Settings s) {
        List<String> devices = new ArrayList<>();
        for (String d : s.get(DEVICES).split(",")) if (!d.isBlank()) devices.add(d.trim());
        return new SparkOptions(devices, s.get(TASKS_PER_DEVICE), s.get(MEMORY_FRACTION), s.get(GPU_MEMORY), s.get(OUTPUT_RAW),
                s.get(PROGRESS), s.get(TEST_TASK_DELAY));
    }

    /** Settings from their map form ({@link SparkJobSpec#settings}); every key must be known. */
    public static Settings settings(java.util.Map<String, String> values) {
        Settings s = Settings.empty();
        for (java.util.Map.Entry<String, String> e : new java.util.TreeMap<>(values).entrySet()) s = s.with(e.getKey(), e.getValue());
        return s;
    }

    /** The spec of a request made by the CLI (or any Settings). */
    public static SparkJobSpec spec(JobRequest req) {
        Settings s = req.settings() == null ? Settings.empty() : req.settings();
        return new SparkJobSpec(req.input(), req.output(), req.params(), req.overwrite(), req.resume(), req.preview(),
                inputOptions(s), sparkOptions(s), s.asMap());
    }

    /** The spec from settings alone (spark-submit arguments). */
    public static SparkJobSpec spec(Settings s) {
        return spec(new JobRequest(s.get(JobKeys.INPUT), s.get(JobKeys.OUTPUT), CoreKeys.params(s), s.get(JobKeys.OVERWRITE),
                s.get(JobKeys.RESUME), s.get(JobKeys.PREVIEW), s));
    }
}
