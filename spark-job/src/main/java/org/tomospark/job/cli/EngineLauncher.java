package org.tomospark.job.cli;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.batch.BatchReport;
import org.tomospark.job.batch.Reprocess;
import org.tomospark.job.local.ProgressBar;
import org.tomospark.job.run.JobRequest;
import org.tomospark.job.spark.ExecutorGpuPlugin;
import org.tomospark.job.spark.SparkKeys;
import org.tomospark.job.spark.SparkReconstruction;
import org.tomospark.job.spark.TomoKryoRegistrator;

import java.util.function.ToIntFunction;

/**
 * Starts the Spark engine (org.tomospark.job.spark). Under spark-submit the master and settings come from
 * spark-submit ({@code spark.master} is set); otherwise the job runs embedded with {@code local[*]} from the
 * project's own classpath, so no Spark install is needed.
 */
final class EngineLauncher {
    private EngineLauncher() {
    }

    static int runSpark(JobRequest req) {
        return withContext("tomospark " + req.input(), sc -> {
            ProgressBar bar = new ProgressBar(System.err);
            SparkReconstruction.Result r = SparkReconstruction.run(sc, SparkKeys.spec(req), bar::update);
            System.err.print(r.summary());
            return 0;
        });
    }

    /** A batch ({@code tomospark reprocess}) in one Spark application; returns its exit status. */
    static int runBatch(Settings settings) {
        return withContext("tomospark reprocess", sc -> {
            BatchReport report = Reprocess.run(sc, settings, System.err);
            return report.exitCode().code();
        });
    }

    static int withContext(String appName, ToIntFunction<SparkContext> work) {
        SparkConf conf = new SparkConf();
        if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
            conf.set("spark.driver.host", "127.0.0.1");
            conf.set("spark.ui.enabled", "false");
        }
        if (!conf.contains("spark.app.name")) conf.setAppName(appName);
        if (!conf.contains("spark.serializer")) TomoKryoRegistrator.configure(conf);
        ExecutorGpuPlugin.register(conf);
        // a context already active (a notebook's or a test's) is left running
        boolean running = SparkContext$.MODULE$.getActive().isDefined();
        SparkContext sc = SparkContext.getOrCreate(conf);
        try {
            return work.applyAsInt(sc);
        } finally {
            if (!running) sc.stop();
        }
    }
}
