package org.tomospark.job.batch;

import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.ExitCode;
import org.tomospark.job.spark.SparkMain;

import java.util.Map;

/**
 * Entry point for {@code spark-submit --class org.tomospark.job.batch.BatchMain}: a batch ({@code tomospark reprocess})
 * from {@code key=value} settings: {@code batch.inputs=}, {@code batch.outputRoot=}, {@code batch.table=}, and any
 * other key of conf/CONFIG.md as every scan's default. Exits with the batch's status ({@link ExitCode}).
 */
public final class BatchMain {
    private BatchMain() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (RuntimeException | Error e) {
            ExitCode c = ExitCode.of(e);
            System.err.println("error: " + e.getMessage());
            if (!c.expected()) e.printStackTrace();
            code = c.code();
        }
        System.exit(code);
    }

    static int run(String[] args) {
        Settings s = settings(args);
        SparkContext sc = SparkMain.submittedContext("tomospark reprocess");
        try {
            return Reprocess.run(sc, s, System.out).exitCode().code();
        } finally {
            sc.stop();
        }
    }

    /** The batch's settings from {@code key=value} arguments; an unknown key or a bad value names the key. */
    static Settings settings(String[] args) {
        BatchKeys.INPUTS.name(); // registers the keys
        Settings s = Settings.empty();
        for (Map.Entry<String, String> e : SparkMain.keyValues(args).entrySet()) s = s.with(e.getKey(), e.getValue());
        return s;
    }
}
