package org.tomospark.job.local;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.DeviceWarmUp;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.inputs.InputWarnings;
import org.tomospark.executor.preview.OrthoPreview;
import org.tomospark.executor.preview.PngPreview;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.conveyor.OutputRange;
import org.tomospark.executor.conveyor.PreparedProcessor;
import org.tomospark.executor.sweeps.CenterSweep;
import org.tomospark.executor.params.SweepRanges;
import org.tomospark.executor.sweeps.TvWeightSweep;
import org.tomospark.executor.params.ConeResolution;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.SliceBuffers;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.pipeline.WorkflowReport;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.util.Cancellation;
import org.tomospark.job.CosmeticOutputs;
import org.tomospark.job.InputKeys;
import org.tomospark.job.JobKeys;
import org.tomospark.job.Preflight;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.fs.Json;
import org.tomospark.job.fs.KerberosCredentials;
import org.tomospark.job.fs.NodeCores;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.inputs.Inputs;
import org.tomospark.job.outputs.OutputLock;
import org.tomospark.job.outputs.OutputOwnership;
import org.tomospark.job.outputs.OutputRecord;
import org.tomospark.job.inputs.ProjectionInputs;
import org.tomospark.job.outputs.RunManifest;
import org.tomospark.job.outputs.SliceCommitPool;
import org.tomospark.job.outputs.SliceWriter;
import org.tomospark.job.run.JobRequest;
import org.tomospark.job.run.RunFinisher;
import org.tomospark.job.run.RunOutput;
import org.tomospark.job.run.RunReport;
import org.tomospark.job.run.Version;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Reconstructs in this JVM, without Spark: the same library and the same output layout as the Spark job.
 * Everything that can be checked is checked before the first slice is written: the input's metadata and
 * geometry, the flats and darks of every requested row, and the output (exists? writable?).
 */
public final class DirectEngine {
    private final Configuration hadoopConf;
    private final PrintStream log;
    private final boolean lastUseOfDevices;
    private final Cancellation cancel;

    public DirectEngine(Configuration hadoopConf, PrintStream log) {
        this(hadoopConf, log, false, Cancellation.NONE);
    }

    private DirectEngine(Configuration hadoopConf, PrintStream log, boolean lastUseOfDevices, Cancellation cancel) {
        this.hadoopConf = hadoopConf;
        this.log = log;
        this.lastUseOfDevices = lastUseOfDevices;
        this.cancel = cancel;
    }

    /** This engine, whose sweeps stop before they write anything once {@code c} says so (a notebook's Cancel). */
    public DirectEngine cancelledBy(Cancellation c) {
        return new DirectEngine(hadoopConf, log, lastUseOfDevices, c);
    }

    /**
     * This engine for a process whose run is the last use of its devices (the command line's single reconstruction):
     * once the slices are computed, the devices are given back ({@link Backends#releaseBeforeExit}) while the writers
     * commit the last slices, instead of by the driver at the process's exit.
     */
    public DirectEngine lastUseOfDevices() {
        return new DirectEngine(hadoopConf, log, true, cancel);
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
        return runSweep(req, src, sweep, range);
    }

    /**
     * TV weight sweep mode ({@code iterative.tvWeightSweep} in the request's settings) on an open source, in this JVM;
     * the notebook API's {@code tvWeightSweep} ends here, the CLI's {@code --tv-weight-sweep} through {@link #run}.
     */
    public Result tvWeightSweep(JobRequest req, ProjectionSource src) {
        double[] factors = req.settings().get(CoreKeys.TV_WEIGHT_SWEEP);
        if (factors == null) throw new IllegalArgumentException("config key iterative.tvWeightSweep: not set (F1,F2,...)");
        if (req.settings().get(CoreKeys.CENTER_SWEEP) != null)
            throw new IllegalArgumentException("config keys center.sweep and iterative.tvWeightSweep: one sweep at a time");
        ReconstructionParams p = req.params();
        p.scanGeometry(src.metadata());
        if (ConeResolution.resolve(src, p).coneBeam() != null)
            throw new IllegalArgumentException("config key iterative.tvWeightSweep: sweeps parallel-beam slices, not a cone-beam volume");
        int[] range = p.rowRange(src.metadata());
        Workflow.CenterResolution cr = Workflow.resolveCenter(src, p);
        ReconstructionParams rp = cr.params();
        FlatDark fields = src.readFlatDark(range[0], range[1] - range[0]);
        Preflight.check(src, rp, fields, new int[]{range[0], range[0] + 1}, 1);
        return runTvSweep(new JobRequest(req.input(), req.output(), rp, req.overwrite(), req.resume(), false, req.settings(),
                req.names()), src, factors, range);
    }

    /**
     * Checks the output against the overwrite/resume policy, what it holds ({@link OutputOwnership}) and its
     * writability (a sweep has no run signature), then removes an earlier run's files on {@code --overwrite} and
     * records the sweep's before it writes them.
     */
    private void prepareSweepOutput(JobRequest req, OutputCommit out, Set<String> images, String sheet) {
        SliceWriter writer = out.writer();
        int existing = writer.countSlices();
        boolean complete = writer.exists("_SUCCESS");
        if ((existing > 0 || complete) && !req.overwrite() && !req.resume())
            throw new IllegalArgumentException(req.output() + ": output already holds " + existing + " slices"
                    + (complete ? " of a complete reconstruction" : "") + "; a sweep computes all its images each time: use "
                    + req.names().overwrite() + " to replace what is there, or another output (" + req.names().resume()
                    + " keeps what is there and writes this sweep's images beside it)");
        Set<String> files = new TreeSet<>(List.of(OutputCommit.REPORT, OutputCommit.SUCCESS, sheet));
        files.addAll(images);
        try {
            FileSystem fs = out.dir().getFileSystem(hadoopConf);
            OutputRecord old = OutputOwnership.record(fs, out.dir());
            OutputOwnership.check(fs, out.dir(), old);
            writer.checkWritable();
            if (req.overwrite()) OutputOwnership.clear(fs, out.dir(), old);
            else fs.delete(new Path(out.dir(), OutputCommit.SUCCESS), false);
            OutputRecord mine = OutputRecord.sweep(files);
            OutputRecord record = req.overwrite() || old == null ? mine : old.merge(mine);
            out.writeRecord(Map.of("mode", OutputRecord.CENTER_SWEEP), record);
        } catch (IOException e) {
            throw new UncheckedIOException(req.output() + ": output is not writable (" + e.getMessage() + ")", e);
        }
    }

    private static final String CONTACT_SHEET = OutputOwnership.CONTACT_SHEET;
    private static final String TV_SHEET = OutputOwnership.TV_WEIGHT_SHEET;

    /** A sweep's images and report, computed on a backend opened for it. */
    private interface SweepBody {
        Sweep run(BackprojectionBackend backend);
    }

    /**
     * What a sweep made: its images (file name, pixels), its picture (drawn only when written: it is cosmetic) and the
     * report fields of its mode.
     */
    private record Sweep(List<String> files, List<float[]> pixels, int width, int height, Supplier<BufferedImage> sheet,
                         Map<String, Object> fields) {
    }

    /**
     * A sweep into the request's output: checks the inputs lie outside it, claims it, prepares it for the sweep's
     * {@code images} and {@code sheet} ({@link #prepareSweepOutput}), then writes what {@code body} makes: the images
     * as float TIFFs, the picture (a warning when it cannot be made), report.json and _SUCCESS.
     */
    private Result runSweep(JobRequest req, String mode, Set<String> images, String sheet, SweepBody body) {
        ReconstructionParams p = req.params();
        Backends.resolve(p.algorithm().backend());
        OutputOwnership.checkInputsOutside(List.of(Inputs.path(req.input())), req.input(), req.output(), hadoopConf);
        OutputOwnership.checkNotInsideAnother(req.output(), hadoopConf);
        OutputCommit out = new OutputCommit(req.output(), hadoopConf);
        Duration lockTimeout = Duration.ofSeconds(req.settings().get(JobKeys.LOCK_TIMEOUT));
        cancel.check(mode + " of " + req.input());
        try (OutputLock lock = out.claim(lockTimeout, mode + ", " + req.input())) {
            prepareSweepOutput(req, out, images, sheet);
            SliceWriter writer = out.writer();
            long t0 = System.nanoTime();
            try (BackprojectionBackend backend = Backends.open(p.algorithm().backend(), p.algorithm().backendOptions())) {
                Sweep made = body.run(backend);
                cancel.check(mode + " of " + req.input()); // computed but not written: the folder keeps no image of it
                String description = p.workflow().sliceDescription();
                for (int i = 0; i < made.files().size(); i++) {
                    byte[] tiff = FloatTiff.encode(made.pixels().get(i), made.width(), made.height(), description);
                    writer.writeBytes(made.files().get(i), tiff);
                }
                lock.ensureHeld();
                CosmeticOutputs cosmetic = new CosmeticOutputs(warning -> log.println("warning: " + warning));
                boolean drawn = cosmetic.run(sheet, () -> writer.writeBytes(sheet, PngPreview.encodePng(made.sheet().get())));
                Map<String, Object> report = new LinkedHashMap<>();
                report.put("software", "tomospark " + Version.get());
                report.put("mode", mode);
                report.put("input", req.input());
                report.put("output", req.output());
                report.put("settings", req.settings().asMap());
                report.putAll(made.fields());
                report.put("contactSheet", drawn ? sheet : null);
                report.put("backend", Map.of("id", backend.id(), "device", backend.deviceDescription()));
                report.put("seconds", (System.nanoTime() - t0) / 1e9);
                cosmetic.addTo(report);
                writer.writeBytes(OutputCommit.REPORT, Json.write(report));
                writer.writeBytes("_SUCCESS", new byte[0]);
                log.printf("%s: %d images%s in %s (%.2f s)%n", mode, made.files().size(), drawn ? " and " + sheet : "", req.output(),
                        (System.nanoTime() - t0) / 1e9);
                return new Result(null, report, req.output());
            } finally {
                writer.cleanTemporary();
            }
        }
    }

    /** The centre sweep: the middle row of the range at each centre. */
    private Result runSweep(JobRequest req, ProjectionSource src, double[] sweep, int[] range) {
        double[] centers = SweepRanges.centers(sweep[0], sweep[1], sweep[2]);
        int row = (range[0] + range[1] - 1) / 2;
        Set<String> names = new TreeSet<>();
        for (double c : centers) names.add(CenterSweep.fileName(c));
        return runSweep(req, "center sweep", names, CONTACT_SHEET, backend -> {
            log.println("Centre sweep of row " + row + ": " + centers.length + " centres " + sweep[0] + ".." + sweep[1]);
            List<CenterSweep.Image> imgs = CenterSweep.run(src, req.params(), row, centers, backend);
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("row", row);
            fields.put("centers", Arrays.stream(centers).boxed().toList());
            fields.put("images", imgs.stream().map(CenterSweep.Image::fileName).toList());
            return new Sweep(imgs.stream().map(CenterSweep.Image::fileName).toList(), imgs.stream().map(CenterSweep.Image::pixels).toList(),
                    imgs.get(0).width(), imgs.get(0).height(),
                    () -> CenterSweep.contactSheet(imgs, 192, src.metadata().source().replaceAll(".*/", "") + " row " + row), fields);
        });
    }

    /**
     * The TV weight sweep ({@code iterative.tvWeightSweep}): up to three rows of the range by tv at each weight factor,
     * tv_rRRRRR_xFFFF.FFF.tif per row and factor and tv-weight-sweep.png.
     */
    private Result runTvSweep(JobRequest req, ProjectionSource src, double[] factors, int[] range) {
        int[] rows = TvWeightSweep.rows(range[0], range[1]);
        Set<String> names = new TreeSet<>();
        for (int r : rows) for (double f : factors) names.add(TvWeightSweep.fileName(r, f));
        return runSweep(req, "tv weight sweep", names, TV_SHEET, backend -> {
            log.println("TV weight sweep of rows " + Arrays.toString(rows) + ": factors " + Arrays.toString(factors)
                    + " of the default weight");
            List<TvWeightSweep.Image> imgs = TvWeightSweep.run(src, req.params(), rows, factors, backend);
            List<Map<String, Object>> list = new ArrayList<>();
            for (TvWeightSweep.Image im : imgs) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("row", im.row());
                e.put("factor", im.factor());
                e.put("tvWeight", im.weight());
                e.put("file", im.fileName());
                list.add(e);
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("rows", Arrays.stream(rows).boxed().toList());
            fields.put("factors", Arrays.stream(factors).boxed().toList());
            fields.put("images", list);
            return new Sweep(imgs.stream().map(TvWeightSweep.Image::fileName).toList(), imgs.stream().map(TvWeightSweep.Image::pixels)
                    .toList(), imgs.get(0).width(), imgs.get(0).height(),
                    () -> TvWeightSweep.grid(imgs, 192, src.metadata().source().replaceAll(".*/", "") + " tv"), fields);
        });
    }

    public Result run(JobRequest req) {
        KerberosCredentials.require(hadoopConf, List.of(req.input(), req.output()));
        long wall0 = System.nanoTime(), uptime0 = RunReport.jvmUptimeNanos();
        Steps steps = new Steps(wall0);
        ReconstructionParams p = req.params();
        // the GPU's context and kernels open while the input is opened, its flats read and the output claimed
        if (req.settings().get(CoreKeys.CENTER_SWEEP) == null && req.settings().get(CoreKeys.TV_WEIGHT_SWEEP) == null)
            DeviceWarmUp.forBackend(p.algorithm().backend(), p.algorithm().backendOptions());
        InputOptions inputOptions = InputKeys.inputOptions(req.settings());
        try (ProjectionSource src = ProjectionInputs.open(req.input(), inputOptions, hadoopConf)) {
            ScanMetadata meta = src.metadata();
            // everything is checked before the output is touched, as the Spark engine does
            p.scanGeometry(meta);
            p = ConeResolution.resolve(src, p);
            // algorithm auto decided once, from the backend the run's slices are computed on
            if (p.algorithm().iterative().algorithm() == Algorithm.AUTO)
                p = p.resolveAlgorithm(Backends.resolve(p.algorithm().backend()).id(), meta.numProjections(), meta.width());
            int[] range = p.rowRange(meta);
            if (req.settings().get(CoreKeys.TV_WEIGHT_SWEEP) != null) {
                return tvWeightSweep(new JobRequest(req.input(), req.output(), p, req.overwrite(), req.resume(), false,
                        req.settings(), req.names()), src);
            }
            double[] sweep = req.settings().get(CoreKeys.CENTER_SWEEP);
            if (sweep != null) {
                if (p.coneBeam() != null)
                    throw new IllegalArgumentException("config key center.sweep: a cone-beam scan has no centre to sweep "
                            + "(cone.cu places the central ray)");
                Backends.resolve(p.algorithm().backend());
                FlatDark fields = src.readFlatDark(range[0], range[1] - range[0]);
                Preflight.check(src, p, fields, new int[]{range[0], range[0] + 1}, 1);
                return runSweep(req, src, sweep, range);
            }
            steps.done("open the input");
            // centre auto is resolved once, here, as the Spark engine does: the run signature, the run info, the
            // manifest and the reconstruction all use the centre found (it depends on the row range, so a --resume
            // over another range that finds another centre is refused instead of mixing slices of two centres)
            long c0 = System.nanoTime();
            Workflow.CenterResolution cr = Workflow.resolveCenter(src, p);
            long centerNs = System.nanoTime() - c0;
            steps.done("centre");
            ReconstructionParams rp = OutputRange.resolve(src, cr.params());
            Workflow wf = new Workflow(rp.scanGeometry(meta), rp);
            int rb = p.workflow().binRows();
            int requestedRows = range[1] - range[0];
            range = GroupPlanner.binnedRange(range, rb);
            // groups processed at once on a GPU, each with a processor of its own whose pipeline is sized for sharing it
            int lanes = Backends.mayRunOnAssignedGpus(rp.algorithm().backend())
                    ? VolumeReconstructor.lanes(rp, meta, range, rb, req.settings().get(JobKeys.DIRECT_GROUPS_PER_DEVICE)) : 1;
            ReconstructionParams runParams = lanes > 1 ? sharingTheDevice(rp, lanes) : rp;
            int groupRows = VolumeReconstructor.defaultGroupRows(rp, meta, lanes) * rb;
            SliceGeometry sg = rp.sliceGeometry(wf.effective().detectorWidth());
            // the frames of written slices go back to the processors for the next groups: the groups being computed, the
            // one being written and the writers' queue (one group); on a GPU direct frames, which the device fills and the
            // writers write from as they are
            int frames = (lanes + 2) * Math.max(1, groupRows / rb);
            String backendId = rp.algorithm().backend();
            SliceBuffers buffers = Backends.mayRunOnAssignedGpus(backendId)
                    ? SliceBuffers.direct(sg.pixels(), frames, SliceBuffers.frameRoom(rp, sg), () -> fillsDirectFrames(backendId))
                    : new SliceBuffers(sg.pixels(), frames);
            // the processor (a GPU's context, kernels and buffers) is set up while the flats are read, the input
            // checked and the output claimed
            try (PreparedProcessor prepared = VolumeReconstructor.prepare(src, runParams, buffers, lanes)) {
                steps.done("plan");
                // flats/darks of every row the groups read, Paganin halo rows included (as the Spark engine checks them)
                Workflow.HaloBand hb = wf.haloBand(range[0], range[1] - range[0], meta.rows());
                // the flats and darks are read while the preflight reads the projection rows it checks
                Preflight.start(src, rp, hb.from(), hb.count()).check(range, groupRows);
                steps.done("flats, darks and preflight");
                Backends.resolve(rp.algorithm().backend()); // a backend that cannot run here fails now, not after the output exists
                steps.done("backend");
                List<String> inputWarnings = InputWarnings.of(src);
                // the same output protocol as the Spark engine: claim, run signature, per-slice markers, then the finish
                JobRequest resolved = new JobRequest(req.input(), req.output(), rp, req.overwrite(), req.resume(), req.preview(),
                        req.settings(), req.names());
                RunOutput.Plan plan = new RunOutput.Plan(resolved, "direct", inputOptions,
                        ProjectionInputs.resolveFormat(req.input(), inputOptions, hadoopConf), range[0] / rb, range[1] / rb,
                        req.settings().get(JobKeys.OUTPUT_RAW));
                try (RunOutput output = RunOutput.claim(plan, "direct engine", hadoopConf)) {
                    RunOutput.NothingToDo nothing = output.nothingToDo();
                    if (nothing != null) {
                        log.println(nothing.message());
                        return new Result(null, nothing.report(), req.output());
                    }
                    for (String w : inputWarnings) log.println("warning: " + w);
                    Map<Integer, OutputCommit.Committed> reused = output.prepare();
                    steps.done("claim and prepare the output");
                    log.println("Input " + meta + "; reconstructing " + (rp.coneBeam() != null ? "cone-beam slices " : "rows ") + range[0]
                            + ".." + (range[1] - 1) + " into "
                            + sg.roiCols() + "x" + sg.roiRows() + " slices" + (cr.found() != null
                            ? String.format(Locale.ROOT, "; centre: auto (%s) %.2f px", cr.found().method().id(),
                                    rp.scan().center()) : ""));
                    try {
                        // the run gets the centre already resolved: the report says how it was found (auto, method, score, time)
                        Map<String, Object> workflow = WorkflowReport.describe(rp, wf, cr.found(), centerNs, groupRows, requestedRows,
                                inputWarnings);
                        return reconstruct(src, output, reused, sg, buffers, prepared, new Lanes(runParams, lanes), workflow,
                                centerNs, wall0, uptime0, steps);
                    } catch (IllegalArgumentException e) {
                        // bad data found by the run itself (a row past the preflight's): the output exists now
                        throw new RunFailedException(e.getMessage() + "; the output is unfinished: its committed slices are kept, "
                                + "finish it with " + req.names().resume() + " once the input is mended", e);
                    }
                }
            }
        }
    }

    /**
     * The run itself, once the output is claimed and prepared: the slices, committed by a pool of writers as they come,
     * then the finish ({@link RunFinisher}: volume.raw, preview, report, manifest and _SUCCESS).
     *
     * @param workflow the workflow's description for the report
     */
    private Result reconstruct(ProjectionSource src, RunOutput output, Map<Integer, OutputCommit.Committed> reused,
                               SliceGeometry sg, SliceBuffers buffers, PreparedProcessor prepared, Lanes lanes,
                               Map<String, Object> workflow, long centerNs, long wall0, long uptime0, Steps steps) {
        RunOutput.Plan plan = output.plan();
        JobRequest req = plan.request();
        ReconstructionParams rp = req.params();
        ScanMetadata meta = src.metadata();
        ProgressBar bar = new ProgressBar(log);
        OrthoPreview preview = req.preview() ? new OrthoPreview(plan.first(), plan.end()) : null;
        CosmeticOutputs cosmetic = new CosmeticOutputs(warning -> log.println("warning: " + warning));
        // slices are encoded, hashed and committed by a pool of writers while the next groups are read and processed;
        // its queue holds at most one group, so memory stays bounded
        int queue = Math.max(1, VolumeReconstructor.defaultGroupRows(rp, meta, lanes.count()));
        Map<Integer, OutputCommit.Committed> committed;
        VolumeReconstructor.Summary s0;
        SliceCommitPool.Timings writes;
        OutputLock lock = output.lock();
        try (SliceCommitPool pool = SliceCommitPool.shared(output.commit(), NodeCores.count(), queue,
                rp.sliceDescription(), rp.output().coding(), row -> lock.ensureHeld(), buffers::give)) {
            s0 = VolumeReconstructor.run(src, lanes.params(), (row, px, w, h) -> {
                if (preview != null) cosmetic.run(RunFinisher.PREVIEW, () -> preview.accept(row, px.floats(), w, h));
                pool.submit(row, px, w, h); // the pool owns the pixels from here
            }, bar::update, req.resume() ? reused::containsKey : null, buffers, prepared, lanes.count());
            // the processors are closed: the devices are given back while the writers drain
            CompletableFuture<Void> released = lastUseOfDevices
                    ? CompletableFuture.runAsync(Backends::releaseBeforeExit) : CompletableFuture.completedFuture(null);
            // every slice is in the preview now: it is rendered while the writers commit the last slices, and the
            // finish writes what it rendered (slices reused from an earlier run are read back by the finish instead)
            String previewTitle = RunFinisher.previewTitle(plan, meta, s0.scan());
            CompletableFuture<Void> previewAhead = preview != null && reused.isEmpty()
                    ? CompletableFuture.runAsync(() -> cosmetic.run(RunFinisher.PREVIEW, () -> preview.png(previewTitle)))
                    : CompletableFuture.completedFuture(null);
            committed = pool.finish();
            writes = pool.timings();
            previewAhead.join();
            released.join();
        }
        VolumeReconstructor.Summary s = s0.withWorkflow(workflow);
        Map<Integer, RunManifest.Slice> slices = new TreeMap<>();
        for (OutputCommit.Committed c : committed.values())
            slices.put(c.row(), new RunManifest.Slice(c, false, null, null, s.variant()));
        RunReport.Times times = new RunReport.Times(System.nanoTime() - wall0, s.elapsedNanos(), centerNs, writes.busyNanos(),
                uptime0, writes.fromFrames(), steps.seconds());
        RunFinisher.Finished done = new RunFinisher(output, cosmetic, cancel).finish(
                new RunFinisher.Computed(s, meta, slices, reused, preview, times), RunFinisher.EngineReport.NONE);
        log.print(done.summary());
        return new Result(s, done.report(), req.output());
    }

    /** Whether the backend {@code id} resolves to fills direct frames itself; false where none resolves. */
    private static boolean fillsDirectFrames(String id) {
        try {
            return Backends.resolve(id).fillsDirectFrames();
        } catch (RuntimeException e) {
            return false; // the run itself says why the backend cannot run
        }
    }

    /** The engine's steps before its job, each with the seconds since the one before (for the report). */
    private static final class Steps {
        private final Map<String, Double> seconds = new LinkedHashMap<>();
        private long last;

        Steps(long start) {
            last = start;
        }

        void done(String step) {
            long now = System.nanoTime();
            seconds.put(step, (now - last) / 1e9);
            last = now;
        }

        Map<String, Double> seconds() {
            return seconds;
        }
    }

    /** The run's parameters as its processors get them, and how many groups it processes at once. */
    private record Lanes(ReconstructionParams params, int count) {
    }

    /**
     * The parameters for processors of which {@code lanes} share the GPU: each backend that may run there sizes its
     * processors for that ({@link BackendProvider#sharingOneDevice}), unless the user set how. The bytes computed are the
     * same.
     */
    private static ReconstructionParams sharingTheDevice(ReconstructionParams rp, int lanes) {
        BackendOptions bo = rp.algorithm().backendOptions();
        for (BackendProvider p : Backends.onAssignedGpus(rp.algorithm().backend())) bo = p.sharingOneDevice(bo, lanes);
        return rp.toBuilder().backendOptions(bo).build();
    }
}
