package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.io.InputWarnings;
import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.preprocess.PreprocessStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The single-machine reconstruction: reads each slice group from a {@link ProjectionSource}, runs the
 * {@link SliceGroupProcessor} and hands every slice to a {@link SliceSink}. The Spark job runs the same
 * {@link SliceGroupProcessor} per task, so both give bit-identical slices.
 */
public final class VolumeReconstructor {

    /** Progress callback: slices done, total, voxel updates so far, elapsed nanoseconds. */
    @FunctionalInterface
    public interface Progress {
        void update(int slicesDone, int slicesTotal, long updates, long elapsedNanos);
    }

    /**
     * What a run did. {@code scan} is the effective geometry (after binning/stitching; its centre is the one
     * used), {@code workflow} describes the workflow stages (centre search, stitching, binning, …) for the report
     * ({@link WorkflowReport}).
     */
    public record Summary(ScanGeometry scan, SliceGeometry slice, int slices, int skipped, long updates, long elapsedNanos,
                          long readNanos, long preprocessNanos, long filterNanos, long backprojectNanos,
                          PreprocessStats preprocess, String backend, String device, String variant,
                          Map<String, Object> workflow, Convergence convergence, Waits waits) {
        public Summary(ScanGeometry scan, SliceGeometry slice, int slices, int skipped, long updates, long elapsedNanos,
                       long readNanos, long preprocessNanos, long filterNanos, long backprojectNanos,
                       PreprocessStats preprocess, String backend, String device, String variant) {
            this(scan, slice, slices, skipped, updates, elapsedNanos, readNanos, preprocessNanos, filterNanos, backprojectNanos,
                    preprocess, backend, device, variant, Map.of(), Convergence.none());
        }

        public Summary(ScanGeometry scan, SliceGeometry slice, int slices, int skipped, long updates, long elapsedNanos,
                       long readNanos, long preprocessNanos, long filterNanos, long backprojectNanos,
                       PreprocessStats preprocess, String backend, String device, String variant,
                       Map<String, Object> workflow, Convergence convergence) {
            this(scan, slice, slices, skipped, updates, elapsedNanos, readNanos, preprocessNanos, filterNanos, backprojectNanos,
                    preprocess, backend, device, variant, workflow, convergence, Waits.NONE);
        }

        public Summary {
            if (convergence == null) convergence = Convergence.none();
            if (waits == null) waits = Waits.NONE;
        }

        /** This summary with {@code workflow} as its workflow description. */
        public Summary withWorkflow(Map<String, Object> workflow) {
            return new Summary(scan, slice, slices, skipped, updates, elapsedNanos, readNanos, preprocessNanos, filterNanos,
                    backprojectNanos, preprocess, backend, device, variant, workflow, convergence, waits);
        }

        public double gups() {
            return elapsedNanos == 0 ? 0 : updates / (double) elapsedNanos;
        }

        public double backprojectGups() {
            return backprojectNanos == 0 ? 0 : updates / (double) backprojectNanos;
        }
    }

    /**
     * Where the thread that drives the groups spent a single-machine run: waiting for the first band to be read, waiting
     * for later bands (the reader fell behind), in the processor (correction, filter, back-projection), and handing
     * slices to the sink (a sink that commits on threads of its own blocks here when its queue is full). What is not
     * in the processor is time its device may stand idle.
     */
    public record Waits(long firstReadNanos, long readWaitNanos, long processNanos, long sinkNanos) {
        public static final Waits NONE = new Waits(0, 0, 0, 0);
    }

    /** Default rows per group when the parameters leave it to the planner. */
    public static int defaultGroupRows(ReconstructionParams p, ScanMetadata meta) {
        if (p.groupRows() > 0) return p.groupRows();
        ConeParams cone = p.coneBeam();
        if (cone != null) return defaultSlabSlices(cone, meta);
        int k = p.backendOptions().preferredGroupMultiple();
        // about 512 MiB of raw rows per group, at least one pass, at most 64 rows: a GPU's chunk pipeline fills and drains
        // once a group, so fewer, larger groups keep it busier (2048 angles × 2048 columns: 64-row groups back-project a
        // quarter faster than 32-row ones); and no more than half the heap holds of two bands (the one processed, the one
        // read ahead) and three groups' slices (computed, being written, queued)
        long perRow = Math.max(1, meta.bytesPerRow());
        long perRowHeld = 2 * perRow + 3L * meta.width() * meta.width() * Float.BYTES;
        long byHeap = Runtime.getRuntime().maxMemory() / 2 / perRowHeld;
        int rows = (int) Math.max(k, Math.min(Math.min(64, (512L << 20) / perRow), byHeap));
        return Math.max(k, rows / k * k);
    }

    /**
     * Slices per cone-beam slab in this JVM: the widest whose band and slices ({@link ConeParams#slabHostBytes}) take at
     * most a quarter of the heap (the conveyor reads the next slab's band meanwhile).
     */
    static int defaultSlabSlices(ConeParams cone, ScanMetadata meta) {
        return cone.largestSlab(meta, Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * Starts setting up the processor that {@link #run} needs for this source and these parameters (the backend opened,
     * its kernels chosen, its buffers allocated) on a thread of its own, while the caller reads the flats, checks the
     * input and claims the output.
     */
    public static PreparedProcessor prepare(ProjectionSource src, ReconstructionParams params, SliceBuffers buffers) {
        ScanMetadata meta = src.metadata();
        ReconstructionParams p = Workflow.resolveCenter(src, ConeResolution.resolve(src, params)).params();
        ScanGeometry scan = p.scanGeometry(meta);
        Workflow wf = new Workflow(scan, p);
        SliceGeometry slice = p.sliceGeometry(wf.effective().detectorWidth());
        int groupRows = defaultGroupRows(p, meta) * wf.rowBin();
        // the first group's slices and the next's, allocated while the caller works
        buffers.prefillInBackground(2 * groupRows / wf.rowBin());
        return PreparedProcessor.start(() -> newProcessor(scan, slice, p, groupRows, buffers));
    }

    private static SliceGroupProcessor newProcessor(ScanGeometry scan, SliceGeometry slice, ReconstructionParams params, int groupRows,
                                                    SliceBuffers buffers) {
        BackprojectionBackend backend = Backends.open(params.backend(), params.backendOptions());
        try {
            return new SliceGroupProcessor(scan, slice, params, backend, groupRows, true, buffers);
        } catch (RuntimeException | Error e) {
            backend.close();
            throw e;
        }
    }

    /**
     * @param skip output slices (detector rows, or row bins) already done, e.g. committed by an earlier run; null for none
     */
    public static Summary run(ProjectionSource src, ReconstructionParams params, SliceSink sink, Progress progress,
                              IntPredicate skip) {
        return run(src, params, sink, progress, skip, null);
    }

    /**
     * As above; the slices come in arrays from {@code buffers} (null: fresh ones), which the sink may hand back
     * ({@link SliceBuffers#give}) once it no longer reads them.
     */
    public static Summary run(ProjectionSource src, ReconstructionParams params, SliceSink sink, Progress progress,
                              IntPredicate skip, SliceBuffers buffers) {
        return run(src, params, sink, progress, skip, buffers, null);
    }

    /**
     * As above, with the group processor set up ahead ({@link #prepare}, from the same source, parameters and buffers),
     * or null to set it up here.
     */
    public static Summary run(ProjectionSource src, ReconstructionParams params, SliceSink sink, Progress progress,
                              IntPredicate skip, SliceBuffers buffers, PreparedProcessor prepared) {
        long start0 = System.nanoTime();
        ScanMetadata meta = src.metadata();
        params = ConeResolution.resolve(src, params);
        Workflow.CenterResolution cr = Workflow.resolveCenter(src, params);
        params = cr.params();
        long centerNs = System.nanoTime() - start0;
        ScanGeometry scan = params.scanGeometry(meta);
        Workflow wf = new Workflow(scan, params);
        SliceGeometry slice = params.sliceGeometry(wf.effective().detectorWidth());
        int[] range = params.rowRange(meta);
        int rb = wf.rowBin();
        int requestedRows = range[1] - range[0];
        range = GroupPlanner.binnedRange(range, rb);
        int groupRows = defaultGroupRows(params, meta) * rb;
        List<GroupPlanner.Group> groups = GroupPlanner.plan(range[0], range[1], groupRows, params.backendOptions().groupMultiple() * rb);
        int total = (range[1] - range[0]) / rb;
        long start = System.nanoTime();
        long readNs = 0, preNs = 0, filtNs = 0, bpNs = 0, updates = 0;
        int done = 0, skipped = 0;
        PreprocessStats stats = PreprocessStats.ZERO;
        Convergence convergence = Convergence.none();
        // when set up ahead, the processor was set up from these same parameters (prepare resolves them as here)
        SliceGroupProcessor proc0 = prepared != null ? prepared.take() : newProcessor(scan, slice, params, groupRows, buffers);
        BackprojectionBackend backend = proc0.backend();
        String device = backend.deviceDescription();
        List<GroupPlanner.Group> toRun = new ArrayList<>();
        for (GroupPlanner.Group g : groups) {
            boolean all = true;
            for (int r = g.start() / rb; r < g.end() / rb; r++) all &= skip != null && skip.test(r);
            if (all) {
                skipped += g.rows() / rb;
                done += g.rows() / rb;
            } else {
                toRun.add(g);
            }
        }
        // a conveyor: the next group is read while this one is processed, and the sink may commit slices on threads of
        // its own while the next group is processed
        try (SliceGroupProcessor proc = proc0;
             BandPrefetcher reads = new BandPrefetcher(src, wf, toRun)) {
            String variant = proc.requisition().description();
            long firstReadNs = 0, readWaitNs = 0, processNs = 0, sinkNs = 0;
            while (reads.hasNext()) {
                long w0 = System.nanoTime();
                BandPrefetcher.Read read = reads.next();
                long w1 = System.nanoTime();
                if (processNs == 0) firstReadNs += w1 - w0;
                else readWaitNs += w1 - w0;
                GroupPlanner.Group g = read.group();
                Workflow.Band b = read.band();
                readNs += read.nanos();
                GroupResult res = proc.process(g, b, src.dataName(), src.flatName());
                b.projections().release(); // processed: the next band is read into its array
                long w2 = System.nanoTime();
                processNs += w2 - w1;
                preNs += res.preprocessNanos();
                filtNs += res.filterNanos();
                bpNs += res.backprojectNanos();
                updates += res.updates();
                stats = stats.plus(res.preprocess());
                convergence = convergence.plus(res.convergence());
                for (int i = 0; i < res.slices().length; i++) {
                    int row = res.firstRow() + i;
                    if (skip != null && skip.test(row)) {
                        skipped++;
                    } else {
                        sink.accept(row, res.slices()[i], res.width(), res.height());
                    }
                    done++;
                }
                sinkNs += System.nanoTime() - w2;
                if (progress != null) progress.update(done, total, updates, System.nanoTime() - start);
            }
            Map<String, Object> workflow = WorkflowReport.describe(params, wf, cr.found(), centerNs, groupRows, requestedRows,
                    InputWarnings.of(src));
            return new Summary(wf.effective(), slice, total, skipped, updates, System.nanoTime() - start, readNs, preNs, filtNs, bpNs,
                    stats, backend.id(), device, variant, workflow, convergence, new Waits(firstReadNs, readWaitNs, processNs, sinkNs));
        }
    }
}
