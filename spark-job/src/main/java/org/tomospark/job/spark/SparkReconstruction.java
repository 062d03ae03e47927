package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.api.java.JavaSparkStatusTracker;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.resource.ResourceInformation;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.GroupShape;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.io.FloatTiff;
import org.tomospark.executor.io.InputWarnings;
import org.tomospark.executor.io.OrthoPreview;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.executor.pipeline.VolumeReconstructor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.job.CosmeticOutputs;
import org.tomospark.job.JobKeys;
import org.tomospark.job.Preflight;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.io.HadoopConf;
import org.tomospark.job.io.InputIdentity;
import org.tomospark.job.io.Json;
import org.tomospark.job.io.OutputCommit;
import org.tomospark.job.io.OutputLock;
import org.tomospark.job.io.RunManifest;
import org.tomospark.job.io.ProjectionInputs;
import org.tomospark.job.io.SliceWriter;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.local.JobRequest;
import org.tomospark.job.local.RunReport;
import org.tomospark.job.local.Version;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /**
     * What the driver knows once the input is checked and before the output is touched: the resolved parameters
     * (centre auto found), the scan, the flats/darks it broadcasts, the rows and their groups, and the warnings.
     */
    record DriverPlan(ReconstructionParams params, boolean local, List<String> devices, String format, ScanMetadata meta,
                      FlatDark fields, int[] range, int requestedRows, SliceGeometry slice, MemoryPlanner.Plan memory,
                      Workflow workflow, Workflow.CenterResolution center, long centerNanos, List<String> inputWarnings,
                      List<GroupPlanner.Group> groups, int groupRows) {
        int rowBin() {
            return workflow.rowBin();
        }

        /** First and end (exclusive) output slice indices. */
        int first() {
            return range[0] / rowBin();
        }

        int end() {
            return range[1] / rowBin();
        }
    }

    public static Result run(SparkContext sc, SparkJobSpec spec, VolumeReconstructor.Progress progress) {
        long wall0 = System.nanoTime();
        Configuration conf = HadoopConf.tune(sc.hadoopConfiguration());
        DriverPlan dp = planDriver(sc, spec, conf);
        for (String w : dp.inputWarnings()) LOG.warn(w);

        // --- output: claim, policy, signature, resume
        Map<String, Object> identity = InputIdentity.of(spec.input(), dp.format(), spec.inputOptions(), conf);
        Map<String, Object> signed = OutputCommit.signed(identity, dp.params());
        String signature = OutputCommit.signature(identity, dp.params());
        OutputCommit out = new OutputCommit(spec.output(), conf);
        Duration lockTimeout = Duration.ofSeconds(SparkKeys.settings(spec.settings()).get(JobKeys.LOCK_TIMEOUT));
        try (OutputLock lock = out.claim(lockTimeout, "spark engine " + sc.applicationId() + ", " + spec.input())) {
            if (spec.resume() && !spec.overwrite()) {
                // --resume of an output that already holds exactly this run: nothing to do, and nothing is deleted or rewritten
                Set<String> derived = new HashSet<>();
                if (spec.preview()) derived.add("preview.png");
                if (spec.spark().outputRaw()) derived.add("volume.raw");
                Map<Integer, OutputCommit.Committed> done = out.upToDate(signature, dp.first(), dp.end(), derived);
                if (done != null) {
                    String msg = DirectEngine.nothingToDoMessage(spec.output(), done.size(), dp.range());
                    LOG.info(msg);
                    Map<String, Object> report = Json.read(out.read(OutputCommit.REPORT), spec.output() + "/" + OutputCommit.REPORT);
                    return new Result(spec.output(), report, msg + "\n", dp.end() - dp.first(), 0, done.size(), List.of());
                }
            }
            Map<String, Object> runInfo = new TreeMap<>();
            runInfo.put("input", identity);
            runInfo.put("params", Json.describe(dp.params()));
            out.prepare(spec.overwrite(), spec.resume(), signed, runInfo);
            // a failed run keeps its whole, checksummed slices for --resume, but no temporary files
            try {
                Map<Integer, OutputCommit.Committed> reused = new TreeMap<>();
                if (spec.resume()) for (OutputCommit.Committed c : out.verifiedCommitted(dp.first(), dp.end()).values()) reused.put(c.row(), c);
                long t0 = System.nanoTime();
                List<GroupOutcome> outcomes = runGroups(sc, spec, dp, reused.keySet(), conf, signature, lock, progress);
                return finish(sc, spec, dp, identity, signature, out, lock, reused, outcomes, System.nanoTime() - t0, wall0);
            } finally {
                out.writer().cleanTemporary();
            }
        }
    }

    /** Devices, backend, input metadata, centre, flats/darks, groups and every check, before the output is touched. */
    static DriverPlan planDriver(SparkContext sc, SparkJobSpec spec, Configuration conf) {
        ReconstructionParams params = spec.params();
        SparkConf sconf = sc.getConf();
        boolean local = isLocal(sc);
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
        String format = ProjectionInputs.resolveFormat(spec.input(), spec.inputOptions(), conf);
        try (ProjectionSource src = ProjectionInputs.open(spec.input(), spec.inputOptions(), conf)) {
            ScanMetadata meta = src.metadata();
            long c0 = System.nanoTime();
            Workflow.CenterResolution cr = Workflow.resolveCenter(src, params); // reads a few rows, only for centre auto
            long centerNs = System.nanoTime() - c0;
            params = cr.params();
            ScanGeometry scan = params.scanGeometry(meta);
            Workflow wf = new Workflow(scan, params);
            SliceGeometry slice = params.sliceGeometry(wf.effective().detectorWidth());
            int[] requested = params.rowRange(meta);
            int rb = wf.rowBin();
            int[] range = Preflight.binnedRange(requested, rb);
            // flats/darks of every row a task reads, halo rows included, averaged once here and broadcast
            int[] hb = wf.haloBand(range[0], range[1] - range[0], meta.rows());
            FlatDark fields = FlatDark.read(src, hb[0], hb[1]);
            // a GPU backend named outright runs on a GPU (its default device when none is assigned); auto only where
            // GPUs are assigned
            boolean gpus = switch (params.backend()) {
                case "java" -> false;
                case "auto" -> local ? !devices.isEmpty() : sconf.contains("spark.executor.resource.gpu.amount");
                default -> true;
            };
            String planned = params.backend().equals("auto") ? (gpus ? "cuda" : "java") : params.backend();
            boolean correctedOnDevice = planned.equals("cuda") && wf.correctionOnly()
                    && meta.sampleType() == ScanMetadata.SampleType.UINT16 && params.backendOptions().get(BackendKeys.CUDA_CORRECT_ON_DEVICE);
            MemoryPlanner.Plan mp = plan(sc, spec.withParams(params), meta, slice, new int[]{range[0] / rb, range[1] / rb}, local, rb,
                    wf.haloRows(), gpus, Backends.groupShape(planned, params.backendOptions()), correctedOnDevice);
            int groupRows = mp.groupRows() * rb;
            Preflight.check(src, params, fields, range, groupRows);
            List<GroupPlanner.Group> groups = GroupPlanner.plan(range[0], range[1], groupRows, params.backendOptions().groupMultiple() * rb);
            BackendOptions bo = params.backendOptions().withThreads(taskThreads(sc, params, local, groups.size()));
            // every executor computes the same bytes: the fallback table's kernel, unless the user asks for tuning
            if (!bo.extra().containsKey(BackendKeys.CUDA_AUTOTUNE.name())) bo = bo.withExtra(BackendKeys.CUDA_AUTOTUNE.name(), "false");
            params = params.toBuilder().backendOptions(bo).build();
            return new DriverPlan(params, local, devices, format, meta, fields, range, requested[1] - requested[0], slice, mp, wf, cr,
                    centerNs, InputWarnings.of(src), groups, groupRows);
        }
    }

    /**
     * Runs the groups that hold a slice not in {@code reused} as one Spark job and returns their outcomes. The job is
     * cancelled, and the run fails, when the output's claim is lost.
     */
    private static List<GroupOutcome> runGroups(SparkContext sc, SparkJobSpec spec, DriverPlan dp, Set<Integer> reused,
                                                Configuration conf, String signature, OutputLock lock,
                                                VolumeReconstructor.Progress progress) {
        int rb = dp.rowBin();
        BitSet skip = new BitSet();
        for (int row : reused) skip.set(row);
        List<GroupPlanner.Group> toRun = new ArrayList<>();
        for (GroupPlanner.Group g : dp.groups()) {
            int next = skip.nextClearBit(g.start() / rb);
            if (next < g.end() / rb) toRun.add(g);
        }
        int total = dp.end() - dp.first();
        LOG.info("spark job: {} slices in {} groups of {} rows ({} to run, {} slices reused), {} MiB per task of {} MiB",
                total, dp.groups().size(), dp.groupRows(), toRun.size(), reused.size(), dp.memory().hostBytesPerTask() >> 20,
                dp.memory().hostBudgetPerTask() >> 20);
        if (toRun.isEmpty()) return List.of();
        Map<String, String> hconf = new HashMap<>();
        for (Map.Entry<String, String> e : conf) hconf.put(e.getKey(), e.getValue());
        JobPlan plan = new JobPlan(spec.input(), dp.format(), spec.inputOptions(), spec.output(), dp.params(), dp.meta(), dp.fields(),
                dp.range()[0], dp.range()[1], dp.groupRows(), skip, hconf, spec.spark().withDevices(dp.devices()), dp.local(),
                signature + "/" + dp.groupRows());
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        Broadcast<JobPlan> bplan = jsc.broadcast(plan);
        LongAccumulator slicesAcc = sc.longAccumulator("tomospark.slices");
        LongAccumulator updatesAcc = sc.longAccumulator("tomospark.updates");
        String desc = "tomospark: " + toRun.size() + " slice groups of " + spec.input();
        // interrupt running tasks when the job is cancelled, so a cancelled run stops committing slices
        String group = "tomospark-" + signature.substring(0, 8) + "-" + System.nanoTime();
        jsc.setJobGroup(group, desc, true);
        long t0 = System.nanoTime();
        JavaFutureAction<List<GroupOutcome>> f = jsc.parallelize(toRun, toRun.size()).map(g -> {
            GroupOutcome o = GroupTask.run(bplan.value(), g);
            slicesAcc.add(o.rows() / bplan.value().rowBin());
            updatesAcc.add(o.updates());
            return o;
        }).collectAsync();
        int alreadyDone = total - countRows(toRun) / rb;
        try {
            while (true) {
                try {
                    List<GroupOutcome> outcomes = f.get(500, TimeUnit.MILLISECONDS);
                    if (progress != null && spec.spark().progress())
                        progress.update(total, total, outcomes.stream().mapToLong(GroupOutcome::updates).sum(), System.nanoTime() - t0);
                    return outcomes;
                } catch (TimeoutException e) {
                    if (lock.isLost()) {
                        f.cancel(true);
                        lock.ensureHeld();
                    }
                    if (progress != null && spec.spark().progress())
                        progress.update((int) Math.min(total, slicesAcc.value() + alreadyDone), total, updatesAcc.value(),
                                System.nanoTime() - t0);
                }
            }
        } catch (InterruptedException e) {
            f.cancel(true);
            awaitTasksStopped(jsc, group);
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted; the output is unfinished (rerun with --resume)", e);
        } catch (ExecutionException e) {
            awaitTasksStopped(jsc, group);
            throw new RunFailedException("Spark job failed; the output is unfinished (committed slices are kept for --resume): "
                    + rootMessage(e), e.getCause());
        } catch (RuntimeException e) {
            awaitTasksStopped(jsc, group);
            throw e;
        } finally {
            jsc.clearJobGroup();
            bplan.destroy();
        }
    }

    /** How long a failed run waits for its other tasks to stop before it cleans up after them. */
    static final long STOP_WAIT_MS = 120_000;

    /**
     * After a failure: cancels the job group and waits until none of its tasks is running, so that no task still writes
     * into _temporary (or commits a slice) after the run has cleaned up and said it failed. A task that will not stop
     * in {@link #STOP_WAIT_MS} is left, with a warning.
     */
    private static void awaitTasksStopped(JavaSparkContext jsc, String group) {
        jsc.cancelJobGroup(group);
        JavaSparkStatusTracker st = jsc.statusTracker();
        long deadline = System.currentTimeMillis() + STOP_WAIT_MS;
        while (System.currentTimeMillis() < deadline) {
            int active = 0;
            for (int job : st.getJobIdsForGroup(group)) {
                SparkJobInfo info = st.getJobInfo(job);
                if (info == null) continue;
                for (int stage : info.stageIds()) {
                    SparkStageInfo si = st.getStageInfo(stage);
                    if (si != null) active += si.numActiveTasks();
                }
            }
            if (active == 0) return;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        LOG.warn("tasks of {} still run {} s after the job failed; they may still commit whole slices", group, STOP_WAIT_MS / 1000);
    }

    /** The run's finish: raw volume, preview, report, manifest and _SUCCESS, after every slice is committed. */
    private static Result finish(SparkContext sc, SparkJobSpec spec, DriverPlan dp, Map<String, Object> identity, String signature,
                                 OutputCommit out, OutputLock lock, Map<Integer, OutputCommit.Committed> reused,
                                 List<GroupOutcome> outcomes, long runNs, long wall0) {
        int first = dp.first(), end = dp.end(), total = end - first;
        Map<Integer, RunManifest.Slice> perSlice = new TreeMap<>();
        for (GroupOutcome o : outcomes) {
            double secs = (o.readNanos() + o.preprocessNanos() + o.filterNanos() + o.backprojectNanos() + o.writeNanos()) / 1e9
                    / Math.max(1, o.slices().size());
            for (OutputCommit.Committed c : o.slices())
                perSlice.put(c.row(), new RunManifest.Slice(c, false, o.group(), secs, o.backend() + " " + o.variant()));
        }
        for (OutputCommit.Committed c : reused.values()) perSlice.put(c.row(), RunManifest.Slice.reused(c));
        if (perSlice.size() != total)
            throw new RunFailedException(spec.output() + ": " + perSlice.size() + " of " + total + " slices committed; the output is unfinished");
        lock.ensureHeld();
        if (spec.spark().outputRaw()) writeRawVolume(out, new int[]{first, end});
        Workflow wf = dp.workflow();
        CosmeticOutputs cosmetic = new CosmeticOutputs(LOG::warn);
        if (spec.preview()) cosmetic.run("preview.png",
                () -> writePreview(out, dp.meta(), wf.effective().centerOfRotation(), first, end, outcomes, reused.keySet()));
        int computed = total - reused.size();
        Map<String, Object> workflow = VolumeReconstructor.describe(dp.params(), wf, dp.center().found(), dp.centerNanos(), dp.groupRows(),
                wf.haloRows(), dp.requestedRows(), dp.inputWarnings());
        VolumeReconstructor.Summary sum = summaryOf(wf.effective(), dp.slice(), total, reused.size(), runNs, outcomes, workflow);
        JobRequest req = new JobRequest(spec.input(), spec.output(), dp.params(), spec.overwrite(), spec.resume(), spec.preview(),
                SparkKeys.settings(spec.settings()));
        Object paramsJson = Json.describe(dp.params());
        Map<String, Object> report = report(sc, req, sum, dp.meta(), paramsJson, dp.memory(), dp.groups().size(), outcomes, runNs,
                System.nanoTime() - wall0, dp.centerNanos(), dp.local(), dp.devices());
        report.put("groupRowsRaw", dp.groupRows());
        cosmetic.addTo(report);
        // the files line names preview.png only when it was written
        String summary = RunReport.summary(req, sum) + sparkSummary(spec.withPreview(spec.preview() && !cosmetic.failed("preview.png")), report);
        lock.ensureHeld();
        out.writeFile(OutputCommit.REPORT, Json.write(report));
        out.finish(Json.write(RunManifest.build(Version.get(), "spark", signature, identity, Json.describe(spec.inputOptions()), paramsJson,
                spec.settings(), dp.meta(), wf.effective(), dp.slice(), perSlice, spec.spark().outputRaw(), report)));
        return new Result(spec.output(), report, summary, total, computed, reused.size(), outcomes);
    }

    /**
     * The memory plan from the application's settings (executor heap, cores per task) and the job's keys, in output
     * slices; a slice needs {@code rowBin} detector rows (binning), so it costs that many raw rows. Groups are never
     * smaller than the backend's pass; on GPUs they fill its largest blocks rather than every task slot, since the
     * devices, not the slots, bound how many groups compute at once.
     */
    static MemoryPlanner.Plan plan(SparkContext sc, SparkJobSpec spec, ScanMetadata meta, SliceGeometry slice, int[] range, boolean local,
                                   int rowBin, int haloRows, boolean gpus, GroupShape shape, boolean correctedOnDevice) {
        ReconstructionParams params = spec.params();
        SparkConf sconf = sc.getConf();
        int k = params.backendOptions().slicesPerPass();
        long execMem = local ? Runtime.getRuntime().maxMemory() : sconf.getSizeAsBytes("spark.executor.memory", "1g");
        int taskCpus = sconf.getInt("spark.task.cpus", 1);
        int execCores = local ? sc.defaultParallelism() : sconf.getInt("spark.executor.cores", 1);
        return MemoryPlanner.plan(new MemoryPlanner.Input(meta.numProjections(), meta.width(),
                meta.sampleType() == ScanMetadata.SampleType.UINT16 ? 2 : 4, (long) slice.pixels(), k, range[1] - range[0],
                params.groupRows(), execMem, Math.max(1, execCores / taskCpus), spec.spark().memoryFraction(),
                spec.spark().gpuMemory(), spec.spark().tasksPerDevice(), gpus ? 0 : sc.defaultParallelism(), rowBin, haloRows, shape,
                correctedOnDevice, gpus));
    }

    /**
     * CPU threads of one task (reading, preprocessing, filtering, the java backend, writing): {@code spark.task.cpus},
     * or, in local mode with fewer groups than cores, the cores shared among the groups that run at once, so that a
     * small job does not leave cores idle and a large one does not oversubscribe them. {@code backend.threads} wins
     * when set.
     */
    static int taskThreads(SparkContext sc, ReconstructionParams params, boolean local, int groups) {
        if (params.backendOptions().threads() > 0) return params.backendOptions().threads();
        int taskCpus = Math.max(1, sc.getConf().getInt("spark.task.cpus", 1));
        if (!local) return taskCpus;
        int cores = sc.defaultParallelism();
        int concurrent = Math.max(1, Math.min(cores / taskCpus, groups));
        return Math.max(taskCpus, cores / concurrent);
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
        long writeNs = outcomes.stream().mapToLong(GroupOutcome::writeNanos).sum();
        Map<String, Object> m = RunReport.build(req, sum, "spark", new RunReport.Times(wallNs, runNs, centerNs, writeNs));
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
        long kernels = outcomes.stream().map(o -> o.backend() + " " + o.variant()).distinct().count();
        if (kernels > 1) {
            // e.g. executors with different GPUs, or one without: the slices are right, but not all from the same kernel
            @SuppressWarnings("unchecked") List<String> warnings = (List<String>) m.get("warnings");
            warnings.add("the slices were computed by " + kernels + " different backends or kernels (see \"backends\"; "
                    + "the manifest names each slice's): their values may differ in the last bits");
        }
        m.put("executors", executors);
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

}
