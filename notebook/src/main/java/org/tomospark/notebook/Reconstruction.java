package org.tomospark.notebook;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.config.ConfigRegistry;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.job.InputKeys;
import org.tomospark.job.JobKeys;
import org.tomospark.job.WorkflowSettings;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.ScanInputs;
import org.tomospark.job.batch.BatchReport;
import org.tomospark.job.batch.Reprocess;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.outputs.Hdf5Volume;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.OptionNames;
import org.tomospark.job.inputs.ProjectionInputs;
import org.tomospark.job.outputs.SliceFiles;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;
import org.tomospark.job.spark.SparkJobSpec;
import org.tomospark.job.spark.SparkKeys;
import org.tomospark.job.spark.JobGroupWatch;
import org.tomospark.job.spark.SparkReconstruction;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small builder for notebooks (Zeppelin {@code %spark}, Jupyter with a JVM kernel) that runs a
 * reconstruction on the session's SparkContext:
 * <pre>{@code
 * val b = Reconstruction.builder(spark).input("hdfs://nn/scans/a.h5").output("hdfs://nn/rec/a")
 *           .centerAuto("vo").stripe("sorting").filter("shepp-logan").backend("auto")
 * b.findCenter()                                  // the centre alone, nothing reconstructed
 * b.output("hdfs://nn/rec/a-sweep").centerSweep(290, 302, 1)   // center_*.tif + contact-sheet.png
 * val r = b.run()                                // the volume, preview.png, report.json (b is unchanged)
 * r.centerOfRotation                              // typed values of the report: r.report.number("timings.gups")
 * }</pre>
 * Every method sets the config key the command line's option sets (see conf/CONFIG.md), through the same
 * mapping ({@link WorkflowSettings}), so a notebook run and {@code tomospark reconstruct} with the same options
 * give the same parameters; the keys are recorded under "settings" in report.json.
 *
 * <p>A builder never changes: each method returns a new one, so {@code b.output(x).overwrite()} leaves {@code b} as it
 * was, and one builder can start several runs that differ only in what each adds. Errors name the builder's methods
 * ({@code .overwrite()}, {@code .output(...)}). The Spark jobs of a run stay in the caller's job group, so a notebook's
 * cancel button stops the run (its committed slices are whole; {@code .resume()} finishes it) and its progress bar
 * follows it.
 */
public final class Reconstruction {
    private Reconstruction() {
    }

    /** From a SparkSession (Scala or Java; taken reflectively, since this module does not depend on Spark SQL). */
    public static Builder builder(Object sparkSessionOrContext) {
        if (sparkSessionOrContext instanceof SparkContext sc) return new Builder(sc);
        if (sparkSessionOrContext instanceof JavaSparkContext jsc) return new Builder(jsc.sc());
        try {
            Object sc = sparkSessionOrContext.getClass().getMethod("sparkContext").invoke(sparkSessionOrContext);
            return new Builder((SparkContext) sc);
        } catch (ReflectiveOperationException | ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException("Reconstruction.builder: expected a SparkSession, SparkContext or JavaSparkContext, got "
                    + (sparkSessionOrContext == null ? "null" : sparkSessionOrContext.getClass().getName()), e);
        }
    }

    /**
     * The report of a finished or unfinished run, read from {@code output}'s report.json (the same values as its
     * {@link Result#report}), so that a paragraph can read a run's report without the paragraph that ran it.
     */
    public static Report report(Object sparkSessionOrContext, String output) {
        Path file = new Path(output, OutputCommit.REPORT);
        try {
            FileSystem fs = file.getFileSystem(HadoopConf.tune(builder(sparkSessionOrContext).sc.hadoopConfiguration()));
            if (!fs.exists(file))
                throw new IllegalArgumentException(output + ": no " + OutputCommit.REPORT + " (a run writes it when it finishes; "
                        + "after a cancelled or failed run, .resume() finishes it)");
            try (FSDataInputStream in = fs.open(file)) {
                return new Report(Json.read(in.readAllBytes(), file.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** The output directory, the run report (as in report.json) and its printed summary. */
    public record Result(String output, Report report, String summary, int slicesComputed, int slicesSkipped) {
        /** The centre of rotation the run used, in detector pixels (given, or found by {@code centerAuto}). */
        public double centerOfRotation() {
            return report.number("centerOfRotation");
        }

        /**
         * Where the volume is, by output format: the output folder (tiff: its slice_NNNNN.tif), its volume.zarr
         * (zarr), or its volume.h5, whose dataset is /volume (hdf5).
         */
        public String volume() {
            return switch (OutputFormat.parse(report.text("outputFormat"))) {
                case TIFF -> output;
                case ZARR -> output + "/" + SliceFiles.ZARR_DIR;
                case HDF5 -> output + "/" + Hdf5Volume.NAME;
            };
        }

        /** A few lines: what was computed, where, how fast; {@link #summary} is the run's full summary. */
        @Override
        public String toString() {
            return Printed.result(this);
        }
    }

    /**
     * A centre sweep: the centres (raw detector pixels), the image written for each ({@code center_CCCC.CC.tif},
     * in the same order), the contact sheet's file name, all relative to {@code output}, and the sweep's report. The
     * contact sheet is null when it could not be made; the report's warnings say why.
     */
    public record Sweep(String output, int row, List<Double> centers, List<String> images, String contactSheet,
                        Report report) {
        @Override
        public String toString() {
            return Printed.sweep(this);
        }
    }

    /**
     * A TV weight sweep: the rows, the weight factors, per image (rows × factors, row by row) its file name
     * ({@code tv_rRRRRR_xFFFF.FFF.tif}) and its weight λ, the grid PNG's file name (null when it could not be made), all
     * relative to {@code output}, and the sweep's report.
     */
    public record TvSweep(String output, List<Integer> rows, List<Double> factors, List<String> images, List<Double> weights,
                          String grid, Report report) {
        @Override
        public String toString() {
            return Printed.tvSweep(this);
        }
    }

    /** The options of a run, immutable: every method returns a new builder and leaves this one as it is. */
    public static final class Builder {
        private final SparkContext sc;
        private final Settings settings;
        private final InputOptions inputOptions;
        private final PrintStream log;

        private Builder(SparkContext sc, Settings settings, InputOptions inputOptions, PrintStream log) {
            this.sc = sc;
            this.settings = settings;
            this.inputOptions = inputOptions;
            this.log = log;
        }

        Builder(SparkContext sc) {
            this(sc, registered(), null, null);
        }

        /** The empty settings, once the job's keys are registered (declaring JobKeys' constants registers them). */
        private static Settings registered() {
            JobKeys.INPUT.name();
            return Settings.empty();
        }

        private Builder with(Settings s) {
            return new Builder(sc, s, inputOptions, log);
        }

        private Builder with(String key, Object value) {
            return with(WorkflowSettings.set(settings, ConfigRegistry.find(key), String.valueOf(value)));
        }

        /** Any config key of conf/CONFIG.md, as {@code --conf key=value}. */
        public Builder conf(String key, String value) {
            if (ConfigRegistry.find(key) == null)
                throw new IllegalArgumentException("Reconstruction.conf: " + ConfigRegistry.unknown(key));
            return with(key, value);
        }

        public Builder input(String uri) { return with(JobKeys.INPUT.name(), uri); }
        public Builder output(String uri) { return with(JobKeys.OUTPUT.name(), uri); }
        /** A given centre of rotation in detector pixels (replaces {@link #centerAuto}). */
        public Builder center(double c) { return with(WorkflowSettings.center(settings, WorkflowSettings.num(c))); }
        /** The centre found from the data by {@code method} (vo or correlation), recorded in report.json. */
        public Builder centerAuto(String method) { return with(WorkflowSettings.centerAuto(settings, method)); }
        /** Largest distance of the searched centre from the detector centre, px (0: the method's default). */
        public Builder centerSearchRadius(double px) { return with(CoreKeys.CENTER_SEARCH_RADIUS.name(), WorkflowSettings.num(px)); }
        /** Stripe (ring) removal: none, sorting, offset, fw or all, with the default settings (stripe.* keys through {@link #conf}). */
        public Builder stripe(String method) { return with(WorkflowSettings.stripe(settings, method, null)); }
        /** Stripe removal with an odd median window across detector columns. */
        public Builder stripe(String method, int size) { return with(WorkflowSettings.stripe(settings, method, size)); }
        /** Paganin single-distance phase retrieval. */
        public Builder paganin(double energyKeV, double distanceM, double pixelSizeM, double deltaOverBeta) {
            return with(WorkflowSettings.paganin(settings, energyKeV, distanceM, pixelSizeM, deltaOverBeta));
        }
        /** 360° scan with an offset axis, stitched to 180° (the overlap comes from the centre, or is found with {@link #centerAuto}). */
        public Builder halfAcquisition(boolean on) { return with(WorkflowSettings.halfAcquisition(settings, on)); }
        /** Detector columns, rows (per slice) and consecutive projections averaged into one. */
        public Builder binning(int cols, int rows, int projections) {
            return with(WorkflowSettings.binning(settings, cols, rows, projections));
        }
        /** Region of interest within the slice; only it is computed. */
        public Builder roi(int col, int row, int cols, int rows) {
            return with(WorkflowSettings.roi(settings, col, row, cols, rows));
        }
        public Builder filter(String window) { return with(CoreKeys.FILTER.name(), window); }
        public Builder filter(FilterSpec f) {
            return with(CoreKeys.FILTER.name(), f.window().id())
                    .with(CoreKeys.FILTER_CUTOFF.name(), WorkflowSettings.num(f.cutoff()))
                    .with(CoreKeys.FILTER_PADDING.name(), f.padding().name().toLowerCase(Locale.ROOT));
        }
        public Builder backend(String id) { return with(CoreKeys.BACKEND.name(), id); }
        /** fbp (default), sirt, os-sart, cgls, mltr or tv. */
        public Builder algorithm(String method) { return with(CoreKeys.ALGORITHM.name(), method); }
        public Builder iterations(int n) { return with(CoreKeys.ITERATIONS.name(), n); }
        /** Ordered subsets of os-sart and mltr. */
        public Builder subsets(int n) { return with(CoreKeys.SUBSETS.name(), n); }
        /** When the iterations stop: auto, iterations, residual, change or discrepancy. */
        public Builder stop(String rule) { return with(CoreKeys.STOP.name(), rule); }
        /** OS-SART's relaxation, in (0, 2). */
        public Builder relaxation(double lambda) { return with(CoreKeys.RELAXATION.name(), WorkflowSettings.num(lambda)); }
        /** The weight of tv's total-variation penalty. */
        public Builder tvWeight(double weight) { return with(CoreKeys.TV_WEIGHT.name(), WorkflowSettings.num(weight)); }
        /** Start the iterations from the filtered back-projection instead of zero. */
        public Builder fbpStart() { return with(CoreKeys.START.name(), "fbp"); }
        /** The threshold of the stop rule; set alone, stop once the relative residual is at most this. */
        public Builder tolerance(double relativeResidual) {
            return with(CoreKeys.TOLERANCE.name(), WorkflowSettings.num(relativeResidual));
        }
        public Builder slices(int start, int end) { return with(CoreKeys.SLICES.name(), start + ":" + end); }
        public Builder groupRows(int rows) { return with(CoreKeys.GROUP_ROWS.name(), rows); }
        public Builder angles(double startDeg, double stepDeg) {
            return with(CoreKeys.ANGLES_START.name(), WorkflowSettings.num(startDeg))
                    .with(CoreKeys.ANGLES_STEP.name(), WorkflowSettings.num(stepDeg));
        }
        public Builder sliceSize(int n) { return with(CoreKeys.SLICE_SIZE.name(), n); }
        /** astra: the rotation axis at pixel (N-1)/2 of the slice (default); skimage: at N//2, as scikit-image. */
        public Builder sliceGrid(String grid) { return with(CoreKeys.SLICE_GRID.name(), grid); }
        /**
         * tiff (one file per slice), zarr (volume.zarr, one chunk per slice) or hdf5 (volume.h5, assembled from the
         * slices at the end); {@link Result#volume} says where the volume is.
         */
        public Builder outputFormat(String format) { return with(CoreKeys.OUTPUT_FORMAT.name(), format); }
        /** zarr output: none (default) or zstd (numcodecs' zstd codec, level 3). */
        public Builder zarrCompression(String codec) { return with(CoreKeys.ZARR_COMPRESSION.name(), codec); }
        /** float32, float16, or uint16 (with {@link #outputRange}). */
        public Builder outputType(String type) { return with(CoreKeys.OUTPUT_TYPE.name(), type); }
        /** uint16 output: the values stored as counts 0 and 65535. */
        public Builder outputRange(double min, double max) {
            return with(CoreKeys.OUTPUT_RANGE.name(), WorkflowSettings.num(min) + "," + WorkflowSettings.num(max));
        }
        public Builder slicesPerPass(int k) { return with(CoreKeys.SLICES_PER_PASS.name(), k); }
        public Builder devices(String... addresses) { return with(SparkKeys.DEVICES.name(), String.join(",", addresses)); }
        /** How to read a TIFF stack or raw input (else the job.input.* keys). */
        public Builder inputOptions(InputOptions o) { return new Builder(sc, settings, o, log); }
        public Builder rawVolume(boolean r) { return with(JobKeys.OUTPUT_RAW.name(), r); }
        public Builder progress(boolean p) { return with(SparkKeys.PROGRESS.name(), p); }
        /** Write preview.png (central XY, XZ and YZ views) next to the slices; on by default. */
        public Builder preview(boolean p) { return with(JobKeys.PREVIEW.name(), p); }
        /** Replace what the output holds (a complete or an unfinished run). */
        public Builder overwrite() { return with(JobKeys.OVERWRITE.name(), true); }
        /** Keep the output's committed slices and compute only the missing ones (after a cancelled or failed run). */
        public Builder resume() { return with(JobKeys.RESUME.name(), true); }
        /**
         * Where the run's progress bar, {@link #centerSweep} and {@link #findCenter} report (default: System.out when
         * each runs, which a notebook points at the paragraph's output).
         */
        public Builder log(PrintStream out) { return new Builder(sc, settings, inputOptions, out); }

        /** Per-scan parameters for {@link #reprocess}: a CSV or JSON table, or tomopy-cli's rotation_axis.json (batch.table). */
        public Builder table(String uri) { return with(BatchKeys.TABLE.name(), uri); }
        /** Scans of {@link #reprocess} whose Spark jobs run at once (batch.scansInFlight). */
        public Builder scansInFlight(int n) { return with(BatchKeys.SCANS_IN_FLIGHT.name(), n); }
        /** {@link #reprocess} reconstructs again complete outputs made by a version below this one. */
        public Builder redoIfVersionBelow(String version) { return with(BatchKeys.REDO_IF_VERSION_BELOW.name(), version); }

        /**
         * Reconstructs every scan of {@code inputs} (folders, Hadoop globs, {@code @list} files or scans) into
         * {@code outputRoot/NAME}, as {@code tomospark reprocess}: this builder's settings are every scan's defaults
         * (leave input and output unset), {@link #table} overrides them per scan. Returns the batch report, also
         * written to {@code outputRoot/batch-report.json}; a scan's failure is in it, not thrown.
         */
        public BatchReport reprocess(String outputRoot, String... inputs) {
            Settings s = WorkflowSettings.set(settings, BatchKeys.OUTPUT_ROOT, outputRoot);
            s = WorkflowSettings.set(s, BatchKeys.INPUTS, ScanInputs.join(List.of(inputs)));
            return Reprocess.run(sc, s, log());
        }

        /** The settings so far (config keys as given). */
        public Settings settings() {
            return settings;
        }

        /** The algorithm parameters these settings give ({@link CoreKeys#params}, as for the command line). */
        public ReconstructionParams params() {
            return CoreKeys.params(settings);
        }

        public SparkJobSpec spec() {
            if (settings.get(CoreKeys.CENTER_SWEEP) != null)
                throw new IllegalArgumentException("config key center.sweep is set: run it with centerSweep(...), not run()");
            if (settings.get(CoreKeys.TV_WEIGHT_SWEEP) != null)
                throw new IllegalArgumentException("config key iterative.tvWeightSweep is set: run it with tvWeightSweep(...), not run()");
            input();
            output();
            if (settings.get(JobKeys.OVERWRITE) && settings.get(JobKeys.RESUME))
                throw new IllegalArgumentException(".overwrite() and .resume() cannot be used together");
            SparkJobSpec s = SparkKeys.spec(settings, OptionNames.NOTEBOOK);
            return inputOptions == null ? s : s.withInputOptions(inputOptions);
        }

        /** Reconstructs the volume as a Spark job on the session's context. */
        public Result run() {
            SparkJobSpec spec = spec();
            SparkReconstruction.Result r = SparkReconstruction.run(sc, spec,
                    spec.spark().progress() ? SparkReconstruction.printer(log()) : null);
            return new Result(r.output(), new Report(r.report()), r.summary(), r.slicesComputed(), r.slicesSkipped());
        }

        /**
         * The centre of rotation by the configured method ({@link #centerAuto}; else config key center.method,
         * default vo), without reconstructing: the same search the Spark job runs on its driver before planning
         * (a few rows around the middle of the row range; correlation of the overlap for half acquisition).
         */
        public double findCenter() {
            return centerSearch().center();
        }

        /** {@link #findCenter} with the method used and its score. */
        public CenterFinder.Result centerSearch() {
            ReconstructionParams p = params();
            if (p.workflow().centerMethod() == null)
                p = p.toBuilder().workflow(p.workflow().withCenterMethod(settings.get(CoreKeys.CENTER_METHOD))).build();
            ReconstructionParams params = p;
            CenterFinder.Result r;
            try (JobGroupWatch watch = JobGroupWatch.start(sc)) {
                // reads and searches only: a Cancel returns at once and leaves the search to end by itself
                r = watch.await("centre search of " + input(), () -> {
                    try (ProjectionSource src = open()) {
                        return Workflow.resolveCenter(src, params).found();
                    }
                });
            }
            log().printf(Locale.ROOT, "Centre of %s: %.2f px (%s)%n", input(), r.center(), r.method().id());
            return r;
        }

        /**
         * Centre sweep: the middle slice of the row range reconstructed at each centre start, start+step, …, ≤ end
         * (raw detector pixels, with every workflow option applied), written to the output as
         * {@code center_CCCC.CC.tif} per centre and {@code contact-sheet.png}, with report.json. Runs in the
         * driver (one slice), like {@code tomospark reconstruct --center-sweep}.
         */
        public Sweep centerSweep(double start, double end, double step) {
            String out = output();
            Map<String, Object> rep = inDriver(WorkflowSettings.centerSweep(settings, start, end, step), DirectEngine::sweep);
            @SuppressWarnings("unchecked") List<Double> centers = (List<Double>) rep.get("centers");
            @SuppressWarnings("unchecked") List<String> images = (List<String>) rep.get("images");
            int row = ((Number) rep.get("row")).intValue();
            return new Sweep(out, row, centers, images, (String) rep.get("contactSheet"), new Report(rep));
        }

        /**
         * TV weight sweep: the quarter, middle and three-quarter rows of the row range reconstructed by tv at each
         * weight factor times the data-scaled default (1 = the default), written to the output as
         * {@code tv_rRRRRR_xFFFF.FFF.tif} and {@code tv-weight-sweep.png} with report.json. Runs in the driver (a few
         * slices), like {@code tomospark reconstruct --tv-weight-sweep}.
         */
        public TvSweep tvWeightSweep(double... factors) {
            StringBuilder list = new StringBuilder();
            for (double f : factors) list.append(list.isEmpty() ? "" : ",").append(WorkflowSettings.num(f));
            String out = output();
            Settings s = settings.with(CoreKeys.TV_WEIGHT_SWEEP.name(), list.toString());
            Map<String, Object> rep = inDriver(s, DirectEngine::tvWeightSweep);
            @SuppressWarnings("unchecked") List<Integer> rows = (List<Integer>) rep.get("rows");
            @SuppressWarnings("unchecked") List<Double> fs = (List<Double>) rep.get("factors");
            @SuppressWarnings("unchecked") List<Map<String, Object>> images = (List<Map<String, Object>>) rep.get("images");
            List<String> files = images.stream().map(e -> (String) e.get("file")).toList();
            List<Double> weights = images.stream().map(e -> ((Number) e.get("tvWeight")).doubleValue()).toList();
            return new TvSweep(out, rows, fs, files, weights, (String) rep.get("contactSheet"), new Report(rep));
        }

        /** A sweep of {@code s}'s settings in this JVM on the direct engine: its report. */
        private Map<String, Object> inDriver(Settings s, SweepMode mode) {
            JobRequest req = new JobRequest(input(), output(), CoreKeys.params(s), s.get(JobKeys.OVERWRITE), s.get(JobKeys.RESUME),
                    false, s, OptionNames.NOTEBOOK);
            try (JobGroupWatch watch = JobGroupWatch.start(sc)) {
                // a Cancel returns at once; the sweep, told by the same watch, ends without writing its images
                return watch.await("sweep into " + output(), () -> {
                    try (ProjectionSource src = open()) {
                        DirectEngine engine = new DirectEngine(HadoopConf.tune(sc.hadoopConfiguration()), log()).cancelledBy(watch);
                        return mode.run(engine, req, src).report();
                    }
                });
            }
        }

        /** One of the direct engine's sweeps. */
        private interface SweepMode {
            DirectEngine.Result run(DirectEngine engine, JobRequest req, ProjectionSource src);
        }

        private PrintStream log() {
            return log != null ? log : System.out;
        }

        /** The keys set, in the order set: {@code Reconstruction.Builder(input=…, center=296, filter=shepp-logan)}. */
        @Override
        public String toString() {
            return Printed.builder(settings, inputOptions);
        }

        private String input() {
            String in = settings.get(JobKeys.INPUT);
            if (in.isBlank()) throw new IllegalArgumentException("input: no input given (.input(...))");
            return in;
        }

        private String output() {
            String out = settings.get(JobKeys.OUTPUT);
            if (out.isBlank()) throw new IllegalArgumentException("output: no output given (.output(...))");
            return out;
        }

        private ProjectionSource open() {
            InputOptions o = inputOptions != null ? inputOptions : InputKeys.inputOptions(settings);
            return ProjectionInputs.open(input(), o, HadoopConf.tune(sc.hadoopConfiguration()));
        }
    }
}
