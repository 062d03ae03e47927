package org.tomospark.job.spark;

import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.ExitCode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point for {@code spark-submit --class org.tomospark.job.spark.SparkMain}: arguments are
 * {@code key=value} settings (input=, output=, center=, filter=, backend=, slices=START:END, group.rows=,
 * resume=true, overwrite=true, job.*). The user-facing CLI builds the same {@link SparkJobSpec}.
 */
public final class SparkMain {
    private SparkMain() {
    }

    /** Exits with the status of {@link ExitCode}, after one "error: …" line on failure. */
    public static void main(String[] args) {
        try {
            run(args);
        } catch (RuntimeException | Error e) {
            ExitCode code = ExitCode.of(e);
            System.err.println("error: " + e.getMessage());
            if (!code.expected()) e.printStackTrace();
            System.exit(code.code());
        }
    }

    static void run(String[] args) {
        SparkJobSpec spec = specOf(keyValues(args));
        // Spark starts while the driver opens the input and plans; on YARN once the GPU settings are checked
        SparkStart start = SparkStart.begin(() -> SparkStart.settings("tomospark"),
                YarnGpus.beforeStart(spec.params().algorithm().backend()));
        try {
            SparkReconstruction.Result r = SparkReconstruction.run(start, spec, SparkReconstruction.printer(System.out), true);
            System.out.print(r.summary());
        } finally {
            start.stop();
        }
    }

    /**
     * The application's context under spark-submit: the master and settings are spark-submit's; the name, Kryo with the
     * job's registrator and the executor plugin are added where not given ({@link SparkStart#settings}).
     */
    public static SparkContext submittedContext(String appName) {
        return SparkContext.getOrCreate(SparkStart.settings(appName));
    }

    /** The {@code key=value} arguments of a spark-submit entry point, in order (a leading "--" is dropped). */
    public static Map<String, String> keyValues(String[] args) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("argument '" + a + "': expected key=value");
            kv.put(a.substring(0, eq).replaceFirst("^--", ""), a.substring(eq + 1));
        }
        return kv;
    }

    /** Builds a spec from key=value settings (the keys of conf/CONFIG.md); unknown keys are an error naming them. */
    public static SparkJobSpec specOf(Map<String, String> kv) {
        SparkKeys.DEVICES.name(); // registers the keys
        Settings s = Settings.empty();
        for (Map.Entry<String, String> e : kv.entrySet()) s = s.with(e.getKey(), e.getValue());
        return SparkKeys.spec(s);
    }
}
