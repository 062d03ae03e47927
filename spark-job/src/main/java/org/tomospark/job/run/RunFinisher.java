package org.tomospark.job.run;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preview.ConvergencePlot;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.preview.OrthoPreview;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.util.Cancellation;
import org.tomospark.job.CosmeticOutputs;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.outputs.Hdf5Volume;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.RawVolume;
import org.tomospark.job.outputs.RunManifest;
import org.tomospark.job.outputs.ZarrMetadata;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The end of a run, the same for both engines once every slice is committed: checks that every slice of the range is
 * there, then, holding the claim, writes volume.raw (job.output.raw), preview.png, the Zarr array's metadata or
 * volume.h5 (output.format), report.json, manifest.json and
 * {@code _SUCCESS}, in that order, and says what it wrote. The pictures are cosmetic ({@link CosmeticOutputs}): one
 * that cannot be made is a warning in the report, never a failed run.
 */
public final class RunFinisher {
    public static final String PREVIEW = "preview.png";
    /** The iterative methods' residual per iteration, next to the preview. */
    public static final String CONVERGENCE = "convergence.png";

    /** What an engine adds to the common report and to the printed summary. */
    public interface EngineReport {
        EngineReport NONE = new EngineReport() {
        };

        /** Adds the engine's own entries to the report (before the cosmetic warnings are appended). */
        default void addTo(Map<String, Object> report) {
        }

        /** Lines printed after the common summary, each ending with a newline. */
        default String summaryLines(Map<String, Object> report) {
            return "";
        }
    }

    /**
     * What the engine computed.
     *
     * @param summary  the run as {@link VolumeReconstructor.Summary}, its workflow described
     * @param meta     the scan
     * @param computed the slices this run committed, with what the engine knows of each
     * @param reused   the slices kept from an earlier run ({@link RunOutput#prepare})
     * @param preview  what the engine collected for preview.png while it ran (whole slices or their central row and
     *                 column); null when the run writes no preview
     * @param times    the run's times
     */
    public record Computed(VolumeReconstructor.Summary summary, ScanMetadata meta, Map<Integer, RunManifest.Slice> computed,
                           Map<Integer, OutputCommit.Committed> reused, OrthoPreview preview, RunReport.Times times) {
    }

    /** The report as written to report.json and the summary to print. */
    public record Finished(Map<String, Object> report, String summary) {
    }

    private final RunOutput output;
    private final CosmeticOutputs cosmetic;
    private final Cancellation cancel;

    /** {@code cosmetic}: the run's cosmetic outputs, which may already hold a failure of the preview made during the run. */
    public RunFinisher(RunOutput output, CosmeticOutputs cosmetic) {
        this(output, cosmetic, Cancellation.NONE);
    }

    /**
     * A finish that {@code cancel} stops between the slices of volume.raw or volume.h5 and before the report: it then
     * leaves the committed slices and no _SUCCESS, for a resume to finish.
     */
    public RunFinisher(RunOutput output, CosmeticOutputs cosmetic, Cancellation cancel) {
        this.output = output;
        this.cosmetic = cosmetic;
        this.cancel = cancel;
    }

    public Finished finish(Computed run, EngineReport engine) {
        long t0 = System.nanoTime();
        RunOutput.Plan plan = output.plan();
        JobRequest req = plan.request();
        OutputCommit out = output.commit();
        Map<Integer, RunManifest.Slice> slices = allSlices(run);
        output.lock().ensureHeld();
        SliceGeometry sg = run.summary().slice();
        if (plan.rawVolume())
            RawVolume.write(out, plan.first(), plan.end(), sg.roiCols(), sg.roiRows(), req.params().output().coding(), cancel);
        if (run.preview() != null)
            cosmetic.run(PREVIEW, () -> writePreview(run, out));
        if (run.preview() != null && run.summary().convergence().iterations() > 0)
            cosmetic.run(CONVERGENCE, () -> out.writeFile(CONVERGENCE, ConvergencePlot.png(run.summary().convergence().relative(),
                    req.params().algorithm().iterative().algorithm().id() + ": relative residual |Ax - p| / |p|")));
        Map<String, Object> report = RunReport.build(req, run.summary(), plan.engine(), run.times());
        if (req.params().output().format() == OutputFormat.ZARR) writeZarrMetadata(run, out, report);
        if (req.params().output().format() == OutputFormat.HDF5) writeHdf5(run, out, slices, report);
        engine.addTo(report);
        cosmetic.addTo(report);
        // the finish up to its report: the raw volume, the preview, the Zarr metadata or the HDF5 file
        RunReport.putTiming(report, "finishSeconds", (System.nanoTime() - t0) / 1e9);
        cancel.check("finishing " + req.output());
        output.lock().ensureHeld();
        out.writeFile(OutputCommit.REPORT, Json.write(report));
        out.finish(Json.write(RunManifest.build(Version.get(), plan.engine(), output.signature(), output.identity(),
                Json.describe(plan.inputOptions()), Json.describe(req.params().recorded()), req.settings().asMap(), run.meta(),
                run.summary().scan(), sg, slices, plan.rawVolume(), req.params().output().coding(), out.files(),
                report)));
        String summary = RunReport.summary(req, run.summary()) + engine.summaryLines(report) + filesLine(run.preview() != null);
        return new Finished(report, summary);
    }

    /** Every slice of the range, computed or reused; fewer is a failed run (a task's commit that came up short). */
    private Map<Integer, RunManifest.Slice> allSlices(Computed run) {
        Map<Integer, RunManifest.Slice> slices = new TreeMap<>(run.computed());
        for (OutputCommit.Committed c : run.reused().values()) slices.putIfAbsent(c.row(), RunManifest.Slice.reused(c));
        int total = output.plan().slices();
        if (slices.size() != total)
            throw new RunFailedException(output.plan().request().output() + ": " + slices.size() + " of " + total
                    + " slices committed; the output is unfinished");
        return slices;
    }

    /**
     * preview.png from what the engine collected, completed from the output: the slices reused from an earlier run are
     * read back whole, and so is the middle slice (the XY panel) when the engine kept only its profiles.
     */
    private void writePreview(Computed run, OutputCommit out) {
        OrthoPreview preview = run.preview();
        RunOutput.Plan plan = output.plan();
        SampleCoding coding = plan.request().params().output().coding();
        SliceGeometry sg = run.summary().slice();
        for (int row : run.reused().keySet())
            if (!run.computed().containsKey(row)) readBack(out, row, preview, sg, coding);
        if (!preview.hasData()) readBack(out, (plan.first() + plan.end() - 1) / 2, preview, sg, coding);
        out.writeFile(PREVIEW, preview.png(previewTitle(plan, run.meta(), run.summary().scan())));
    }

    /** The title preview.png carries: the scan and, for parallel beams, the centre of rotation the run used. */
    public static String previewTitle(RunOutput.Plan plan, ScanMetadata meta, ScanGeometry scan) {
        double center = plan.request().params().coneBeam() != null ? Double.NaN : scan.centerOfRotation();
        return RunReport.previewTitle(meta, center);
    }

    /**
     * What the Zarr array's and the HDF5 dataset's attributes say: which output slice each z index is (the volume holds
     * the slices this run reconstructed, [first, end), so z = 0 is slice first), the geometry, centre, unit and value
     * scaling.
     */
    private Map<String, Object> volumeAttributes(Map<String, Object> report) {
        RunOutput.Plan plan = output.plan();
        ReconstructionParams p = plan.request().params();
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("index", (p.coneBeam() != null
                ? "z = i is the volume's slice k = firstSlice + i, at height (k - (cone.volume.slices - 1) / 2) x voxel"
                : "z = i is the output slice firstSlice + i: the detector row (the row bin with row binning)"));
        attrs.put("firstSlice", plan.first());
        attrs.put("reconstructedRows", List.of(plan.first(), plan.end()));
        attrs.put("geometry", report.get("geometry"));
        attrs.put("unit", report.get("unit"));
        attrs.put("values", p.output().coding().describe());
        attrs.put("sliceGrid", p.volume().sliceGrid().id());
        attrs.put("software", "tomospark " + Version.get());
        return attrs;
    }

    private void writeZarrMetadata(Computed run, OutputCommit out, Map<String, Object> report) {
        SliceGeometry sg = run.summary().slice();
        SampleCoding coding = output.plan().request().params().output().coding();
        out.writeFile(ZarrMetadata.ZATTRS, ZarrMetadata.zattrs(volumeAttributes(report)));
        out.writeFile(ZarrMetadata.ZARRAY, ZarrMetadata.zarray(output.plan().slices(), sg.roiRows(), sg.roiCols(), coding,
                output.plan().request().params().output().zarrCompression()));
    }

    /** volume.h5 from the committed slices, its length and checksum into the report. */
    private void writeHdf5(Computed run, OutputCommit out, Map<Integer, RunManifest.Slice> slices,
                           Map<String, Object> report) {
        RunOutput.Plan plan = output.plan();
        SliceGeometry sg = run.summary().slice();
        Map<Integer, String> sums = new TreeMap<>();
        slices.forEach((row, s) -> sums.put(row, s.committed().checksum()));
        Map<String, Object> attrs = volumeAttributes(report);
        Hdf5Volume.Written w = Hdf5Volume.write(out, plan.first(), plan.end(), sg.roiCols(),
                sg.roiRows(), plan.request().params().output().coding(), sums, attrs, new String(Json.write(attrs),
                        StandardCharsets.UTF_8), cancel);
        report.put(Hdf5Volume.REPORT_KEY, w.describe());
    }

    private static void readBack(OutputCommit out, int row, OrthoPreview preview, SliceGeometry sg,
                                 SampleCoding coding) {
        String name = out.files().name(row);
        FloatTiff.Image img;
        try {
            img = out.files().decode(out.read(name), sg.roiCols(), sg.roiRows(), coding);
        } catch (IOException e) {
            throw new UncheckedIOException(out.dir() + "/" + name + ": cannot read the slice back for " + PREVIEW, e);
        }
        preview.accept(row, img.pixels(), img.width(), img.height());
    }

    private String filesLine(boolean previewWanted) {
        List<String> files = new ArrayList<>(List.of(OutputCommit.MANIFEST, OutputCommit.REPORT));
        if (previewWanted && !cosmetic.failed(PREVIEW)) files.add(PREVIEW);
        if (previewWanted && output.plan().request().params().algorithm().iterative().iterative() && !cosmetic.failed(CONVERGENCE))
            files.add(CONVERGENCE);
        if (output.plan().rawVolume()) files.add(RawVolume.NAME);
        if (output.plan().request().params().output().format() == OutputFormat.HDF5) files.add(Hdf5Volume.NAME);
        files.add(OutputCommit.SUCCESS);
        return "  files: " + String.join(", ", files) + "\n";
    }
}
