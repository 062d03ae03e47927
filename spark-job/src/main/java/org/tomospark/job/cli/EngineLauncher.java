package org.tomospark.job.cli;

import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.batch.BatchReport;
import org.tomospark.job.batch.Reprocess;
import org.tomospark.job.local.ProgressBar;
import org.tomospark.job.run.JobRequest;
import org.tomospark.job.spark.SparkKeys;
import org.tomospark.job.spark.SparkReconstruction;
import org.tomospark.job.spark.SparkStart;
import org.tomospark.job.spark.YarnGpus;

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

    /** A batch ({@code tomospark reprocess}) in one Spark application; returns its exit status. */
    static int runBatch(Settings settings) {
        return withContext("tomospark reprocess", sc -> {
            BatchReport report = Reprocess.run(sc, settings, System.err);
            return report.exitCode().code();
        });
    }

    /** Runs {@code work} on the command line's context ({@link SparkStart#settings}); a context already active is left running. */
    static int withContext(String appName, ToIntFunction<SparkContext> work) {
        SparkStart start = SparkStart.begin(() -> SparkStart.settings(appName));
        try {
            return work.applyAsInt(start.context());
        } finally {
            start.stop();
        }
    }
}
