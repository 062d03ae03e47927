package org.tomospark.job.batch;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.job.spark.SparkKeys;

import java.util.Locale;

/** Keys of {@code tomospark reprocess}: which scans, where their outputs go, the per-scan table and the policy. */
public final class BatchKeys {
    private BatchKeys() {
    }

    private static final String BATCH = "Batch reprocessing";

    static {
        SparkKeys.DEVICES.name(); // every other key is registered before these
    }

    public static final ConfigKey<String> INPUTS = ConfigKey.string(BATCH, "batch.inputs",
            "The scans of a batch, separated by ';': each a folder (its files named *.EXT, batch.extensions), a "
                    + "Hadoop glob (hdfs://nn/scans/2026-*/scan_*.h5), a list file written @FILE (one scan per line, "
                    + "# comments) or one scan. Any Hadoop file system.", "");
    public static final ConfigKey<String> OUTPUT_ROOT = ConfigKey.string(BATCH, "batch.outputRoot",
            "Where a batch writes: one output folder per scan, named by the scan's file name without its extension "
                    + "(scan_001.h5 -> ROOT/scan_001), with batch-report.json and the batch's claim (_lock).", "");
    public static final ConfigKey<String> TABLE = ConfigKey.string(BATCH, "batch.table",
            "Per-scan parameters overriding the batch's: a CSV file (header 'file,KEY,...', one row per scan, "
                    + "empty cell: no override), a JSON object {\"FILE\": {\"KEY\": VALUE, ...}} or "
                    + "{\"FILE\": CENTRE}, or tomopy-cli's rotation_axis.json ({\"0\": {\"FILE\": CENTRE}, ...}). "
                    + "FILE is the scan's file name or its full path.", "");
    public static final ConfigKey<String> EXTENSIONS = ConfigKey.of(BATCH, "batch.extensions",
            "File name extensions that make a file in an input folder a scan, comma-separated.", "h5,hdf5,hdf,nxs",
            s -> s.replace(" ", "").toLowerCase(Locale.ROOT), s -> s.matches("[a-z0-9_]+(,[a-z0-9_]+)*"),
            "comma-separated extensions without dots");
    public static final ConfigKey<Integer> SCANS_IN_FLIGHT = ConfigKey.integer(BATCH, "batch.scansInFlight",
            "Scans whose Spark jobs run at once. Their slice groups share the cluster (a small scan's tasks fill "
                    + "the slots a large one leaves free); the driver holds the metadata and flats/darks of only these "
                    + "scans.", 2, 1, 64);
    public static final ConfigKey<String> REDO_IF_VERSION_BELOW = ConfigKey.of(BATCH, "batch.redoIfVersionBelow",
            "Reconstruct again a complete output whose manifest says it was made by a tomospark version below this one "
                    + "(e.g. 0.2.0); empty: never.", "", String::trim,
            s -> s.isEmpty() || s.matches("\\d+(\\.\\d+)*.*"), "a version such as 0.2.0");
}
