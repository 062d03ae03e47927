package org.tomospark.job.cli;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.BatchReport;
import org.tomospark.job.batch.Reprocess;
import org.tomospark.job.local.ProgressBar;
import org.tomospark.job.run.JobRequest;
import org.tomospark.job.spark.SparkKeys;
import org.tomospark.job.spark.SparkReconstruction;
import org.tomospark.job.spark.SparkStart;
import org.tomospark.job.spark.YarnGpus;

import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Starts the Spark engine (org.tomospark.job.spark). Under spark-submit the master and settings come from
 * spark-submit ({@code spark.master} is set); otherwise the job runs embedded with {@code local[*]} from the
 * project's own classpath, so no Spark install is needed.
 */
final class EngineLauncher {
    private EngineLauncher() {
    }

    /**
     * A reconstruction on the Spark engine, on {@code early} where the command line began starting Spark before it was
     * parsed (null: started here); the context is stopped at the end either way.
     */
    static int runSpark(JobRequest req, SparkStart early) {
        SparkStart start = early != null ? early : SparkStart.begin(() -> SparkStart.settings(appName(req.input())),
                YarnGpus.beforeStart(req.params().algorithm().backend()));
        try {
            ProgressBar bar = new ProgressBar(System.err);
            SparkReconstruction.Result r = SparkReconstruction.run(start, SparkKeys.spec(req), bar::update, true);
            System.err.print(r.summary());
            return 0;
        } finally {
            start.stop();
        }
    }

    static String appName(String input) {
        return "tomospark " + input;
    }

    /**
     * A batch ({@code tomospark reprocess}) in one Spark application; returns its exit status. On YARN what its scans'
     * backend needs is checked before the application is submitted ({@link #batchBackend}).
     */
    static int runBatch(Settings settings) {
        return withContext("tomospark reprocess", YarnGpus.beforeStart(batchBackend(settings)), sc -> {
            BatchReport report = Reprocess.run(sc, settings, System.err);
            return report.exitCode().code();
        });
    }

    /**
     * The backend that every scan of a batch runs on, as far as the command knows before its context starts: the
     * batch's own where no table is given; "auto" where a table may give scans other backends, so that before the start
     * only what no scan could pass is checked (executor GPUs YARN cannot give), and each scan's backend as it is planned.
     */
    static String batchBackend(Settings settings) {
        return settings.get(BatchKeys.TABLE).isBlank() ? settings.get(CoreKeys.BACKEND) : "auto";
    }

    /** Runs {@code work} on the command line's context ({@link SparkStart#settings}); a context already active is left running. */
    static int withContext(String appName, ToIntFunction<SparkContext> work) {
        return withContext(appName, sconf -> { }, work);
    }

    /** As above, {@code beforeStart} checking the settings before a context is started (not one already active). */
    static int withContext(String appName, Consumer<SparkConf> beforeStart, ToIntFunction<SparkContext> work) {
        SparkStart start = SparkStart.begin(() -> SparkStart.settings(appName), beforeStart);
        try {
            return work.applyAsInt(start.context());
        } finally {
            start.stop();
        }
    }
}
