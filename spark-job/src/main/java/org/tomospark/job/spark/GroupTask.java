package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backends.cuda.CudaException;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preview.OrthoPreview;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ReadOptions;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.GroupResult;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.Cancellation;
import org.tomospark.job.fs.NodeCores;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.SliceFiles;
import org.tomospark.job.outputs.SliceCommitPool;
import org.tomospark.job.outputs.SliceWriter;
import org.tomospark.job.inputs.ProjectionInputs;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * What one Spark task does for one slice group: take a device, open the input through the Hadoop FileSystem
 * API, read only the group's band of rows (a hyperslab of every projection), run the core's
 * {@link SliceGroupProcessor} with the broadcast flats/darks, and commit each slice atomically.
 */
public final class GroupTask {
    private GroupTask() {
    }

    /** A Hadoop configuration from the entries the driver sent. */
    public static Configuration hadoopConf(Map<String, String> entries) {
        Configuration c = new Configuration(false);
        entries.forEach(c::set);
        return c;
    }

    /**
     * Reads the group's band with no device held, takes the device only to process it, and commits its slices after
     * giving the device back: the reads and writes of this executor's other tasks overlap the device's work.
     */
    public static GroupOutcome run(Supplier<JobPlan> broadcast, GroupPlanner.Group g) throws Exception {
        long startMillis = System.currentTimeMillis(), p0 = System.nanoTime();
        // an executor's first task fetches and deserializes the job's plan (with its flats); later tasks find it there
        JobPlan plan = broadcast.get();
        long planNanos = System.nanoTime() - p0;
        if (plan.spark().taskDelayMs() > 0) Thread.sleep(plan.spark().taskDelayMs());
        // the conveyor: at most 2D groups of this JVM hold memory, from their read to their commit, and at most D of
        // them are read or processed at once; the others wait here holding nothing, and a group whose slices are ready
        // gives its place to the next before they are written
        int depth = conveyorDepth(plan);
        Semaphore flight = ExecutorResources.flightPermits(Conveyor.inFlight(depth));
        long queued = System.nanoTime();
        if (flight != null) flight.acquire();
        try {
            return readProcessCommit(plan, g, ExecutorResources.bandPermits(depth), startMillis, queued, planNanos,
                    TaskCancellation.current());
        } finally {
            if (flight != null) flight.release();
        }
    }

    /** The group's work once it has its place in flight: {@code permits} bound its read and processing. */
    private static GroupOutcome readProcessCommit(JobPlan plan, GroupPlanner.Group g, Semaphore permits, long startMillis,
                                                  long queued, long planNanos, Cancellation cancel) throws Exception {
        Configuration conf = hadoopConf(plan.hadoopConf());
        long t0;
        Workflow wf = new Workflow(plan.params().scanGeometry(plan.meta()), plan.params());
        Workflow.HaloBand hb = wf.haloBand(g.start(), g.rows(), plan.meta().rows());
        RawStack band;
        if (permits != null) permits.acquire();
        long queueNanos = System.nanoTime() - queued;
        long t1, t2;
        Processed p;
        try {
            cancel.check("slice group " + g.index());
            t0 = System.nanoTime();
            // the band is read on as many of the node's cores as are free: the read slots are shared by the executor's tasks
            ReadOptions.nodeCores(NodeCores.count());
            ReadOptions reads = ReadOptions.threads(Math.max(plan.params().algorithm().backendOptions().effectiveThreads(),
                    NodeCores.count()));
            try (ProjectionSource src = ProjectionInputs.reopen(plan.input(), plan.format(), plan.inputOptions(), conf, reads)) {
                band = src.readProjections(hb.from(), hb.count());
            }
            FlatDark fd = plan.fields().subBand(hb.from() - plan.fields().rowStart(), hb.count());
            t1 = System.nanoTime();
            cancel.check("slice group " + g.index() + ", read");
            p = process(plan, g, band, fd, hb, cancel);
            band.release(); // processed: the executor's next band is read into its array, before these slices are written
            band = null;
            t2 = System.nanoTime();
        } finally {
            if (permits != null) permits.release();
        }
        GroupResult res = p.result();
        OutputCommit out = new OutputCommit(plan.output(), conf, SliceFiles.of(plan.params().output(), plan.rowStart() / plan.rowBin()));
        List<SliceProfile> profiles = new ArrayList<>();
        Map<Integer, OutputCommit.Committed> written;
        String writers;
        int fromFrames;
        // the group's slices are already in memory: the task's threads encode, hash and commit them side by side
        // on the node's writers, shared with the executor's other tasks: a group whose slices are ready has them all
        try (SliceCommitPool pool = SliceCommitPool.shared(out, NodeCores.count(), res.slices().length,
                plan.params().sliceDescription(), plan.params().output().coding(), failWrite(plan, g, out, res.slices().length, conf),
                p.processor()::recycle)) {
            for (int i = 0; i < res.slices().length; i++) {
                int index = res.firstRow() + i; // output slice index: detector row, or row bin
                SliceFrame px = res.slices()[i];
                if (plan.skipped(index)) {
                    p.processor().recycle(px); // committed by an earlier run: its frame serves a later group
                    continue;
                }
                float[] whole = null;
                if (plan.sendsWhole(index)) {
                    whole = new float[res.width() * res.height()];
                    px.floats().get(0, whole);
                }
                profiles.add(new SliceProfile(index, OrthoPreview.centralRow(px.floats(), res.width(), res.height()),
                        OrthoPreview.centralColumn(px.floats(), res.width(), res.height()), whole));
                pool.submit(index, px, res.width(), res.height());
            }
            written = pool.finish();
            writers = pool.writers();
            fromFrames = pool.timings().fromFrames();
        }
        List<OutputCommit.Committed> committed = new ArrayList<>(written.values());
        long t3 = System.nanoTime();
        TaskContext tc = TaskContext.get();
        String executor = SparkEnv.get() == null ? "?" : SparkEnv.get().executorId();
        return new GroupOutcome(g.index(), g.start(), g.rows(), committed, t1 - t0, res.preprocessNanos(), res.filterNanos(),
                res.backprojectNanos(), t3 - t2, res.updates(), res.preprocess(), p.backend(), p.device(), p.variant(), executor,
                tc == null ? 0 : tc.attemptNumber(), profiles, res.convergence(), executor + ": " + writers, startMillis,
                System.currentTimeMillis(), queueNanos, p.setupNanos(), planNanos, p.onDeviceMillis(), p.offDeviceMillis(), fromFrames);
    }

    /** The conveyor's depth in this JVM: its GPUs times (tasks per GPU + 1); 0 for a backend on the host's cores (no bound). */
    private static int conveyorDepth(JobPlan plan) {
        String backend = plan.params().algorithm().backend();
        int gpus = ExecutorResources.gpusOfThisJvm(plan.spark().devices());
        if (backend.equals("auto") ? gpus == 0 : Backends.runsOnHostCpus(backend)) return 0;
        return Conveyor.depth(Math.max(1, gpus), plan.spark().tasksPerDevice());
    }

    /**
     * job.test.stickyErrorOnGroup: the first attempt of that group fails as on a GPU whose context a kernel corrupted,
     * with the CUDA error a task would see, while it holds its device and processor.
     */
    private static void injectStickyError(JobPlan plan, GroupPlanner.Group g) {
        TaskContext tc = TaskContext.get();
        if (g.index() == plan.spark().stickyErrorOnGroup() && (tc == null || tc.attemptNumber() == 0))
            throw new CudaException("back-projecting group " + g.index() + " (injected by job.test.stickyErrorOnGroup)",
                    "CUDA_ERROR_ILLEGAL_ADDRESS", null);
    }

    /**
     * job.test.failWriteOfGroup: the first attempt of that group fails as a task killed while it commits its slices:
     * after half of them, a slice's file is left half-written under its temporary name, and the task fails.
     */
    private static IntConsumer failWrite(JobPlan plan, GroupPlanner.Group g, OutputCommit out, int slices,
                                         Configuration conf) {
        TaskContext tc = TaskContext.get();
        if (g.index() != plan.spark().failWriteOfGroup() || (tc != null && tc.attemptNumber() > 0)) return row -> {
        };
        AtomicInteger started = new AtomicInteger();
        return row -> {
            if (started.incrementAndGet() <= slices / 2) return;
            Path tmp = new Path(new Path(out.dir(), SliceWriter.TEMP_DIR), out.files().name(row) + "." + UUID.randomUUID() + ".tmp");
            try (OutputStream o = tmp.getFileSystem(conf).create(tmp, true)) {
                o.write(new byte[100]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            throw new IllegalStateException("writing slice " + row + " of group " + g.index()
                    + " (injected by job.test.failWriteOfGroup)");
        };
    }

    /** A processed group, what processed it, and when it was on its device (from its processor's start to its end). */
    private record Processed(GroupResult result, String backend, String device, String variant, SliceGroupProcessor processor,
                             long setupNanos, long onDeviceMillis, long offDeviceMillis) {
    }

    /** Takes a device (if any) and a cached processor for it, processes the band, and gives both back. */
    private static Processed process(JobPlan plan, GroupPlanner.Group g, RawStack band, FlatDark fd, Workflow.HaloBand hb,
                                     Cancellation cancel) throws Exception {
        long setup0 = System.nanoTime();
        ExecutorResources.Assignment dev = ExecutorResources.acquireDevice(plan.spark().devices(), plan.spark().tasksPerDevice());
        try {
            String backend = ExecutorResources.backendFor(plan.params().algorithm().backend(), dev.device());
            ScanGeometry scan = plan.params().scanGeometry(plan.meta());
            SliceGeometry slice = plan.params().sliceGeometry(plan.meta());
            // the processor's own device work (the iterative solvers, cone-beam back-projection) runs on the assigned device
            ReconstructionParams params = plan.params().toBuilder()
                    .backendOptions(plan.params().algorithm().backendOptions().withDevice(dev.device())).build();
            ExecutorResources.Lease lease = ExecutorResources.lease(backend, dev.device(), plan.signature(),
                    plan.spark().tasksPerDevice(),
                    b -> new SliceGroupProcessor(scan, slice, params, b, plan.groupRows(), true),
                    () -> plan.params().algorithm().backendOptions());
            long setupNanos = System.nanoTime() - setup0;
            boolean ok = false;
            try {
                injectStickyError(plan, g);
                String dataName = plan.input(), flatName = plan.input() + " (flats)";
                long onDevice = System.currentTimeMillis();
                GroupResult res;
                try {
                    res = lease.processor.process(g, new Workflow.Band(band, fd, hb.above(), hb.below()), dataName, flatName, cancel);
                } catch (CancellationException e) {
                    ok = true; // stopped between its steps with nothing in flight: the processor serves the next run
                    throw e;
                }
                long offDevice = System.currentTimeMillis();
                ok = true;
                return new Processed(res, lease.processor.backend().id(),
                        dev.device().isEmpty() ? lease.processor.backend().deviceDescription() : dev.device() + " (" + dev.source() + ")",
                        lease.processor.requisition().description(), lease.processor, setupNanos, onDevice, offDevice);
            } finally {
                if (ok) lease.close();
                else lease.discard();
            }
        } finally {
            ExecutorResources.releaseDevice(dev);
        }
    }
}
