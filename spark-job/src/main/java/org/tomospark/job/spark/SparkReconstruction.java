package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.resource.ResourceInformation;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.io.FloatTiff;
import org.tomospark.executor.io.OrthoPreview;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.executor.pipeline.VolumeReconstructor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.job.io.InputIdentity;
import org.tomospark.job.io.Json;
import org.tomospark.job.io.OutputCommit;
import org.tomospark.job.io.ProjectionInputs;
import org.tomospark.job.io.SliceWriter;
import org.tomospark.job.local.JobRequest;
import org.tomospark.job.local.RunReport;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Spark reconstruction, driver side. The driver reads only the scan's metadata and its flats/darks
 * (averaged once and broadcast), validates everything it can before the output is touched, plans the slice
 * groups (one task each, sized by the {@link MemoryPlanner}), runs them, and finishes the output with
 * {@code manifest.json}, {@code report.json} and {@code _SUCCESS}.
 */
public final class SparkReconstruction {
    private static final Logger LOG = LoggerFactory.getLogger(SparkReconstruction.class);

    private SparkReconstruction() {
    }

    /** The outcome of a run: where the slices are, the report (as written to report.json) and its summary. */
    public record Result(String output, Map<String, Object> report, String summary, int slicesTotal, int slicesComputed,
                         int slicesSkipped, List<GroupOutcome> groups) {
    }

    /** Default progress printer: one line per update to the given stream. */
    public static VolumeReconstructor.Progress printer(PrintStream out) {
        long[] last = {-1};
        return (done, total, updates, ns) -> {
            if (done == last[0]) return;
            last[0] = done;
            double gups = ns == 0 ? 0 : updates / (double) ns;
            double eta = done == 0 ? Double.NaN : ns / 1e9 * (total - done) / done;
            int w = 30, filled = total == 0 ? w : (int) ((long) w * done / total);
            out.printf("[%s%s] %d/%d slices  %.2f GU/s  ETA %s%n", "#".repeat(filled), ".".repeat(w - filled), done, total, gups,
                    Double.isNaN(eta) ? "?" : String.format("%.0fs", eta));
            out.flush();
        };
    }

    static boolean isLocal(SparkContext sc) {
        return sc.master().startsWith("local") && !sc.master().startsWith("local-cluster");
    }

    public static Result run(SparkContext sc, SparkJobSpec spec, VolumeReconstructor.Progress progress) {
        long wall0 = System.nanoTime();
        ReconstructionParams params = spec.params();
        SparkConf sconf = sc.getConf();
        boolean local = isLocal(sc);
        Configuration conf = org.tomospark.job.io.HadoopConf.tune(sc.hadoopConfiguration());

        // --- devices and backend, before anything is read
        List<String> devices = List.of();
        if (local) {
            if (sconf.contains("spark.task.resource.gpu.amount"))
                throw new IllegalArgumentException("spark.task.resource.gpu.amount is set, but Spark's local mode cannot give tasks GPUs "
                        + "(tasks would wait forever); remove it and list the GPUs in job.devices or spark.driver.resource.gpu.*");
            devices = spec.spark().devices();
            if (devices.isEmpty()) {
                scala.Option<ResourceInformation> gpu = sc.resources().get("gpu");
                if (gpu.isDefined()) devices = List.of(gpu.get().addresses());
            }
            if (!params.backend().equals("auto")) Backends.resolve(params.backend()); // cuda without a GPU: clear error here
            else if (devices.isEmpty())
                LOG.warn("backend auto: no GPU assigned (job.devices and spark.driver.resource.gpu are empty); using java");
        }

        // --- input: metadata, centre (if auto), flats/darks, preflight
        String format = ProjectionInputs.resolveFormat(spec.input(), spec.inputOptions(), conf);
        ScanMetadata meta;
        FlatDark fields;
        int[] range;
        ScanGeometry scan;
        SliceGeometry slice;
        MemoryPlanner.Plan mp;
        Workflow wf;
        Workflow.CenterResolution cr;
        long centerNs;
        int requestedRows;
        try (ProjectionSource src = ProjectionInputs.open(spec.input(), spec.inputOptions(), conf)) {
            meta = src.metadata();
            long c0 = System.nanoTime();
            cr = Workflow.resolveCenter(src, params); // reads a few rows, only for centre auto
            centerNs = System.nanoTime() - c0;
            params = cr.params();
            scan = params.scanGeometry(meta);
            wf = new Workflow(scan, params);
            slice = params.sliceGeometry(wf.effective().detectorWidth());
            range = params.rowRange(meta);
            int rb = wf.rowBin();
            if (range[0] % rb != 0)
                throw new IllegalArgumentException("bin.rows " + rb + ": the first row " + range[0] + " must be a multiple of it");
            requestedRows = range[1] - range[0];
            range[1] = range[0] + requestedRows / rb * rb;
            if (range[1] <= range[0]) throw new IllegalArgumentException("bin.rows " + rb + " exceeds the " + requestedRows + " rows requested");
            // flats/darks of every row a task reads, halo rows included, averaged once here and broadcast
            int[] hb = wf.haloBand(range[0], range[1] - range[0], meta.rows());
            fields = FlatDark.read(src, hb[0], hb[1]);
            mp = plan(sc, spec.withParams(params), meta, slice, new int[]{range[0] / rb, range[1] / rb}, local, rb, wf.haloRows());
            preflight(src, params, fields, range, mp.groupRows() * rb);
        }
        int rb = wf.rowBin();
        int groupRows = mp.groupRows() * rb;
        List<GroupPlanner.Group> groups = GroupPlanner.plan(range[0], range[1], groupRows, params.backendOptions().groupMultiple() * rb);
        int first = range[0] / rb, end = range[1] / rb; // output slice indices

        // --- output: policy, signature, resume
        Map<String, Object> identity = InputIdentity.of(spec.input(), format, spec.inputOptions(), conf);
        Object paramsJson = Json.describe(params);
        String signature = OutputCommit.signature(identity, params);
        OutputCommit out = new OutputCommit(spec.output(), conf);
        if (spec.resume() && !spec.overwrite()) {
            // --resume of an output that already holds exactly this run: nothing to do, and nothing is deleted or rewritten
            java.util.Set<String> derived = new java.util.HashSet<>();
            if (spec.preview()) derived.add("preview.png");
            if (spec.spark().outputRaw()) derived.add("volume.raw");
            Map<Integer, OutputCommit.Committed> done = out.upToDate(signature, first, end, derived);
            if (done != null) {
                String msg = org.tomospark.job.local.DirectEngine.nothingToDoMessage(spec.output(), done.size(), range);
                LOG.info(msg);
                Map<String, Object> report = Json.read(out.read(OutputCommit.REPORT), spec.output() + "/" + OutputCommit.REPORT);
                return new Result(spec.output(), report, msg + "\n", end - first, 0, done.size(), List.of());
            }
        }
        Map<String, Object> runInfo = new TreeMap<>();
        runInfo.put("input", identity);
        runInfo.put("params", paramsJson);
        out.prepare(spec.overwrite(), spec.resume(), signature, runInfo);
        // a failed run keeps its whole, checksummed slices for --resume, but no temporary files
        try {
            Map<Integer, OutputCommit.Committed> reused = new TreeMap<>();
            BitSet skip = new BitSet();
            if (spec.resume()) {
                for (OutputCommit.Committed c : out.verifiedCommitted(first, end).values()) {
                    reused.put(c.row(), c);
                    skip.set(c.row());
                }
            }
            List<GroupPlanner.Group> toRun = new ArrayList<>();
            for (GroupPlanner.Group g : groups) {
                int next = skip.nextClearBit(g.start() / rb);
                if (next < g.end() / rb) toRun.add(g);
            }
            int total = end - first;
            LOG.info("spark job: {} slices in {} groups of {} rows ({} to run, {} slices reused), {} MiB per task of {} MiB",
                    total, groups.size(), groupRows, toRun.size(), reused.size(), mp.hostBytesPerTask() >> 20,
                    mp.hostBudgetPerTask() >> 20);

            // --- run
            Map<String, String> hconf = new HashMap<>();
            for (Map.Entry<String, String> e : conf) hconf.put(e.getKey(), e.getValue());
            JobPlan plan = new JobPlan(spec.input(), format, spec.inputOptions(), spec.output(), params, meta, fields, range[0], range[1],
                    groupRows, skip, hconf, spec.spark().withDevices(devices), local, signature + "/" + groupRows);
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
            Broadcast<JobPlan> bplan = jsc.broadcast(plan);
            LongAccumulator slicesAcc = sc.longAccumulator("tomospark.slices");
            LongAccumulator updatesAcc = sc.longAccumulator("tomospark.updates");
            String desc = "tomospark: " + toRun.size() + " slice groups of " + spec.input();
            // interrupt running tasks when the job is cancelled, so a cancelled run stops committing slices
            jsc.setJobGroup("tomospark-" + signature.substring(0, 8) + "-" + System.nanoTime(), desc, true);
            long t0 = System.nanoTime();
            List<GroupOutcome> outcomes = new ArrayList<>();
            if (!toRun.isEmpty()) {
                JavaFutureAction<List<GroupOutcome>> f = jsc.parallelize(toRun, toRun.size()).map(g -> {
                    GroupOutcome o = GroupTask.run(bplan.value(), g);
                    slicesAcc.add(o.rows() / bplan.value().rowBin());
                    updatesAcc.add(o.updates());
                    return o;
                }).collectAsync();
                try {
                    while (true) {
                        try {
                            outcomes = f.get(500, TimeUnit.MILLISECONDS);
                            break;
                        } catch (TimeoutException e) {
                            if (progress != null && spec.spark().progress())
                                progress.update((int) Math.min(total, slicesAcc.value() + total - countRows(toRun) / rb), total, updatesAcc.value(),
                                        System.nanoTime() - t0);
                        }
                    }
                } catch (InterruptedException e) {
                    f.cancel(true);
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted; the output is unfinished (rerun with --resume)", e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException("Spark job failed; the output is unfinished (committed slices are kept for --resume): "
                            + rootMessage(e), e.getCause());
                } finally {
                    jsc.clearJobGroup();
                    bplan.destroy();
                }
            }
            long runNs = System.nanoTime() - t0;
            long updates = outcomes.stream().mapToLong(GroupOutcome::updates).sum();
            if (progress != null && spec.spark().progress()) progress.update(total, total, updates, runNs);

            // --- finish: raw volume, preview, manifest, report, _SUCCESS
            Map<Integer, Object[]> perSlice = new TreeMap<>();
            for (GroupOutcome o : outcomes) {
                double secs = (o.readNanos() + o.preprocessNanos() + o.filterNanos() + o.backprojectNanos() + o.writeNanos()) / 1e9
                        / Math.max(1, o.slices().size());
                for (OutputCommit.Committed c : o.slices()) perSlice.put(c.row(), new Object[]{c, o.group(), secs, false});
            }
            for (OutputCommit.Committed c : reused.values()) perSlice.put(c.row(), new Object[]{c, -1, 0.0, true});
            if (perSlice.size() != total)
                throw new IllegalStateException(spec.output() + ": " + perSlice.size() + " of " + total + " slices committed; the output is unfinished");
            if (spec.spark().outputRaw()) writeRawVolume(out, new int[]{first, end});
            if (spec.preview()) writePreview(out, meta, wf.effective().centerOfRotation(), first, end, outcomes, reused.keySet());
            int computed = total - reused.size();
            Map<String, Object> workflow = VolumeReconstructor.describe(params, wf, cr.found(), centerNs, groupRows, wf.haloRows(), requestedRows);
            VolumeReconstructor.Summary sum = summaryOf(wf.effective(), slice, total, reused.size(), runNs, outcomes, workflow);
            JobRequest req = new JobRequest(spec.input(), spec.output(), params, spec.overwrite(), spec.resume(), spec.preview(),
                    SparkKeys.settings(spec.settings()));
            Map<String, Object> report = report(sc, req, sum, meta, paramsJson, mp, groups.size(), outcomes, runNs,
                    System.nanoTime() - wall0, centerNs, local, devices);
            report.put("groupRowsRaw", groupRows);
            String summary = RunReport.summary(req, sum) + sparkSummary(spec, report);
            out.writeFile(OutputCommit.REPORT, Json.write(report));
            out.finish(Json.write(manifest(spec, format, identity, paramsJson, signature, meta, wf.effective(), slice, perSlice, report)));
            return new Result(spec.output(), report, summary, total, computed, reused.size(), outcomes);
        } finally {
            out.writer().cleanTemporary();
        }
    }

    /** The memory plan from the application's settings (executor heap, cores per task) and the job's keys. */
    /** Plans in output slices; a slice needs {@code rowBin} detector rows (binning), so it costs that many raw rows. */
    static MemoryPlanner.Plan plan(SparkContext sc, SparkJobSpec spec, ScanMetadata meta, SliceGeometry slice, int[] range, boolean local,
                                   int rowBin, int haloRows) {
        ReconstructionParams params = spec.params();
        SparkConf sconf = sc.getConf();
        int k = params.backendOptions().slicesPerPass();
        long execMem = local ? Runtime.getRuntime().maxMemory() : sconf.getSizeAsBytes("spark.executor.memory", "1g");
        int taskCpus = sconf.getInt("spark.task.cpus", 1);
        int execCores = local ? sc.defaultParallelism() : sconf.getInt("spark.executor.cores", 1);
        return MemoryPlanner.plan(new MemoryPlanner.Input(meta.numProjections(), meta.width(),
                meta.sampleType() == ScanMetadata.SampleType.UINT16 ? 2 : 4, (long) slice.pixels(), k, range[1] - range[0],
                params.groupRows(), execMem, Math.max(1, execCores / taskCpus), spec.spark().memoryFraction(),
                spec.spark().gpuMemory(), spec.spark().tasksPerDevice(), sc.defaultParallelism(), rowBin, haloRows));
    }

    private static int countRows(List<GroupPlanner.Group> groups) {
        int n = 0;
        for (GroupPlanner.Group g : groups) n += g.rows();
        return n;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage();
        if (t instanceof org.apache.spark.SparkException && m != null) {
            // "Job aborted due to stage failure: ... most recent failure: Lost task ...: java.lang.X: message\n\tat ..."
            int nl = m.indexOf("\n\tat ");
            if (nl > 0) m = m.substring(0, nl);
        }
        return m == null ? t.toString() : m;
    }

    /**
     * Checks, on the driver, what would otherwise fail inside tasks: the flat/dark denominators of every group
     * (the core's preprocessor applied to the flats as data) and the first and last rows of the projections
     * (read and preprocessed: catches a truncated file and unusable data before any slice is written).
     */
    static void preflight(ProjectionSource src, ReconstructionParams params, FlatDark fields, int[] range, int groupRows) {
        Preprocessor pre = params.preprocessor();
        int w = fields.width();
        for (int s = range[0]; s < range[1]; s += groupRows) {
            int n = Math.min(groupRows, range[1] - s);
            FlatDark sub = fields.subBand(s - range[0], n);
            float[] flat = new float[n * w];
            for (int r = 0; r < n; r++) for (int c = 0; c < w; c++) flat[r * w + c] = sub.flat(r, c);
            pre.apply(RawStack.ofFloat(1, n, w, flat), sub, src.flatName(), src.flatName());
        }
        for (int row : new TreeSet<>(List.of(range[0], range[1] - 1))) {
            RawStack band = src.readProjections(row, 1);
            pre.apply(band, fields.subBand(row - range[0], 1), src.dataName(), src.flatName());
        }
    }

    /** Streams the committed slices into volume.raw, one slice in memory at a time (a 2048³ volume is 32 GiB). */
    private static void writeRawVolume(OutputCommit out, int[] range) {
        out.writeFile("volume.raw", os -> {
            for (int r = range[0]; r < range[1]; r++) {
                FloatTiff.Image img = FloatTiff.decode(out.read(SliceWriter.sliceName(r)));
                ByteBuffer bb = ByteBuffer.allocate(img.pixels().length * 4).order(ByteOrder.LITTLE_ENDIAN);
                bb.asFloatBuffer().put(img.pixels());
                os.write(bb.array());
            }
        });
    }

    private static String version() {
        String v = SparkReconstruction.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /**
     * The run as the core's {@link VolumeReconstructor.Summary}, so the report and its printed summary come from the
     * same {@link RunReport} code as the direct engine's. Stage times are summed over the tasks (they overlap);
     * the elapsed time is the Spark job's, so GU/s is the cluster's throughput. The backend is the one most
     * groups ran on (all of them are listed under "backends").
     */
    static VolumeReconstructor.Summary summaryOf(ScanGeometry effective, SliceGeometry slice, int total, int skipped, long runNs,
                                                 List<GroupOutcome> outcomes, Map<String, Object> workflow) {
        PreprocessStats ps = PreprocessStats.ZERO;
        long read = 0, pre = 0, filt = 0, bp = 0, updates = 0;
        Map<List<String>, Long> used = new HashMap<>();
        for (GroupOutcome o : outcomes) {
            ps = ps.plus(o.preprocess());
            read += o.readNanos();
            pre += o.preprocessNanos();
            filt += o.filterNanos();
            bp += o.backprojectNanos();
            updates += o.updates();
            used.merge(List.of(o.backend(), o.device(), o.variant()), 1L, Long::sum);
        }
        List<String> be = used.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(List.of("none", "none (every slice reused)", "none"));
        return new VolumeReconstructor.Summary(effective, slice, total, skipped, updates, runNs, read, pre, filt, bp, ps, be.get(0),
                be.get(1), be.get(2), workflow);
    }

    /** {@link RunReport#build} (parameters, centre, backend, timings, GU/s, warnings) plus what only a Spark run has. */
    static Map<String, Object> report(SparkContext sc, JobRequest req, VolumeReconstructor.Summary sum, ScanMetadata meta,
                                      Object paramsJson, MemoryPlanner.Plan mp, int groups, List<GroupOutcome> outcomes, long runNs,
                                      long wallNs, long centerNs, boolean local, List<String> devices) {
        Map<String, Object> m = RunReport.build(req, sum, "spark");
        m.put("spark", Map.of("version", sc.version(), "master", sc.master(), "applicationId", sc.applicationId(),
                "localMode", local, "localDevices", devices));
        m.put("scan", meta.toString());
        m.put("params", paramsJson);
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("rowsPerGroup", mp.groupRows());
        g.put("planned", groups);
        g.put("run", outcomes.size());
        g.put("hostMiBPerTask", mp.hostBytesPerTask() / 1048576.0);
        g.put("hostBudgetMiBPerTask", mp.hostBudgetPerTask() / 1048576.0);
        g.put("retriedTasks", outcomes.stream().filter(o -> o.attempt() > 0).count());
        m.put("groups", g);
        Map<String, Long> backends = new TreeMap<>();
        Map<String, Long> executors = new TreeMap<>();
        for (GroupOutcome o : outcomes) {
            backends.merge(o.backend() + " on " + o.device() + " (" + o.variant() + ")", 1L, Long::sum);
            executors.merge(o.executor(), 1L, Long::sum);
        }
        m.put("backends", backends);
        m.put("executors", executors);
        @SuppressWarnings("unchecked") Map<String, Object> t = (Map<String, Object>) m.get("timings");
        t.put("wallSeconds", wallNs / 1e9);
        t.put("jobSeconds", runNs / 1e9);
        t.put("centerSearchSeconds", centerNs / 1e9);
        t.put("taskWriteSeconds", outcomes.stream().mapToLong(GroupOutcome::writeNanos).sum() / 1e9);
        t.put("stageSeconds", "read/preprocess/filter/backproject/write seconds are summed over the tasks, which overlap");
        return m;
    }

    /** The Spark lines after {@link RunReport#summary}: wall time, groups, executors, every backend. */
    @SuppressWarnings("unchecked")
    static String sparkSummary(SparkJobSpec spec, Map<String, Object> r) {
        Map<String, Object> t = (Map<String, Object>) r.get("timings");
        Map<String, Object> g = (Map<String, Object>) r.get("groups");
        return String.format(java.util.Locale.ROOT, "  spark: wall %.2f s (job %.2f s); %s groups of %s rows run on executors %s; %s retried%n",
                (Double) t.get("wallSeconds"), (Double) t.get("jobSeconds"), g.get("run"), g.get("rowsPerGroup"),
                ((Map<?, ?>) r.get("executors")).keySet(), g.get("retriedTasks"))
                + "  backends: " + r.get("backends") + "\n"
                + "  files: manifest.json, report.json" + (spec.preview() ? ", preview.png" : "")
                + (spec.spark().outputRaw() ? ", volume.raw" : "") + ", _SUCCESS\n";
    }

    /**
     * preview.png as the direct engine writes it ({@link OrthoPreview}): the XZ and YZ planes from the central
     * row and column each task sent back, slices reused from an earlier run read back whole, and the middle
     * slice read back for the XY panel.
     */
    static void writePreview(OutputCommit out, ScanMetadata meta, double center, int first, int end, List<GroupOutcome> outcomes,
                             java.util.Collection<Integer> reused) {
        OrthoPreview preview = new OrthoPreview(first, end);
        for (GroupOutcome o : outcomes) for (SliceProfile p : o.profiles()) preview.acceptProfiles(p.slice(), p.row(), p.column());
        int middle = (first + end - 1) / 2;
        TreeSet<Integer> readBack = new TreeSet<>(reused);
        readBack.add(middle);
        for (int row : readBack) {
            String name = SliceWriter.sliceName(row);
            try {
                FloatTiff.Image img = FloatTiff.decode(out.read(name));
                preview.accept(row, img.pixels(), img.width(), img.height());
            } catch (IOException e) {
                throw new IllegalStateException(out.dir() + "/" + name + ": cannot read the slice back for preview.png", e);
            }
        }
        out.writeFile("preview.png", preview.png(RunReport.previewTitle(meta, center)));
    }

    static Map<String, Object> manifest(SparkJobSpec spec, String format, Map<String, Object> identity, Object paramsJson,
                                        String signature, ScanMetadata meta, ScanGeometry scan, SliceGeometry slice,
                                        Map<Integer, Object[]> perSlice, Map<String, Object> report) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("software", Map.of("name", "tomospark", "version", version(), "engine", "spark"));
        m.put("created", Instant.now().toString());
        m.put("runSignature", signature);
        m.put("input", identity);
        m.put("inputOptions", Json.describe(spec.inputOptions()));
        m.put("params", paramsJson);
        m.put("settings", spec.settings());
        m.put("geometry", Map.of("angles", meta.numProjections(), "detectorRows", meta.rows(), "detectorWidth", meta.width(),
                "center", scan.centerOfRotation(), "sliceWidth", slice.roiCols(), "sliceHeight", slice.roiRows()));
        List<Map<String, Object>> slices = new ArrayList<>();
        for (Object[] e : perSlice.values()) {
            OutputCommit.Committed c = (OutputCommit.Committed) e[0];
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("row", c.row());
            s.put("file", SliceWriter.sliceName(c.row()));
            s.put("sha256", c.sha256());
            s.put("bytes", c.bytes());
            s.put("group", e[1]);
            s.put("seconds", e[2]);
            s.put("reused", e[3]);
            slices.add(s);
        }
        m.put("output", Map.of("format", "float32 TIFF, one per slice, named slice_NNNNN.tif by detector row", "slices", slices,
                "rawVolume", spec.spark().outputRaw() ? "volume.raw (float32 little-endian [slice][y][x])" : "none"));
        m.put("report", report);
        return m;
    }
}
