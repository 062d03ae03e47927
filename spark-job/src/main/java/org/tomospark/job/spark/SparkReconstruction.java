package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.resource.ResourceInformation;
import org.apache.spark.resource.ResourceProfile;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.DeviceWarmUp;
import org.tomospark.executor.backend.GroupShape;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.inputs.InputWarnings;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.preview.OrthoPreview;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ConeResolution;
import org.tomospark.executor.conveyor.OutputRange;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.pipeline.WorkflowReport;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.job.CosmeticOutputs;
import org.tomospark.job.Preflight;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.KerberosCredentials;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.OutputLock;
import org.tomospark.job.inputs.ProjectionInputs;
import org.tomospark.job.outputs.RunManifest;
import org.tomospark.job.run.JobRequest;
import org.tomospark.job.run.RunFinisher;
import org.tomospark.job.run.RunOutput;
import org.tomospark.job.run.RunReport;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;

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

    /** Least time between two lines of the progress printer, but for the last. */
    static final long PRINT_INTERVAL_NANOS = 2_000_000_000L;

    /**
     * Default progress printer: a text bar to the given stream, a line when a slice group ends, at most one every two
     * seconds (and the last), so a notebook paragraph's output stays short on a run of many groups.
     */
    public static VolumeReconstructor.Progress printer(PrintStream out) {
        long[] last = {-1, 0};
        return (done, total, updates, ns) -> {
            if (done == last[0] || done < total && last[0] >= 0 && ns - last[1] < PRINT_INTERVAL_NANOS) return;
            last[0] = done;
            last[1] = ns;
            double gups = ns == 0 ? 0 : updates / (double) ns;
            double eta = done == 0 ? Double.NaN : ns / 1e9 * (total - done) / done;
            int w = 30, filled = total == 0 ? w : (int) ((long) w * done / total);
            out.printf("[%s%s] %d/%d slices  %.2f GU/s  ETA %s%n", "#".repeat(filled), ".".repeat(w - filled), done, total, gups,
                    Double.isNaN(eta) ? "?" : String.format("%.0fs", eta));
            out.flush();
        };
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
        return run(SparkStart.of(sc), spec, progress, false);
    }

    /**
     * As {@link #run(SparkContext, SparkJobSpec, VolumeReconstructor.Progress)} on a context that may still be starting:
     * the driver opens the input, finds the centre and reads the flats and the preflight's rows meanwhile, and waits for
     * the context only to plan the groups. {@code lastUseOfDevices}: this process runs nothing after this run (a command
     * line), so in local mode its GPU processors are closed and the devices given back while the run finishes.
     */
    public static Result run(SparkStart start, SparkJobSpec spec, VolumeReconstructor.Progress progress, boolean lastUseOfDevices) {
        long wall0 = System.nanoTime(), uptime0 = RunReport.jvmUptimeNanos();
        Configuration conf = HadoopConf.tune(start.hadoopConf());
        if (!start.local()) start.whenStarted("readying the executors", SparkReconstruction::readyExecutors);
        else if (start.owned()) start.whenStarted("warming up Spark's job path", SparkReconstruction::warmJobPath);
        // the driver's own work (centre search, planning, the output's claim) watches the job group until the run's
        // job is in it: a notebook's Cancel stops the run wherever it is. A context this process starts has no job group.
        try (JobGroupWatch watch = start.owned() ? JobGroupWatch.none() : JobGroupWatch.start(start.context())) {
            return run(start, spec, progress, conf, watch, wall0, uptime0, lastUseOfDevices && start.local());
        }
    }

    private static Result run(SparkStart start, SparkJobSpec spec, VolumeReconstructor.Progress progress, Configuration conf,
                              JobGroupWatch watch, long wall0, long uptime0, boolean releaseDevices) {
        DriverPlan dp = cancellable(spec, () -> watch.await("planning the run of " + spec.input(), () -> planDriver(start, spec, conf)));
        for (String w : dp.inputWarnings()) LOG.warn(w);
        SparkContext sc = start.context();

        // --- output: claim, resume with nothing to do, policy and signature, as the direct engine does
        JobRequest req = new JobRequest(spec.input(), spec.output(), dp.params(), spec.overwrite(), spec.resume(), spec.preview(),
                SparkKeys.settings(spec.settings()), spec.names());
        RunOutput.Plan plan = new RunOutput.Plan(req, "spark", spec.inputOptions(), dp.format(), dp.first(), dp.end(),
                spec.spark().outputRaw());
        try (RunOutput output = RunOutput.claim(plan, "spark engine " + sc.applicationId(), conf)) {
            RunOutput.NothingToDo nothing = output.nothingToDo();
            if (nothing != null) {
                LOG.info(nothing.message());
                return new Result(spec.output(), nothing.report(), nothing.message() + "\n", plan.slices(), 0, plan.slices(),
                        List.of());
            }
            cancellable(spec, () -> {
                watch.check("claiming " + spec.output());
                return null;
            });
            Map<Integer, OutputCommit.Committed> reused = output.prepare();
            long t0 = System.nanoTime(), startMillis = System.currentTimeMillis();
            Ran ran = runGroups(sc, spec, dp, reused.keySet(), conf, output.signature(), output.lock(), progress, watch);
            long runNs = System.nanoTime() - t0;
            // local mode's tasks ran in this JVM and are done: their processors are closed and the devices given back
            // while the finish writes the report (faster than the driver does it at the exit)
            CompletableFuture<Void> released = releaseDevices ? CompletableFuture.runAsync(SparkReconstruction::releaseDevices)
                    : CompletableFuture.completedFuture(null);
            Result r = finish(sc, output, dp, reused, ran.outcomes(),
                    new SparkReport.Job(startMillis, System.currentTimeMillis(), runNs, ran.launch()),
                    wall0, uptime0);
            released.join();
            return r;
        }
    }

    /** Closes this JVM's cached processors and gives its devices back (a command line's local-mode run, once it ended). */
    private static void releaseDevices() {
        int closed = ExecutorResources.closeIdle();
        Backends.releaseBeforeExit();
        LOG.debug("closed {} cached processor(s) and gave the devices back", closed);
    }

    /** The driver's work before the job: a cancel ends the run as a cancelled job does, before the output is touched. */
    private static <T> T cancellable(SparkJobSpec spec, Supplier<T> work) {
        try {
            return work.get();
        } catch (CancellationException e) {
            throw new RunFailedException("cancelled before the Spark job started: this run wrote no slice (run it again; "
                    + "slices committed by an earlier run are kept for " + spec.names().resume() + ")", e);
        }
    }

    /**
     * A task back-projects on one GPU: a task given several ({@code spark.task.resource.gpu.amount} above 1) would hold
     * GPUs that idle. Refused, naming the keys.
     */
    static void checkGpusPerTask(SparkConf sconf) {
        String key = "spark.task.resource.gpu.amount";
        if (!sconf.contains(key)) return;
        double amount;
        try {
            amount = Double.parseDouble(sconf.get(key).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": not a number: '" + sconf.get(key) + "'", e);
        }
        if (!(amount > 0) || Double.isInfinite(amount))
            throw new IllegalArgumentException(key + "=" + sconf.get(key) + ": not a positive finite number of GPUs");
        if (amount > 1)
            throw new IllegalArgumentException(key + "=" + sconf.get(key) + ": a task uses one GPU, so the others it holds would "
                    + "idle; set it to 1 or a fraction (1/tasks per GPU), and give executors several GPUs with "
                    + "spark.executor.resource.gpu.amount: their tasks spread over all of them");
    }

    /**
     * On a cluster, a job of one empty task per executor core, not waited for, while the driver plans: a new executor's
     * first task otherwise spends about a second getting going (its first task binary and broadcast fetched from the
     * driver, Spark's task classes and the product's loaded), and every executor's first group of the run waits for
     * it. The job runs in the caller's job group, so a notebook's Cancel stops it with the run.
     */
    private static void readyExecutors(SparkContext sc) {
        String before = sc.getLocalProperty(JobScope.DESCRIPTION);
        sc.setLocalProperty(JobScope.DESCRIPTION, "tomospark: readying the executors for the run");
        try {
            int slots = Math.max(1, sc.defaultParallelism());
            List<Integer> each = new ArrayList<>();
            for (int i = 0; i < slots; i++) each.add(i);
            JavaSparkContext.fromSparkContext(sc).parallelize(each, slots).foreachAsync(i -> ExecutorWarmUp.touch());
        } finally {
            sc.setLocalProperty(JobScope.DESCRIPTION, before);
        }
    }

    /**
     * A context this process starts in local mode runs one empty job with a broadcast as soon as it is up, while the
     * driver still plans: the first broadcast and the first job load and initialise most of Spark's job path (the block
     * store, the serializers, the scheduler, the task runner), which the run's own job otherwise waits for.
     */
    private static void warmJobPath(SparkContext sc) {
        sc.setLocalProperty(JobScope.DESCRIPTION, "tomospark: warming up the job path while the driver plans");
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
            Broadcast<int[]> b = jsc.broadcast(new int[1]);
            jsc.parallelize(List.of(0), 1).foreach(i -> b.value());
            b.destroy();
        } finally {
            sc.setLocalProperty(JobScope.DESCRIPTION, null);
        }
    }

    /** Devices, backend, input metadata, centre, flats/darks, groups and every check, before the output is touched. */
    static DriverPlan planDriver(SparkStart start, SparkJobSpec spec, Configuration conf) {
        KerberosCredentials.require(conf, List.of(spec.input(), spec.output()));
        ReconstructionParams params = spec.params();
        SparkConf sconf = start.conf();
        boolean local = start.local();
        List<String> devices = List.of();
        if (local) {
            if (sconf.contains("spark.task.resource.gpu.amount"))
                throw new IllegalArgumentException("spark.task.resource.gpu.amount is set, but Spark's local mode cannot give tasks GPUs "
                        + "(tasks would wait forever); remove it and list the GPUs in job.devices or spark.driver.resource.gpu.*");
            devices = spec.spark().devices();
            // the driver's own GPUs, which Spark finds as it starts (only where the settings give it some)
            if (devices.isEmpty() && (sconf.contains("spark.driver.resource.gpu.amount")
                    || sconf.contains("spark.driver.resourcesFile"))) {
                scala.Option<ResourceInformation> gpu = start.context().resources().get("gpu");
                if (gpu.isDefined()) devices = List.of(gpu.get().addresses());
            }
            // the GPUs' CUDA opened while the driver plans
            if (!devices.isEmpty()) DeviceWarmUp.onDevices(params.algorithm().backend(), devices);
            if (params.algorithm().backend().equals("auto") && devices.isEmpty())
                LOG.info("backend auto: no GPU assigned (job.devices and spark.driver.resource.gpu are empty); "
                        + "using {}", Backends.planned("auto", false).id());
        } else {
            checkGpusPerTask(sconf);
            String id = params.algorithm().backend();
            YarnGpus.check(sconf, conf, id, !id.equals("auto") && Backends.planned(id, true).runsOnAssignedGpus());
        }
        String format = ProjectionInputs.resolveFormat(spec.input(), spec.inputOptions(), conf);
        try (ProjectionSource src = ProjectionInputs.open(spec.input(), spec.inputOptions(), conf)) {
            ScanMetadata meta = src.metadata();
            params = ConeResolution.resolve(src, params);
            // algorithm auto decided once for every task, from where the groups will run
            if (params.algorithm().iterative().algorithm() == Algorithm.AUTO) {
                String onto = Backends.planned(params.algorithm().backend(), usesGpus(params, local, devices, sconf)).id();
                params = params.resolveAlgorithm(onto, meta.numProjections(), meta.width());
            }
            long c0 = System.nanoTime();
            Workflow.CenterResolution cr = Workflow.resolveCenter(src, params); // reads a few rows, only for centre auto
            long centerNs = System.nanoTime() - c0;
            params = OutputRange.resolve(src, cr.params());
            ScanGeometry scan = params.scanGeometry(meta);
            Workflow wf = new Workflow(scan, params);
            SliceGeometry slice = params.sliceGeometry(wf.effective().detectorWidth());
            // in local mode the tasks run in this JVM: gridrec's warm-up runs beside the planning and the job's start
            if (local) SliceGroupProcessor.warmUpAhead(wf.effective(), slice, params);
            int[] requested = params.rowRange(meta);
            int rb = wf.rowBin();
            int[] range = GroupPlanner.binnedRange(requested, rb);
            // flats/darks of every row a task reads, halo rows included, averaged once here and broadcast
            Workflow.HaloBand hb = wf.haloBand(range[0], range[1] - range[0], meta.rows());
            // read while the driver plans, and while the preflight reads the projection rows it checks
            Preflight.Ahead fieldsAhead = Preflight.start(src, params, hb.from(), hb.count()).readRows(range);
            // cuda without a GPU: a clear error here, before the output is touched (checked while the flats are read, so
            // that the driver's CUDA initialisation, begun by the warm-up, overlaps the read)
            if (local && !params.algorithm().backend().equals("auto")) Backends.resolve(params.algorithm().backend());
            boolean gpus = usesGpus(params, local, devices, sconf);
            BackendProvider planned = Backends.planned(params.algorithm().backend(), gpus);
            if (gpus && !ExecutorGpuPlugin.registered(sconf))
                LOG.warn("spark.plugins does not name {}: executors will neither close their GPU processors at shutdown nor "
                        + "stop after a sticky CUDA error (README, Running on Spark)", ExecutorGpuPlugin.class.getName());
            boolean correctedOnDevice = wf.correctionOnly() && meta.sampleType() == ScanMetadata.SampleType.UINT16
                    && planned.correctsOnDevice(params.algorithm().backendOptions());
            // the plan needs what the running context knows (its cores, its executors): the first wait for it
            SparkContext sc = start.context();
            MemoryPlanner.Plan mp = plan(sc, spec.withParams(params), meta, slice, new int[]{range[0] / rb, range[1] / rb}, local, rb,
                    wf.haloRows(), gpus, devices.size(), planned.groupShape(params.algorithm().backendOptions()),
                            correctedOnDevice);
            ConeParams cone = params.coneBeam();
            if (cone != null)
                mp = conePlan(cone, meta, mp, params.groupRows(), VolumeReconstructor.defaultGroupRows(params, meta), range[1] - range[0],
                        local ? localSlots(sc) : 1, gpus, spec.spark().tasksPerDevice());
            int groupRows = mp.groupRows() * rb;
            FlatDark fields = fieldsAhead.check(range, groupRows);
            List<GroupPlanner.Group> groups = GroupPlanner.plan(range[0], range[1], groupRows,
                    params.algorithm().backendOptions().groupMultiple() * rb);
            BackendOptions bo = params.algorithm().backendOptions().withThreads(taskThreads(sc, params, local, groups.size()));
            // every executor computes the same bytes, and tasks share a GPU (job.tasksPerDevice at a time): the backend
            // sizes each processor for that
            bo = planned.sharingOneDevice(planned.sameBytesOnEveryDevice(bo), spec.spark().tasksPerDevice());
            params = params.toBuilder().backendOptions(bo).build();
            return new DriverPlan(params, local, devices, format, meta, fields, range, requested[1] - requested[0], slice, mp, wf, cr,
                    centerNs, InputWarnings.of(src), groups, groupRows);
        }
    }

    /** The outcomes of a run's groups, and how its first task got going. */
    private record Ran(List<GroupOutcome> outcomes, RunTasks.Launch launch) {
    }

    /**
     * Runs the groups that hold a slice not in {@code reused} as one Spark job and returns their outcomes. The job is
     * cancelled, and the run fails, when the output's claim is lost.
     */
    private static Ran runGroups(SparkContext sc, SparkJobSpec spec, DriverPlan dp, Set<Integer> reused, Configuration conf,
                                 String signature, OutputLock lock, VolumeReconstructor.Progress progress, JobGroupWatch watch) {
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
        if (toRun.isEmpty()) {
            watch.close();
            return new Ran(List.of(), RunTasks.Launch.NONE);
        }
        Map<String, String> hconf = new HashMap<>();
        for (Map.Entry<String, String> e : conf) hconf.put(e.getKey(), e.getValue());
        JobPlan plan = new JobPlan(spec.input(), dp.format(), spec.inputOptions(), spec.output(), dp.params(), dp.meta(), dp.fields(),
                dp.range()[0], dp.range()[1], dp.groupRows(), skip, hconf, spec.spark().withDevices(dp.devices()), dp.local(),
                signature + "/" + dp.groupRows(), previewSlice(spec, dp));
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        Broadcast<JobPlan> bplan = jsc.broadcast(plan);
        LongAccumulator slicesAcc = sc.longAccumulator("tomospark.slices");
        LongAccumulator updatesAcc = sc.longAccumulator("tomospark.updates");
        String desc = "tomospark: " + toRun.size() + " slice groups of " + spec.input();
        String tag = "tomospark-" + signature.substring(0, 8) + "-" + System.nanoTime();
        String resume = spec.names().resume();
        try (JobScope scope = JobScope.open(sc, tag, desc)) {
            long t0 = System.nanoTime();
            JavaRDD<GroupPlanner.Group> rdd = jsc.parallelize(toRun, toRun.size());
            // on a cluster of GPU executors: the conveyor's task slots (Conveyor), unless the user set the task's own
            ResourceProfile conveyor = Conveyor.profile(sc.getConf(), dp.local(),
                    usesGpus(dp.params(), dp.local(), dp.devices(), sc.getConf()), spec.spark().tasksPerDevice());
            if (conveyor != null) rdd = rdd.withResources(conveyor);
            JavaFutureAction<List<GroupOutcome>> f = rdd.map(g -> {
                GroupOutcome o = GroupTask.run(bplan::value, g);
                slicesAcc.add(o.rows() / bplan.value().rowBin());
                updatesAcc.add(o.updates());
                return o;
            }).collectAsync();
            int alreadyDone = total - countRows(toRun) / rb;
            // the driver waits for the tasks from here: its preview's rendering warms up meanwhile
            if (spec.preview()) {
                Thread warm = new Thread(OrthoPreview::warmUp, "tomospark-preview-warm-up");
                warm.setDaemon(true);
                warm.start();
            }
            try {
                watch.release("the run of " + spec.input()); // the job is in the group now: a cancel reaches it
                while (true) {
                    try {
                        List<GroupOutcome> outcomes = f.get(500, TimeUnit.MILLISECONDS);
                        if (progress != null && spec.spark().progress())
                            progress.update(total, total, outcomes.stream().mapToLong(GroupOutcome::updates).sum(),
                                    System.nanoTime() - t0);
                        // the listener bus delivers the tasks' ends a little after the job's result: the launch facts
                        // are complete once it has (the report goes without them past the wait)
                        scope.awaitStopped(f.jobIds(), LAUNCH_WAIT_MS);
                        return new Ran(outcomes, scope.launch());
                    } catch (TimeoutException e) {
                        if (lock.isLost()) {
                            f.cancel(true);
                            lock.ensureHeld();
                        }
                        if (progress != null && spec.spark().progress())
                            progress.update((int) Math.min(total, slicesAcc.value() + alreadyDone), total,
                                    updatesAcc.value(), System.nanoTime() - t0);
                    }
                }
            } catch (InterruptedException e) {
                f.cancel(true);
                awaitTasksStopped(scope, f.jobIds());
                Thread.currentThread().interrupt();
                throw new RunFailedException("interrupted; the output is unfinished (rerun with " + resume + ")", e);
            } catch (CancellationException e) {
                awaitTasksStopped(scope, f.jobIds());
                throw new RunFailedException("cancelled; the output is unfinished (committed slices are kept for "
                        + resume + ")", e);
            } catch (ExecutionException e) {
                awaitTasksStopped(scope, f.jobIds());
                throw new RunFailedException("Spark job failed or was cancelled; the output is unfinished (committed "
                        + "slices are kept for " + resume + "): " + rootMessage(e), e.getCause());
            } catch (RuntimeException e) {
                awaitTasksStopped(scope, f.jobIds());
                throw e;
            }
        } finally {
            bplan.destroy();
        }
    }

    /**
     * The output slice whose task sends it back whole for the preview's XY panel: the run's middle slice (as
     * {@link OrthoPreview} takes it), unless the run writes no preview or the slice is too large to send.
     */
    static int previewSlice(SparkJobSpec spec, DriverPlan dp) {
        if (!spec.preview() || (long) dp.slice().roiCols() * dp.slice().roiRows() > JobPlan.PREVIEW_SLICE_LIMIT) return -1;
        return (dp.first() + dp.end() - 1) / 2;
    }

    /** How long a finished run waits for the listener bus to deliver its tasks' ends, for the report. */
    static final long LAUNCH_WAIT_MS = 2_000;

    /** How long a failed run waits for its other tasks to stop before it cleans up after them. */
    static final long STOP_WAIT_MS = 120_000;

    /**
     * After a failure: cancels the run's jobs and waits until none of their tasks is running, so that no task still
     * writes into _temporary (or commits a slice) after the run has cleaned up and said it failed. A task that will not
     * stop in {@link #STOP_WAIT_MS} is left, with a warning.
     */
    private static void awaitTasksStopped(JobScope scope, List<Integer> jobs) {
        scope.cancel();
        try {
            if (scope.awaitStopped(jobs, STOP_WAIT_MS)) return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.warn("{} task(s) of {} may still run after the job failed; they may still commit whole slices", scope.running(),
                scope.tag());
    }

    /**
     * The run's finish ({@link RunFinisher}: volume.raw, preview, report, manifest and _SUCCESS) from the tasks' outcomes:
     * their committed slices and timings, and the central row and column of each slice for the preview.
     */
    private static Result finish(SparkContext sc, RunOutput output, DriverPlan dp, Map<Integer, OutputCommit.Committed> reused,
                                 List<GroupOutcome> outcomes, SparkReport.Job job, long wall0,
                                 long uptime0) {
        long runNs = job.nanos();
        Map<Integer, RunManifest.Slice> computed = new TreeMap<>();
        OrthoPreview preview = output.plan().request().preview() ? new OrthoPreview(dp.first(), dp.end()) : null;
        for (GroupOutcome o : outcomes) {
            double secs = (o.readNanos() + o.preprocessNanos() + o.filterNanos() + o.backprojectNanos() + o.writeNanos()) / 1e9
                    / Math.max(1, o.slices().size());
            for (OutputCommit.Committed c : o.slices())
                computed.put(c.row(), new RunManifest.Slice(c, false, o.group(), secs, o.backend() + " " + o.variant()));
            if (preview != null)
                for (SliceProfile p : o.profiles()) {
                    if (p.whole() != null) preview.accept(p.slice(), p.whole(), p.row().length, p.column().length);
                    else preview.acceptProfiles(p.slice(), p.row(), p.column());
                }
        }
        Workflow wf = dp.workflow();
        Map<String, Object> workflow = WorkflowReport.describe(dp.params(), wf, dp.center().found(), dp.centerNanos(),
                dp.groupRows(), dp.requestedRows(), dp.inputWarnings());
        SparkReport sr = new SparkReport(sc, dp.meta(), dp.params(), dp.memory(), dp.groups().size(), dp.groupRows(), outcomes,
                dp.local(), dp.devices(), job);
        VolumeReconstructor.Summary sum = sr.summary(wf.effective(), dp.slice(), output.plan().slices(), reused.size(), runNs,
                workflow);
        long writeNs = outcomes.stream().mapToLong(GroupOutcome::writeNanos).sum();
        int fromFrames = outcomes.stream().mapToInt(GroupOutcome::slicesFromFrames).sum();
        RunReport.Times times = new RunReport.Times(System.nanoTime() - wall0, runNs, dp.centerNanos(), writeNs, uptime0, fromFrames,
                Map.of());
        RunFinisher.Computed run = new RunFinisher.Computed(sum, dp.meta(), computed, reused, preview, times);
        RunFinisher.Finished done;
        if (output.plan().rawVolume() || dp.params().output().format() == OutputFormat.HDF5) {
            // volume.raw and volume.h5 are assembled from every slice, which takes long on a large volume: the finish
            // watches the job group meanwhile (other finishes take a fraction of a second, and leave the notebook's
            // progress bar on the finished job)
            try (JobGroupWatch watch = JobGroupWatch.start(sc)) {
                done = new RunFinisher(output, new CosmeticOutputs(LOG::warn), watch).finish(run, sr);
            } catch (CancellationException e) {
                throw new RunFailedException("cancelled while assembling the volume: every slice is committed, the output is "
                        + "unfinished (finish it with " + output.plan().request().names().resume() + ")", e);
            }
        } else {
            done = new RunFinisher(output, new CosmeticOutputs(LOG::warn)).finish(run, sr);
        }
        return new Result(output.plan().request().output(), done.report(), done.summary(), output.plan().slices(),
                output.plan().slices() - reused.size(), reused.size(), outcomes);
    }

    /**
     * The memory plan from the application's settings (executor heap, cores per task) and the job's keys, in output
     * slices; a slice needs {@code rowBin} detector rows (binning), so it costs that many raw rows. Groups are never
     * smaller than the backend's pass; on GPUs they fill its largest blocks rather than every task slot, since the
     * devices, not the slots, bound how many groups compute at once.
     */
    static MemoryPlanner.Plan plan(SparkContext sc, SparkJobSpec spec, ScanMetadata meta, SliceGeometry slice, int[] range, boolean local,
                                   int rowBin, int haloRows, boolean gpus, int devices, GroupShape shape, boolean correctedOnDevice) {
        ReconstructionParams params = spec.params();
        SparkConf sconf = sc.getConf();
        int k = params.algorithm().backendOptions().slicesPerPass();
        long execMem = local ? Runtime.getRuntime().maxMemory() : sconf.getSizeAsBytes("spark.executor.memory", "1g");
        int taskCpus = sconf.getInt("spark.task.cpus", 1);
        int execCores = local ? sc.defaultParallelism() : sconf.getInt("spark.executor.cores", 1);
        int tasksPerExecutor = Math.max(1, execCores / taskCpus);
        int tasksPerDevice = spec.spark().tasksPerDevice();
        // on GPUs the conveyor decides: the groups an executor holds at once (its task slots on a cluster, the groups
        // in flight in local mode, where every core runs a task but only those hold a group), and groups enough for
        // every slot
        int slots = sc.defaultParallelism();
        if (gpus) {
            tasksPerExecutor = Conveyor.groupsHeld(sconf, local, devices, tasksPerDevice, tasksPerExecutor);
            slots = Conveyor.GROUPS_PER_SLOT * Conveyor.applicationSlots(sconf, local, Math.max(1, devices), executors(sc),
                    tasksPerDevice, sc.defaultParallelism());
        }
        return MemoryPlanner.plan(new MemoryPlanner.Input(meta.numProjections(), meta.width(),
                meta.sampleType() == ScanMetadata.SampleType.UINT16 ? 2 : 4, (long) slice.pixels(), k, range[1] - range[0],
                params.groupRows(), execMem, tasksPerExecutor, spec.spark().memoryFraction(),
                spec.spark().gpuMemory(), tasksPerDevice, slots, rowBin, haloRows, shape, correctedOnDevice, gpus));
    }

    /**
     * A cone-beam task holds its slab's band of detector rows and its slices, on the host and on its GPU. A slab's band is
     * wider than the slab by the cone's spread (hundreds of detector rows near the top and bottom of a tall volume), so
     * narrow slabs read and filter most rows many times over: the plan takes the widest slab (up to {@code widest}, the
     * direct engine's) that the memory holds. In local mode only as many tasks run at once as there are slabs (up to
     * {@code slots}), so wider slabs share the executor's memory among fewer tasks; on a cluster each task keeps its own
     * share (raise {@code spark.task.cpus} for wider slabs). {@code group.rows}, when set, is taken as it is.
     */
    static MemoryPlanner.Plan conePlan(ConeParams cone, ScanMetadata meta, MemoryPlanner.Plan perTask, int requested, int widest,
                                       int slices, int slots, boolean gpus, int tasksPerGpu) {
        IntUnaryOperator atOnce = s -> Math.max(1, Math.min(slots, (slices + s - 1) / s));
        long host = perTask.hostBudgetPerTask(), device = perTask.deviceBudgetPerTask();
        int gpuSlots = Math.max(1, tasksPerGpu);
        IntToLongFunction hostBudget = s -> host * slots / atOnce.applyAsInt(s);
        IntToLongFunction deviceBudget = s -> !gpus || device == Long.MAX_VALUE ? device
                : device * gpuSlots / Math.min(gpuSlots, atOnce.applyAsInt(s));
        int slab = requested > 0 ? requested : Math.min(widest, cone.largestSlab(meta, hostBudget, deviceBudget));
        return new MemoryPlanner.Plan(slab, cone.slabHostBytes(meta, slab), hostBudget.applyAsLong(slab),
                gpus ? cone.slabDeviceBytes(meta, slab) : 0, deviceBudget.applyAsLong(slab));
    }

    /**
     * Whether the groups run on GPUs: a GPU backend named outright (on its default device when none is assigned); auto
     * only where GPUs are assigned (local mode: job.devices or the driver's; a cluster: executor GPUs).
     */
    static boolean usesGpus(ReconstructionParams params, boolean local, List<String> devices, SparkConf sconf) {
        String id = params.algorithm().backend();
        if (id.equals("auto")) return local ? !devices.isEmpty() : sconf.contains("spark.executor.resource.gpu.amount");
        return !Backends.of(id).runsOnHostCpus();
    }

    /**
     * The executors the job will have: those registered now (the driver not counted), or as many as the settings ask
     * for where more are still starting ({@code spark.executor.instances}; on a standalone cluster
     * {@code spark.cores.max} / {@code spark.executor.cores}), at least one.
     */
    private static int executors(SparkContext sc) {
        SparkConf c = sc.getConf();
        int registered = sc.statusTracker().getExecutorInfos().length - 1;
        int instances = c.getInt("spark.executor.instances", 0);
        int cores = c.getInt("spark.executor.cores", 0);
        int byCores = cores > 0 ? c.getInt("spark.cores.max", 0) / cores : 0;
        return Math.max(1, Math.max(registered, Math.max(instances, byCores)));
    }

    /** Tasks a local-mode executor runs at once: its cores over {@code spark.task.cpus}. */
    private static int localSlots(SparkContext sc) {
        return Math.max(1, sc.defaultParallelism() / Math.max(1, sc.getConf().getInt("spark.task.cpus", 1)));
    }

    /**
     * CPU threads of one task (reading, preprocessing, filtering, the java backend, writing): {@code spark.task.cpus},
     * or, in local mode with fewer groups than cores, the cores shared among the groups that run at once, so that a
     * small job does not leave cores idle and a large one does not oversubscribe them. {@code backend.threads} wins
     * when set.
     */
    static int taskThreads(SparkContext sc, ReconstructionParams params, boolean local, int groups) {
        if (params.algorithm().backendOptions().threads() > 0) return params.algorithm().backendOptions().threads();
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
        if (t instanceof SparkException && m != null) {
            // "Job aborted due to stage failure: ... most recent failure: Lost task ...: java.lang.X: message\n\tat ..."
            int nl = m.indexOf("\n\tat ");
            if (nl > 0) m = m.substring(0, nl);
        }
        return m == null ? t.toString() : m;
    }
}
