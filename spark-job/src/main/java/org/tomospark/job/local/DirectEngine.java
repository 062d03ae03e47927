package org.tomospark.job.local;

import org.apache.hadoop.conf.Configuration;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.center.CenterSweep;
import org.tomospark.executor.config.CoreKeys;
import org.tomospark.executor.io.FloatTiff;
import org.tomospark.executor.io.OrthoPreview;
import org.tomospark.executor.io.PngPreview;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.executor.pipeline.VolumeReconstructor;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.job.io.InputIdentity;
import org.tomospark.job.io.InputOptions;
import org.tomospark.job.io.Json;
import org.tomospark.job.io.OutputCommit;
import org.tomospark.job.io.ProjectionInputs;
import org.tomospark.job.io.SliceWriter;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Reconstructs in this JVM, without Spark: the same library and the same output layout as the Spark job.
 * Everything that can be checked is checked before the first slice is written: the input's metadata and
 * geometry, the flats and darks of every requested row, and the output (exists? writable?).
 */
public final class DirectEngine {
    private final Configuration hadoopConf;
    private final PrintStream log;

    public DirectEngine(Configuration hadoopConf, PrintStream log) {
        this.hadoopConf = hadoopConf;
        this.log = log;
    }

    /** Result of a run: the summary and the report written next to the slices. */
    public record Result(VolumeReconstructor.Summary summary, Map<String, Object> report, String output) {
    }

    /**
     * Centre sweep mode ({@code center.sweep} in the request's settings) on an open source, in this JVM: the middle
     * row of the row range at each centre, center_CCCC.CC.tif, contact-sheet.png, report.json in the output. The
     * CLI's {@code --center-sweep} and the notebook API's {@code centerSweep} both end here.
     */
    public Result sweep(JobRequest req, ProjectionSource src) {
        double[] sweep = req.settings().get(CoreKeys.CENTER_SWEEP);
        if (sweep == null) throw new IllegalArgumentException("config key center.sweep: not set (START:END:STEP)");
        ReconstructionParams p = req.params();
        p.scanGeometry(src.metadata());
        int[] range = p.rowRange(src.metadata());
        return runSweep(req, src, openOutput(req), sweep, range);
    }

    /** The output's writer, after the overwrite/resume policy and a write check. */
    private SliceWriter openOutput(JobRequest req) {
        SliceWriter writer = new SliceWriter(req.output(), hadoopConf);
        int existing = writer.countSlices();
        boolean complete = writer.exists("_SUCCESS");
        if ((existing > 0 || complete) && !req.overwrite() && !req.resume())
            throw new IllegalArgumentException(req.output() + ": output already holds " + existing + " slices"
                    + (complete ? " of a complete reconstruction" : "") + "; use --overwrite to replace them or --resume to complete them");
        writer.checkWritable();
        return writer;
    }

    private Result runSweep(JobRequest req, ProjectionSource src, SliceWriter writer, double[] sweep, int[] range) {
        ReconstructionParams p = req.params();
        double[] centers = CenterSweep.centers(sweep[0], sweep[1], sweep[2]);
        int row = (range[0] + range[1] - 1) / 2;
        log.println("Centre sweep of row " + row + ": " + centers.length + " centres " + sweep[0] + ".." + sweep[1]);
        long t0 = System.nanoTime();
        try (BackprojectionBackend backend = Backends.open(p.backend(), p.backendOptions())) {
            List<CenterSweep.Image> imgs = CenterSweep.run(src, p, row, centers, backend);
            for (CenterSweep.Image im : imgs) writer.writeBytes(im.fileName(), FloatTiff.encode(im.pixels(), im.width(), im.height()));
            writer.writeBytes("contact-sheet.png", PngPreview.encodePng(CenterSweep.contactSheet(imgs, 192,
                    src.metadata().source().replaceAll(".*/", "") + " row " + row)));
            Map<String, Object> report = new java.util.LinkedHashMap<>();
            report.put("software", "tomospark " + Version.get());
            report.put("mode", "center sweep");
            report.put("input", req.input());
            report.put("output", req.output());
            report.put("settings", req.settings().asMap());
            report.put("row", row);
            report.put("centers", java.util.Arrays.stream(centers).boxed().toList());
            report.put("images", imgs.stream().map(CenterSweep.Image::fileName).toList());
            report.put("contactSheet", "contact-sheet.png");
            report.put("backend", Map.of("id", backend.id(), "device", backend.deviceDescription()));
            report.put("seconds", (System.nanoTime() - t0) / 1e9);
            writer.writeBytes("report.json", RunReport.toJson(report));
            writer.writeBytes("_SUCCESS", new byte[0]);
            log.printf("Centre sweep: %d images center_*.tif and contact-sheet.png in %s (%.2f s)%n", imgs.size(), req.output(),
                    (System.nanoTime() - t0) / 1e9);
            return new Result(null, report, req.output());
        } finally {
            writer.cleanTemporary();
        }
    }

    public Result run(JobRequest req) {
        ReconstructionParams p = req.params();
        InputOptions inputOptions = org.tomospark.job.spark.SparkKeys.inputOptions(req.settings());
        try (ProjectionSource src = ProjectionInputs.open(req.input(), inputOptions, hadoopConf)) {
            ScanMetadata meta = src.metadata();
            // validate geometry and rows before touching the output
            p.scanGeometry(meta);
            SliceGeometry sg = p.sliceGeometry(meta);
            int[] range = p.rowRange(meta);
            FlatDark fields = FlatDark.read(src, range[0], range[1] - range[0]); // every flat/dark row of the range is checked
            p.preprocessor().apply(src.readProjections(range[0], 1), fields.subBand(0, 1), src.dataName(), src.flatName());

            double[] sweep = req.settings().get(CoreKeys.CENTER_SWEEP);
            if (sweep != null) return runSweep(req, src, openOutput(req), sweep, range);
            // the same commit protocol as the Spark engine: run signature, per-slice markers, manifest, _SUCCESS
            String format = ProjectionInputs.resolveFormat(req.input(), inputOptions, hadoopConf);
            Map<String, Object> identity = InputIdentity.of(req.input(), format, inputOptions, hadoopConf);
            String signature = OutputCommit.signature(identity, p);
            OutputCommit out = new OutputCommit(req.output(), hadoopConf);
            Map<String, Object> runInfo = new java.util.TreeMap<>();
            runInfo.put("input", identity);
            runInfo.put("params", Json.describe(p));
            out.prepare(req.overwrite(), req.resume(), signature, runInfo);
            int rb = p.workflow().binRows();
            int first = range[0] / rb, end = first + (range[1] - range[0]) / rb; // output slice indices
            java.util.Set<Integer> reused = req.resume() ? out.verifiedCommitted(first, end).keySet() : java.util.Set.of();
            Map<Integer, OutputCommit.Committed> committed = new java.util.TreeMap<>();
            log.println("Input " + meta + "; reconstructing rows " + range[0] + ".." + (range[1] - 1) + " into "
                    + sg.roiCols() + "x" + sg.roiRows() + " slices"
                    + (p.workflow().centerMethod() != null ? "; centre: auto (" + p.workflow().centerMethod().id() + ")" : ""));
            ProgressBar bar = new ProgressBar(log);
            OrthoPreview preview = new OrthoPreview(first, end);
            try {
                VolumeReconstructor.Summary s = VolumeReconstructor.run(src, p, (row, px, w, h) -> {
                    committed.put(row, out.commitSlice(row, FloatTiff.encode(px, w, h)));
                    if (req.preview()) preview.accept(row, px, w, h);
                }, bar::update, req.resume() ? reused::contains : null);
                if (req.preview()) {
                    for (int row : reused) { // slices kept from an earlier run still belong in the preview
                        if (committed.containsKey(row)) continue;
                        FloatTiff.Image img;
                        try {
                            img = FloatTiff.decode(out.read(SliceWriter.sliceName(row)));
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(req.output() + ": cannot read back " + SliceWriter.sliceName(row), e);
                        }
                        preview.accept(row, img.pixels(), img.width(), img.height());
                    }
                    if (preview.hasData())
                        out.writeFile("preview.png", preview.png(RunReport.previewTitle(meta, s.scan().centerOfRotation())));
                }
                Map<String, Object> report = RunReport.build(req, s, "direct");
                out.writeFile(OutputCommit.REPORT, RunReport.toJson(report));
                out.finish(Json.write(manifest(req, identity, signature, p, committed, reused)));
                log.print(RunReport.summary(req, s));
                return new Result(s, report, req.output());
            } finally {
                out.writer().cleanTemporary();
            }
        }
    }

    /** manifest.json: software, input identity, every parameter, the run signature and each slice's checksum. */
    static Map<String, Object> manifest(JobRequest req, Map<String, Object> identity, String signature, ReconstructionParams p,
                                        Map<Integer, OutputCommit.Committed> computed, java.util.Set<Integer> reused) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("software", "tomospark " + Version.get());
        m.put("engine", "direct");
        m.put("input", identity);
        m.put("runSignature", signature);
        m.put("settings", req.settings().asMap());
        m.put("params", Json.describe(p));
        List<Map<String, Object>> slices = new java.util.ArrayList<>();
        for (var e : computed.entrySet())
            slices.add(Map.of("row", e.getKey(), "file", SliceWriter.sliceName(e.getKey()), "sha256", e.getValue().sha256(),
                    "bytes", e.getValue().bytes(), "reused", false));
        for (int row : reused)
            if (!computed.containsKey(row)) slices.add(Map.of("row", row, "file", SliceWriter.sliceName(row), "reused", true));
        slices.sort(java.util.Comparator.comparingInt(x -> (Integer) x.get("row")));
        m.put("slices", slices);
        return m;
    }
}
