package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.job.io.InputOptions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point for {@code spark-submit --class org.tomospark.job.spark.SparkMain}: arguments are
 * {@code key=value} settings (input=, output=, center=, filter=, backend=, slices=START:END, group.rows=,
 * resume=true, overwrite=true, job.*). The user-facing CLI builds the same {@link SparkJobSpec}.
 */
public final class SparkMain {
    private SparkMain() {
    }

    public static void main(String[] args) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("argument '" + a + "': expected key=value");
            kv.put(a.substring(0, eq).replaceFirst("^--", ""), a.substring(eq + 1));
        }
        SparkJobSpec spec = specOf(kv);
        SparkConf conf = new SparkConf();
        if (!conf.contains("spark.app.name")) conf.setAppName("tomospark");
        if (!conf.contains("spark.serializer")) TomoKryoRegistrator.configure(conf);
        SparkContext sc = SparkContext.getOrCreate(conf);
        try {
            SparkReconstruction.Result r = SparkReconstruction.run(sc, spec, SparkReconstruction.printer(System.out));
            System.out.print(r.summary());
        } finally {
            sc.stop();
        }
    }

    static String take(Map<String, String> kv, String key, String def) {
        String v = kv.remove(key);
        return v == null ? def : v;
    }

    /** Builds a spec from key=value settings; unknown keys are an error naming them. */
    public static SparkJobSpec specOf(Map<String, String> in) {
        Map<String, String> kv = new LinkedHashMap<>(in);
        Map<String, String> settings = Map.copyOf(in);
        String input = take(kv, "input", null), output = take(kv, "output", null);
        ReconstructionParams.Builder b = ReconstructionParams.builder();
        String c = take(kv, "center", "");
        if (!c.isBlank()) b.center(Double.parseDouble(c));
        b.filter(FilterSpec.of(FilterWindow.parse(take(kv, "filter", "ramlak"))));
        b.backend(take(kv, "backend", "auto"));
        BackendOptions bo = BackendOptions.defaults().withSlicesPerPass(Integer.parseInt(take(kv, "backend.slicesPerPass", "4")))
                .withThreads(Integer.parseInt(take(kv, "backend.threads", "0")));
        b.backendOptions(bo);
        String sl = take(kv, "slices", "");
        if (!sl.isBlank()) {
            String[] p = sl.split(":", -1);
            b.rows(Integer.parseInt(p[0].trim()), p[1].isBlank() ? -1 : Integer.parseInt(p[1].trim()));
        }
        b.groupRows(Integer.parseInt(take(kv, "group.rows", "0")));
        String a0 = take(kv, "angles.start", ""), da = take(kv, "angles.step", "");
        if (!a0.isBlank()) b.angles(Double.parseDouble(a0), Double.parseDouble(da));
        boolean resume = Boolean.parseBoolean(take(kv, "resume", "false"));
        boolean overwrite = Boolean.parseBoolean(take(kv, "overwrite", "false"));
        boolean preview = Boolean.parseBoolean(take(kv, "output.preview", "false"));
        String shape = take(kv, "job.input.raw.shape", "");
        InputOptions io = new InputOptions(take(kv, "job.input.format", "auto"), take(kv, "job.input.tiff.projections", null),
                take(kv, "job.input.tiff.flats", null), take(kv, "job.input.tiff.darks", null), take(kv, "job.input.tiff.theta", null),
                shape.isBlank() ? null : InputOptions.parseShape(shape), take(kv, "job.input.raw.dtype", null),
                take(kv, "job.input.raw.endian", "little").equalsIgnoreCase("big"), Long.parseLong(take(kv, "job.input.raw.offset", "0")),
                take(kv, "job.input.raw.flats", null), take(kv, "job.input.raw.darks", null), take(kv, "job.input.raw.theta", null));
        String devs = take(kv, "job.devices", "");
        List<String> devices = new ArrayList<>();
        for (String d : devs.split(",")) if (!d.isBlank()) devices.add(d.trim());
        SparkOptions so = new SparkOptions(devices, Integer.parseInt(take(kv, "job.tasksPerDevice", "1")),
                Double.parseDouble(take(kv, "job.memoryFraction", "0.5")), Long.parseLong(take(kv, "job.gpuMemory", "0")),
                Boolean.parseBoolean(take(kv, "job.output.raw", "false")), Boolean.parseBoolean(take(kv, "job.progress", "true")),
                Long.parseLong(take(kv, "job.test.taskDelayMs", "0")));
        if (!kv.isEmpty()) throw new IllegalArgumentException("unknown config key(s) " + kv.keySet());
        return new SparkJobSpec(input, output, b.build(), overwrite, resume, preview, io, so, settings);
    }
}
