package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.tomospark.job.fs.UserPaths;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.job.InputKeys;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.outputs.OutputOwnership;
import org.tomospark.job.fs.Json;
import org.tomospark.job.inputs.ProjectionInputs;
import org.tomospark.job.outputs.SliceWriter;
import org.tomospark.job.spark.GroupTask;

import java.io.PrintStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tomospark find-centers}: the centre of rotation of every scan of a batch's inputs by every automatic method,
 * one Spark task per scan, written as a table that {@code reprocess --table} reads: {@code {"FILE": {"center": C,
 * "scores": {"vo": {"center": .., "score": ..}, "correlation": {..}}}}}. The centre is the one of {@code center.method}
 * (vo by default); each method's score is its figure of merit ({@link CenterFinder.Result#score}). A scan whose centre
 * cannot be found gets an {@code error} instead, and no centre, so that the batch's own setting applies to it.
 */
public final class FindCenters {
    private FindCenters() {
    }

    /** The table written and whether every scan's centre was found. */
    public record Result(String table, Map<String, Object> entries, int failed) {
    }

    /** What a task needs: how to read the scans, the parameters of the search and the Hadoop settings. */
    private record Search(InputOptions inputOptions, ReconstructionParams params, Map<String, String> hadoopConf,
                          String chosen) implements Serializable {
    }

    public static Result run(SparkContext sc, Settings settings, String tableUri, PrintStream out) {
        if (tableUri == null || tableUri.isBlank())
            throw new IllegalArgumentException("find-centers: no output table given (--output)");
        Configuration conf = HadoopConf.tune(sc.hadoopConfiguration());
        Path table = UserPaths.path(tableUri, "find-centers --output");
        OutputOwnership.checkReplaceable(table, conf, FindCenters::isTable, "a table find-centers wrote",
                "choose another --output");
        List<String> warnings = new ArrayList<>();
        List<ScanInput> scans = new ScanInputs(conf, settings.get(BatchKeys.EXTENSIONS), warnings::add)
                .expand(ScanInputs.split(settings.get(BatchKeys.INPUTS)));
        for (String w : warnings) out.println("warning: " + w);
        Map<String, String> hconf = new HashMap<>();
        for (Map.Entry<String, String> e : conf) hconf.put(e.getKey(), e.getValue());
        Search search = new Search(InputKeys.inputOptions(settings), CoreKeys.params(settings), hconf,
                settings.get(CoreKeys.CENTER_METHOD).id());
        List<String> uris = new ArrayList<>();
        for (ScanInput s : scans) uris.add(s.uri());
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        jsc.setJobDescription("tomospark find-centers: " + uris.size() + " scans");
        // each entry comes back as JSON text, a type every serializer knows
        List<String> found = jsc.parallelize(uris, Math.max(1, uris.size())).map(u -> find(u, search)).collect();
        Map<String, Object> entries = new LinkedHashMap<>();
        int failed = 0;
        out.printf(Locale.ROOT, "%-30s %10s  %s%n", "scan", "centre", "scores");
        for (int i = 0; i < scans.size(); i++) {
            Map<String, Object> e = Json.read(found.get(i).getBytes(StandardCharsets.UTF_8), "find-centers result");
            entries.put(scans.get(i).fileName(), e);
            if (e.containsKey("error")) failed++;
            Object center = e.containsKey("center") ? e.get("center") : "-";
            out.printf(Locale.ROOT, "%-30s %10s  %s%n", scans.get(i).fileName(), center,
                    e.containsKey("error") ? "error: " + e.get("error") : e.get("scores"));
        }
        SliceWriter w = new SliceWriter(table.getParent().toString(), conf);
        w.writeBytes(table.getName(), Json.write(entries));
        w.cleanTemporary();
        out.printf("wrote %s: %d scans, %d without a centre%n", tableUri, scans.size(), failed);
        return new Result(tableUri, entries, failed);
    }

    /** Whether a JSON object is a table this command wrote: each entry a scan's centre and scores, or its error. */
    static boolean isTable(Map<String, Object> m) {
        for (Object v : m.values())
            if (!(v instanceof Map<?, ?> e) || !(e.containsKey("scores") || e.containsKey("error"))) return false;
        return true;
    }

    /** One scan, on an executor: every method's centre and score. */
    private static String find(String uri, Search search) {
        Map<String, Object> entry = new LinkedHashMap<>();
        Configuration conf = GroupTask.hadoopConf(search.hadoopConf());
        try (ProjectionSource src = ProjectionInputs.open(uri, search.inputOptions(), conf)) {
            Map<String, Object> scores = new LinkedHashMap<>();
            for (CenterFinder.Method m : CenterFinder.Method.values()) {
                ReconstructionParams p = search.params().toBuilder()
                        .workflow(search.params().workflow().withCenterMethod(m)).build();
                CenterFinder.Result r = Workflow.resolveCenter(src, p).found();
                scores.put(m.id(), Map.of("center", r.center(), "score", r.score(), "method", r.method().id()));
                if (m.id().equals(search.chosen())) entry.put("center", r.center());
            }
            entry.put("scores", scores);
        } catch (RuntimeException e) {
            entry.clear();
            entry.put("error", e.getMessage() == null ? e.toString() : e.getMessage());
        }
        return new String(Json.write(entry), StandardCharsets.UTF_8);
    }
}
