package org.tomospark.job;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.params.CoreKeys;
import java.util.Locale;

/** Keys of the job itself: input, output, commit policy, engine and the built-in demo dataset. */
public final class JobKeys {
    private JobKeys() {
    }

    private static final String IO = "Input and output";
    private static final String RUN = "Running";
    private static final String DEMO = "Demo dataset";
    private static final String KERBEROS = "Kerberos";

    static {
        // make sure the algorithm keys are registered whenever the job's are
        CoreKeys.CENTER.name();
    }

    public static final ConfigKey<String> INPUT = ConfigKey.string(IO, "input",
            "Input scan URI (hdfs://, file:// or a path): a DataExchange HDF5 file, a directory of TIFF projections or a raw "
                    + "binary file (job.input.format), or 'demo' for the built-in phantom.", "");
    public static final ConfigKey<String> OUTPUT = ConfigKey.string(IO, "output",
            "Output directory URI; slices are written as slice_NNNNN.tif (float32), numbered by detector row.", "");
    public static final ConfigKey<Boolean> OVERWRITE = ConfigKey.bool(IO, "overwrite",
            "Replace an existing reconstruction in the output directory.", false);
    public static final ConfigKey<Boolean> RESUME = ConfigKey.bool(IO, "resume",
            "Keep slices already committed in the output and compute only the missing ones.", false);
    public static final ConfigKey<Boolean> PREVIEW = ConfigKey.bool(IO, "output.preview",
            "Write preview.png next to the slices: the central XY slice and the central XZ and YZ planes of the volume, "
                    + "with the grey range printed on it.", true);

    public static final ConfigKey<Boolean> OUTPUT_RAW = ConfigKey.bool(IO, "job.output.raw",
            "Also write volume.raw: float32 little-endian [slice][y][x], streamed from the committed slices once every slice "
                    + "is committed (either engine).", false);

    public static final ConfigKey<Integer> LOCK_TIMEOUT = ConfigKey.integer(IO, "job.output.lockTimeout",
            "Seconds without a heartbeat after which a run may take over the claim (_lock) that another run holds on the "
                    + "output, because that run died on another host. A claim whose process has exited on this host is "
                    + "taken over at once; a live one never is: the second run is refused.", 120, 2, 86400);

    public static final ConfigKey<String> ENGINE = ConfigKey.of(RUN, "engine",
            "direct: reconstruct in this JVM without Spark; spark: run as a Spark job.", "direct",
            s -> s.trim().toLowerCase(Locale.ROOT), s -> s.equals("direct") || s.equals("spark"), "direct, spark");

    public static final ConfigKey<Integer> DIRECT_GROUPS_PER_DEVICE = ConfigKey.integer(RUN, "direct.groupsPerDevice",
            "Slice groups the direct engine processes at once on its GPU (CUDA backend), each with its own processor and "
                    + "pipeline: one group's host work and its pipeline's fill and drain overlap another's kernels, as "
                    + "job.tasksPerDevice does for Spark's tasks; at most one per four groups of the run (on fewer, a processor's "
                    + "set-up costs more than it overlaps). Two by default: each group's pipeline fills and drains once, and a "
                    + "second group's chunks keep the device busy meanwhile (2048^3 on an H200: 6.8-6.9 s of command-line "
                    + "wall with two, 7.4-8.3 s with one). Other backends process one group at a time.", 2, 1, 8);

    public static final ConfigKey<Integer> DEMO_WIDTH = ConfigKey.integer(DEMO, "demo.width",
            "Detector columns of the demo phantom scan.", 512, 8, 8192);
    public static final ConfigKey<Integer> DEMO_ROWS = ConfigKey.integer(DEMO, "demo.rows",
            "Detector rows (slices) of the demo scan.", 32, 1, 8192);
    public static final ConfigKey<Integer> DEMO_PROJECTIONS = ConfigKey.integer(DEMO, "demo.projections",
            "Projections of the demo scan over demo.range degrees.", 512, 2, 100000);
    public static final ConfigKey<Boolean> DEMO_NOISE = ConfigKey.bool(DEMO, "demo.noise",
            "Add Poisson noise to the demo counts.", true);
    public static final ConfigKey<Double> DEMO_RANGE = ConfigKey.of(DEMO, "demo.range",
            "Angular range of the demo scan in degrees: 180, or 360 (with a large demo.axisOffset: a half-acquisition scan).",
            "180", Double::parseDouble, v -> v == 180 || v == 360, "180 or 360");
    public static final ConfigKey<Double> DEMO_AXIS_OFFSET = ConfigKey.decimal(DEMO, "demo.axisOffset",
            "Rotation axis minus detector centre of the demo scan, in pixels.", "0", -1e4, 1e4);

    public static final ConfigKey<String> KERBEROS_PRINCIPAL = ConfigKey.of(KERBEROS, "kerberos.principal",
            "Kerberos principal the command line logs in as, from kerberos.keytab, before it touches a file system "
                    + "(reconstruct and reprocess, direct engine and embedded Spark): for a scheduled job against a "
                    + "kerberized HDFS. Both keys or neither; neither: the ticket of kinit, if any. The cluster's "
                    + "core-site.xml and hdfs-site.xml (HADOOP_CONF_DIR) must be on the classpath. Under spark-submit "
                    + "leave it empty and give spark-submit --principal and --keytab, which also renew the executors' "
                    + "delegation tokens.", "", String::trim, s -> !s.matches(".*\\s.*"), "a principal such as tomo@FACILITY.ORG");
    public static final ConfigKey<String> KERBEROS_KEYTAB = ConfigKey.of(KERBEROS, "kerberos.keytab",
            "Local keytab file holding kerberos.principal's keys; it must exist and be readable by the user of the run. "
                    + "Under spark-submit use its --keytab instead.", "", String::trim, s -> true, "");
}
