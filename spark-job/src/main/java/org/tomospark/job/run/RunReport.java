package org.tomospark.job.run;

import org.tomospark.executor.backend.PipelineTimes;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.fourier.Gridrec;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The JSON run report written next to the output, and its human-readable summary. */
public final class RunReport {
    private RunReport() {
    }

    /**
     * Times that both engines report: the run's wall time (command start to finish), the job (the reconstruction
     * itself), the centre search, and the time spent writing and committing slices (summed over the threads or
     * tasks that wrote them), and how long the JVM had been running when the engine started (in a fresh command:
     * the JVM's start, class loading, the command line and, for the Spark engine, the Spark context).
     */
    /**
     * @param slicesFromFrames slices whose files were written from their frames as they were (no encoding); −1: not counted
     * @param beforeJob        the engine's steps before its job, in order, with their seconds (none where not measured)
     */
    public record Times(long wallNanos, long jobNanos, long centerNanos, long writeNanos, long uptimeAtStartNanos, int slicesFromFrames,
                        Map<String, Double> beforeJob) {
        public Times(long wallNanos, long jobNanos, long centerNanos, long writeNanos, long uptimeAtStartNanos) {
            this(wallNanos, jobNanos, centerNanos, writeNanos, uptimeAtStartNanos, -1, Map.of());
        }
    }

    /** Adds a value to a built report's timings. */
    @SuppressWarnings("unchecked")
    static void putTiming(Map<String, Object> report, String key, Object value) {
        ((Map<String, Object>) report.get("timings")).put(key, value);
    }

    /** How long this JVM has been running, for {@link Times#uptimeAtStartNanos} at an engine's start. */
    public static long jvmUptimeNanos() {
        return ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
    }

    public static Map<String, Object> build(JobRequest req, VolumeReconstructor.Summary s, String engine, Times times) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("software", "tomospark " + Version.get());
        m.put("engine", engine);
        m.put("input", req.input());
        m.put("output", req.output());
        m.put("settings", req.settings().asMap());
        m.put("geometry", geometry(req.params().coneBeam(), s));
        m.put("unit", req.params().workflow().unit().describe(req.params().workflow().binColumns()));
        m.put("outputFormat", req.params().output().format().id());
        m.put("outputType", req.params().output().coding().describe());
        m.put("filter", Map.of("window", req.params().algorithm().filter().window().id(), "cutoff",
                req.params().algorithm().filter().cutoff(),
                "padding", req.params().algorithm().filter().padding().name().toLowerCase()));
        IterativeParams it = req.params().algorithm().iterative();
        m.put("algorithm", it.algorithm().id());
        if (it.iterative()) m.put("iterative", iterative(it, s.convergence(), s.scan().numProjections()));
        if (it.algorithm() == Algorithm.GRIDREC) m.put("gridrec", Gridrec.description());
        String choice = autoChoice(req);
        if (choice != null) m.put("algorithmChoice", choice);
        m.put("backend", Map.of("id", s.backend(), "device", s.device(), "variant", s.variant()));
        m.put("slices", Map.of("total", s.slices(), "computed", s.slices() - s.skipped(), "skipped", s.skipped()));
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("wallSeconds", times.wallNanos() / 1e9);
        t.put("jobSeconds", times.jobNanos() / 1e9);
        t.put("totalSeconds", s.elapsedNanos() / 1e9);
        t.put("jvmUptimeAtStartSeconds", times.uptimeAtStartNanos() / 1e9);
        t.put("outsideJobSeconds", (times.wallNanos() - times.jobNanos()) / 1e9);
        if (!times.beforeJob().isEmpty()) t.put("beforeJobSeconds", times.beforeJob());
        t.put("centerSearchSeconds", times.centerNanos() / 1e9);
        t.put("readSeconds", s.readNanos() / 1e9);
        t.put("preprocessSeconds", s.preprocessNanos() / 1e9);
        t.put("filterSeconds", s.filterNanos() / 1e9);
        t.put("backprojectSeconds", s.backprojectNanos() / 1e9);
        t.put("writeSeconds", times.writeNanos() / 1e9);
        if (times.slicesFromFrames() >= 0) t.put("slicesWrittenFromFrames", times.slicesFromFrames());
        VolumeReconstructor.Waits w = s.waits();
        if (!w.equals(VolumeReconstructor.Waits.NONE)) {
            Map<String, Object> loop = new LinkedHashMap<>(Map.of("lanes", w.lanes(), "firstReadSeconds", w.firstReadNanos() / 1e9,
                    "readWaitSeconds", w.readWaitNanos() / 1e9, "processSeconds", w.processNanos() / 1e9,
                    "sinkSeconds", w.sinkNanos() / 1e9));
            PipelineTimes d = w.device();
            if (d.chunks() > 0)
                loop.put("devicePipeline", Map.of("computeSeconds", d.computeNanos() / 1e9, "hostStageSeconds", d.stageNanos() / 1e9,
                        "downloadWaitSeconds", d.waitNanos() / 1e9, "batchSeconds", d.batchNanos() / 1e9, "chunks", d.chunks(),
                        "about", "the compute stream's busy seconds (device events), the host's seconds staging chunks and "
                                + "waiting for them, and the seconds from each group's first chunk to its last slice"));
            t.put("groupLoop", loop);
        }
        t.put("voxelUpdates", s.updates());
        t.put("gups", s.gups());
        t.put("backprojectGups", s.backprojectGups());
        t.put("stageSeconds", "the read, preprocess, filter, back-project and write stages overlap (a conveyor, and concurrent tasks): "
                + "each is the busy time of that stage, summed over its threads or tasks");
        m.put("timings", t);
        m.put("preprocess", Map.of("values", s.preprocess().values(), "clampedDenominators", s.preprocess().clampedDenominators(),
                "clampedTransmission", s.preprocess().clampedTransmission(), "repairedNonFinite", s.preprocess().repairedNonFinite()));
        if (!s.workflow().isEmpty()) m.put("workflow", s.workflow());
        m.put("centerOfRotation", centerValue(s));
        m.put("warnings", warnings(s));
        return m;
    }

    /**
     * The iterative method's settings and its relative residual ‖A·x − p‖/‖p‖ after each iteration, over every slice
     * computed in this run (slices reused by a resume are not in it).
     */
    static Map<String, Object> iterative(IterativeParams it, Convergence c, int projections) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", it.iterations() > 0 ? it.iterations() : "automatic");
        if (it.algorithm().hasSubsets()) m.put("subsets", it.subsets(projections));
        StopRule rule = it.stopRule(it.mayUseCounts() && c.noiseSquares() > 0);
        m.put("stop", rule.rule().id());
        if (rule.rule() == StopRule.Rule.RESIDUAL || rule.rule() == StopRule.Rule.CHANGE) m.put("tolerance", rule.tolerance());
        if (it.algorithm() == Algorithm.OS_SART) m.put("relaxation", it.relaxation());
        if (it.algorithm() == Algorithm.TV) m.put("tvWeight", it.tvWeight() == null ? "automatic" : it.tvWeight().describe());
        m.put("start", it.fbpStart() ? "fbp" : "zero");
        m.put("iterationsRun", c.iterations());
        m.put("stopped", c.stopCounts());
        if (!Double.isNaN(c.discrepancy())) m.put("residualOverNoise", c.discrepancy());
        List<Double> r = new ArrayList<>();
        for (double v : c.relative()) r.add(v);
        m.put("relativeResidual", r);
        return m;
    }

    /** The centre in raw detector pixels (before binning/stitching), as given or found. */
    @SuppressWarnings("unchecked")
    static Object centerValue(VolumeReconstructor.Summary s) {
        Object c = s.workflow().get("center");
        if (c instanceof Map<?, ?> cm) return ((Map<String, Object>) cm).get("value");
        return s.scan().centerOfRotation();
    }

    @SuppressWarnings("unchecked")
    static String centerLine(VolumeReconstructor.Summary s) {
        Object c = s.workflow().get("center");
        if (!(c instanceof Map<?, ?>)) return String.format("%.2f px", s.scan().centerOfRotation());
        Map<String, Object> cm = (Map<String, Object>) c;
        String src = (String) cm.get("source");
        return String.format(Locale.ROOT, "%.2f px (%s%s)", ((Number) cm.get("value")).doubleValue(), src,
                "auto".equals(src) ? ", " + cm.get("method") : "");
    }

    static List<String> warnings(VolumeReconstructor.Summary s) {
        List<String> w = new ArrayList<>();
        Object c = s.workflow().get("center");
        if (c instanceof Map<?, ?> cm && "detector centre".equals(cm.get("source")))
            w.add("no centre given: the detector centre was used (try --center auto or --center-sweep)");
        if (s.workflow().get("warnings") instanceof List<?> l) for (Object o : l) w.add(String.valueOf(o));
        if (s.preprocess().clampedDenominators() > 0)
            w.add(s.preprocess().clampedDenominators() + " flat-field values (flat - dark <= floor) were clamped");
        if (s.preprocess().clampedTransmission() > 0)
            w.add(s.preprocess().clampedTransmission() + " transmissions <= 0 were clamped before -log");
        if (s.preprocess().repairedNonFinite() > 0)
            w.add(s.preprocess().repairedNonFinite() + " NaN/Inf values were repaired from their neighbours");
        return w;
    }

    /**
     * The report's geometry: the detector, the projections and the slice grid; parallel beam: the centre of rotation;
     * cone beam (cone non-null): source and detector distances, pixel size, where the central ray lands, the trajectory
     * and the volume instead (a cone-beam scan has no centre of rotation on the detector).
     */
    static Map<String, Object> geometry(ConeParams cone, VolumeReconstructor.Summary s) {
        Map<String, Object> geo = new LinkedHashMap<>();
        geo.put("type", cone == null ? "parallel" : "cone");
        geo.put("detectorWidth", s.scan().detectorWidth());
        geo.put("projections", s.scan().numProjections());
        if (cone == null) {
            geo.put("center", s.scan().centerOfRotation());
        } else {
            Map<String, Object> c = cone.describe();
            for (String key : List.of("dsoMm", "dsdMm", "pixelMm", "centralRayPx", "trajectory", "volume"))
                geo.put(key, c.get(key));
        }
        geo.put("angularCoverageDeg", Math.toDegrees(s.scan().angularCoverage()));
        geo.put("slice", Map.of("width", s.slice().width(), "height", s.slice().height(), "roi",
                List.of(s.slice().roiCol(), s.slice().roiRow(), s.slice().roiCols(), s.slice().roiRows())));
        return geo;
    }

    /** The preview's title: the input file's name, and the centre of rotation unless it is NaN (cone beam has none). */
    public static String previewTitle(ScanMetadata meta, double center) {
        String name = meta.source().replaceAll(".*/", "");
        return Double.isNaN(center) ? name : name + "  c=" + String.format(Locale.ROOT, "%.2f", center);
    }

    static String iterativeLine(IterativeParams it, Convergence c, int projections) {
        int subsets = it.algorithm().hasSubsets() ? it.subsets(projections) : 1;
        String line = it.algorithm().id() + (subsets > 1 ? " (" + subsets + " subsets)" : "") + ", " + c.iterations() + " iterations";
        if (c.iterations() == 0) return line;
        StringBuilder why = new StringBuilder();
        c.stopCounts().forEach((reason, slices) -> why.append(why.isEmpty() ? "" : ", ").append(reason)
                .append(" (").append(slices).append(slices == 1 ? " slice)" : " slices)"));
        return line + String.format(Locale.ROOT, ", relative residual %.4g, stopped by %s", c.relative(c.iterations() - 1), why);
    }

    /**
     * What algorithm auto chose and why, for a run whose settings asked for it (null otherwise): gridrec where the slices
     * are computed on CPUs and the scan lies where its accuracy was measured, fbp elsewhere.
     */
    static String autoChoice(JobRequest req) {
        if (req.settings().get(CoreKeys.ALGORITHM) != Algorithm.AUTO) return null;
        return req.params().algorithm().iterative().algorithm() == Algorithm.GRIDREC
                ? "auto: gridrec, the slices being computed on CPUs (java backend) from at least "
                        + ReconstructionParams.GRIDREC_AUTO_MIN_PROJECTIONS + " projections of at least "
                        + ReconstructionParams.GRIDREC_AUTO_MIN_COLUMNS + " columns, where it is within 0.3 dB of fbp (docs/gridrec.md)"
                : "auto: " + req.params().algorithm().iterative().algorithm().id()
                        + ", the slices being computed on a GPU backend, by FDK, or "
                        + "from fewer projections or columns than gridrec's accuracy was measured on (docs/gridrec.md)";
    }

    public static String summary(JobRequest req, VolumeReconstructor.Summary s) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("Reconstructed %d slices (%d skipped) of %dx%d from %d projections in %.2f s%n",
                s.slices() - s.skipped(), s.skipped(), s.slice().roiCols(), s.slice().roiRows(), s.scan().numProjections(),
                s.elapsedNanos() / 1e9));
        sb.append(String.format("  backend %s (%s; %s)%n", s.backend(), s.device(), s.variant()));
        IterativeParams it = req.params().algorithm().iterative();
        if (s.workflow().get("coneBeam") instanceof Map<?, ?> cone)
            sb.append(String.format(Locale.ROOT, "  cone beam FDK (%s, %s), filter %s, volume %s, values in 1/mm%n", cone.get("trajectory"),
                    cone.get("redundancyWeights"), req.params().algorithm().filter().window().id(), cone.get("volume")));
        else {
            String method = it.iterative() ? iterativeLine(it, s.convergence(), s.scan().numProjections())
                    : it.algorithm() == Algorithm.GRIDREC ? "gridrec (Fourier regridding), filter "
                            + req.params().algorithm().filter().window().id()
                    : "filter " + req.params().algorithm().filter().window().id();
            if (autoChoice(req) != null) method += " (algorithm auto)";
            sb.append(String.format("  centre %s, %s, values in %s%n", centerLine(s), method, req.params().workflow().unit().symbol()));
        }
        Object stripe = s.workflow().get("stripeRemoval");
        if (stripe != null && !"none".equals(stripe)) sb.append("  stripe removal: ").append(stripe).append('\n');
        if (s.workflow().get("phaseRetrieval") != null) sb.append("  Paganin phase retrieval: ").append(s.workflow().get("phaseRetrieval"))
                .append('\n');
        if (s.workflow().get("halfAcquisition") != null) sb.append("  half acquisition: ").append(s.workflow().get("halfAcquisition"))
                .append('\n');
        if (s.workflow().get("binning") != null) sb.append("  binning: ").append(s.workflow().get("binning")).append('\n');
        sb.append(String.format("  %.3f GU/s overall, %.3f GU/s back-projection; read %.2f s, preprocess %.2f s, filter %.2f s, "
                + "back-project %.2f s%n",
                s.gups(), s.backprojectGups(), s.readNanos() / 1e9, s.preprocessNanos() / 1e9, s.filterNanos() / 1e9,
                s.backprojectNanos() / 1e9));
        for (String w : warnings(s)) sb.append("  warning: ").append(w).append('\n');
        sb.append("  output: ").append(req.output()).append('\n');
        return sb.toString();
    }
}
