package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.job.ExitCode;
import org.tomospark.job.JobKeys;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.OutputMismatchException;
import org.tomospark.job.fs.RealPaths;
import org.tomospark.job.spark.SparkJobSpec;
import org.tomospark.job.spark.SparkKeys;
import org.tomospark.job.spark.SparkReconstruction;

import java.util.Map;

/**
 * One scan of a batch, as a Spark reconstruction into its own output folder ({@link SparkReconstruction}, with its
 * claim, checks, resume and commit). The scan always runs as {@code --resume}: an output that already holds this
 * run is left untouched, an unfinished one of this run is finished, a new one is reconstructed. An output made with
 * other parameters is replaced only when the batch overwrites, or when its version is below the batch's
 * {@code batch.redoIfVersionBelow}. Every failure becomes the scan's outcome; nothing is thrown.
 */
final class ScanRun {
    /** What the batch does with existing outputs. */
    record Policy(boolean overwrite, String redoIfVersionBelow) {
    }

    private final SparkContext sc;
    private final Configuration conf;
    private final String root;
    private final Policy policy;

    ScanRun(SparkContext sc, Configuration conf, String root, Policy policy) {
        this.sc = sc;
        this.conf = conf;
        this.root = root;
        this.policy = policy;
    }

    String outputOf(ScanInput scan) {
        return root.endsWith("/") ? root + scan.name() : root + "/" + scan.name();
    }

    /** Runs a scan with the batch's settings and the table's overrides for it. */
    ScanOutcome run(ScanInput scan, Settings batch, ScanTable table, VolumeReconstructor.Progress progress) {
        long t0 = System.nanoTime();
        String out = outputOf(scan);
        try {
            checkContained(out);
            Settings settings = table.apply(batch, scan);
            SparkJobSpec spec = SparkKeys.spec(settings.with(JobKeys.INPUT.name(), scan.uri())
                    .with(JobKeys.OUTPUT.name(), out));
            OutputCommit.State before = new OutputCommit(out, conf).state();
            String old = before.complete() && !policy.redoIfVersionBelow().isEmpty() ? madeBy(out) : null;
            if (old != null && VersionOrder.compare(old, policy.redoIfVersionBelow()) < 0) {
                String why = "made by tomospark " + old + ", below " + policy.redoIfVersionBelow()
                        + " (batch.redoIfVersionBelow)";
                return done(scan, out, ScanStatus.REDONE, why, run(spec.withOverwrite(true), progress), t0);
            }
            SparkReconstruction.Result r;
            try {
                r = run(spec.withResume(true), progress);
            } catch (OutputMismatchException e) {
                if (!policy.overwrite())
                    return new ScanOutcome(scan, out, ScanStatus.OUTDATED, e.getMessage(), 0, 0, Double.NaN, Double.NaN,
                            seconds(t0), null, ExitCode.OK.code());
                return done(scan, out, ScanStatus.REDONE, e.getMessage(), run(spec.withOverwrite(true), progress), t0);
            }
            ScanStatus status = before.complete() && r.slicesComputed() == 0 ? ScanStatus.SKIPPED
                    : before.empty() ? ScanStatus.RECONSTRUCTED : ScanStatus.RESUMED;
            return done(scan, out, status, null, r, t0);
        } catch (RuntimeException | FSError e) {
            ExitCode code = ExitCode.of(e);
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            return new ScanOutcome(scan, out, ScanStatus.FAILED, null, 0, 0, Double.NaN, Double.NaN, seconds(t0), msg,
                    code.code());
        }
    }

    /**
     * Refuses a scan whose output folder is not, after links, inside the output root (a link in the root to a folder
     * elsewhere): a batch writes, and replaces, only inside its root.
     */
    private void checkContained(String out) {
        Path realRoot = RealPaths.of(root, conf), real = RealPaths.of(out, conf);
        if (!RealPaths.strictlyWithin(real, realRoot))
            throw new IllegalArgumentException(out + ": the scan's output folder leads to " + RealPaths.show(real) + " (a "
                    + "link), outside the output root " + RealPaths.show(realRoot) + "; a batch writes only inside its output "
                    + "root, so this scan is left as it is: remove the link, or reconstruct the scan on its own with --output");
    }

    private SparkReconstruction.Result run(SparkJobSpec spec, VolumeReconstructor.Progress progress) {
        return SparkReconstruction.run(sc, spec, progress);
    }

    /** The version of tomospark that made a complete output, from its manifest; null when it does not say. */
    private String madeBy(String out) {
        byte[] manifest = new OutputCommit(out, conf).read(OutputCommit.MANIFEST);
        Map<String, Object> m = Json.read(manifest, out + "/" + OutputCommit.MANIFEST);
        if (!(m.get("software") instanceof Map<?, ?> sw) || sw.get("version") == null) return null;
        return String.valueOf(sw.get("version"));
    }

    private static ScanOutcome done(ScanInput scan, String out, ScanStatus status, String reason,
                                    SparkReconstruction.Result r, long t0) {
        Map<String, Object> rep = r.report();
        double center = rep.get("centerOfRotation") instanceof Number n ? n.doubleValue() : Double.NaN;
        double gups = Double.NaN;
        if (r.slicesComputed() > 0 && rep.get("timings") instanceof Map<?, ?> t && t.get("gups") instanceof Number g)
            gups = g.doubleValue();
        return new ScanOutcome(scan, out, status, reason, r.slicesTotal(), r.slicesComputed(), center, gups,
                seconds(t0), null, ExitCode.OK.code());
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
