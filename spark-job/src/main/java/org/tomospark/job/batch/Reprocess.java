package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.job.JobKeys;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.KerberosCredentials;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputLock;
import org.tomospark.job.outputs.SliceWriter;
import org.tomospark.job.spark.SparkKeys;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code tomospark reprocess}: every scan of some folders, globs or list files reconstructed into its own folder under
 * one output root, in one Spark application. The driver runs {@code batch.scansInFlight} scans at once, each a Spark
 * job of its own (submitted from its own driver thread), so the slice groups of several scans share the executors with
 * no barrier between scans, and the driver holds the plans of only those scans. Each scan is resumable and idempotent
 * by its output's own claim and run signature ({@link ScanRun}); a scan that fails is recorded and the others go on.
 * The batch claims its output root ({@code _lock}), so that two overlapping batches cannot both write, and ends with
 * {@code batch-report.json} and a printed table.
 */
public final class Reprocess {
    private static final Logger LOG = LoggerFactory.getLogger(Reprocess.class);

    private Reprocess() {
    }

    /**
     * Runs a batch from its settings: the batch keys ({@link BatchKeys}), {@code overwrite}, and every other key as the
     * default of each scan (the table overrides them per scan). Throws when the batch itself cannot run (bad settings,
     * no scans, a bad table, the output root claimed by another batch); a scan's failure is in the report.
     */
    public static BatchReport run(SparkContext sc, Settings settings, PrintStream out) {
        long t0 = System.nanoTime();
        String started = Instant.now().toString();
        String root = settings.get(BatchKeys.OUTPUT_ROOT);
        if (root.isBlank())
            throw new IllegalArgumentException("batch.outputRoot: no output root given (--output-root)");
        for (var key : List.of(JobKeys.INPUT, JobKeys.OUTPUT, CoreKeys.CENTER_SWEEP, CoreKeys.TV_WEIGHT_SWEEP))
            if (settings.isSet(key))
                throw new IllegalArgumentException("config key " + key.name() + " is not for a batch: give the scans "
                        + "with batch.inputs and the output root with batch.outputRoot");
        if (settings.get(JobKeys.RESUME))
            throw new IllegalArgumentException("config key resume: a batch always resumes unfinished outputs; "
                    + "leave it unset");
        Settings scanDefaults = settings.with(JobKeys.OVERWRITE.name(), "false");
        CoreKeys.params(scanDefaults); // the batch's own parameters are valid before any scan runs
        Configuration conf = HadoopConf.tune(sc.hadoopConfiguration());
        List<String> touched = new ArrayList<>(ScanInputs.split(settings.get(BatchKeys.INPUTS)));
        touched.add(root);
        touched.add(settings.get(BatchKeys.TABLE));
        KerberosCredentials.require(conf, touched);
        List<String> warnings = new ArrayList<>();
        List<ScanInput> scans = new ScanInputs(conf, settings.get(BatchKeys.EXTENSIONS), warnings::add, root)
                .expand(ScanInputs.split(settings.get(BatchKeys.INPUTS)));
        BatchReport.checkReplaceable(root, conf);
        String tablePath = settings.get(BatchKeys.TABLE);
        ScanTable table = tablePath.isBlank() ? ScanTable.empty() : ScanTable.read(tablePath, conf);
        for (String f : table.unmatched(scans))
            warnings.add("batch.table " + tablePath + ": '" + f + "' names no scan of this batch");
        for (String w : warnings) LOG.warn(w);
        boolean progress = settings.get(SparkKeys.PROGRESS);
        // the scans' own bars would interleave: the batch prints one over all of them
        Settings perScan = scanDefaults.with(SparkKeys.PROGRESS.name(), Boolean.toString(progress));
        ScanRun runner = new ScanRun(sc, conf, root, new ScanRun.Policy(settings.get(JobKeys.OVERWRITE),
                settings.get(BatchKeys.REDO_IF_VERSION_BELOW)));
        Duration staleAfter = Duration.ofSeconds(settings.get(JobKeys.LOCK_TIMEOUT));
        int inFlight = settings.get(BatchKeys.SCANS_IN_FLIGHT);
        String claimant = "tomospark reprocess of " + scans.size() + " scans, application " + sc.applicationId();
        try (OutputLock lock = OutputLock.claim(new Path(root), conf, staleAfter, claimant)) {
            out.printf("reprocess: %d scans into %s, %d at a time%n", scans.size(), root, inFlight);
            BatchProgress bar = progress ? new BatchProgress(out, scans.size()) : null;
            List<ScanOutcome> outcomes = runAll(scans, inFlight, scan -> {
                lock.ensureHeld();
                VolumeReconstructor.Progress p = bar == null ? null : bar.of(scan.name());
                ScanOutcome o = runner.run(scan, perScan, table, p);
                if (bar != null) bar.finished(scan.name());
                return o;
            });
            BatchReport report = new BatchReport(root, started, (System.nanoTime() - t0) / 1e9, outcomes, warnings);
            lock.ensureHeld();
            SliceWriter w = new SliceWriter(root, conf);
            w.writeBytes(BatchReport.NAME, Json.write(report.toMap()));
            w.cleanTemporary();
            out.print(report.table());
            out.flush();
            return report;
        }
    }

    /** One scan's work, run on a driver thread. */
    interface ScanWork {
        ScanOutcome run(ScanInput scan);
    }

    /**
     * Runs the scans on {@code inFlight} driver threads, in the order given, and returns their outcomes in that order.
     * A scan is submitted only when a thread is free, so at most {@code inFlight} scans are planned or running at once.
     */
    static List<ScanOutcome> runAll(List<ScanInput> scans, int inFlight, ScanWork work) {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight, r -> {
            Thread t = new Thread(r, "tomospark-batch-scan");
            t.setDaemon(true);
            return t;
        });
        CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
        ScanOutcome[] outcomes = new ScanOutcome[scans.size()];
        try {
            int next = 0, running = 0;
            while (next < scans.size() || running > 0) {
                while (running < inFlight && next < scans.size()) {
                    int i = next++;
                    done.submit(() -> {
                        outcomes[i] = work.run(scans.get(i));
                        return i;
                    });
                    running++;
                }
                Future<Integer> f = done.take();
                running--;
                f.get();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted; finished scans are committed, run the batch again to do the "
                    + "rest", e);
        } catch (ExecutionException e) {
            pool.shutdownNow();
            // a scan's own failure is its outcome: what ends here is the batch's (its claim on the output root lost)
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new RunFailedException("the batch stopped: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdown();
        }
        return List.of(outcomes);
    }
}
