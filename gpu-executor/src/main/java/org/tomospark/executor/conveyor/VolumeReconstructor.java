package org.tomospark.executor.conveyor;

import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ConeResolution;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.SliceBuffers;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.pipeline.WorkflowReport;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.PipelineTimes;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.inputs.InputWarnings;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.iterative.Convergence;
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
     * slices to the sink (a sink that commits on threads of its own blocks here when its queue is full), summed over the
     * {@code lanes} that took groups at once ({@link GroupLoop}). With one lane, what is not in the processor is time its
     * device stood idle. {@code device}: how well the lanes' device pipelines were fed ({@link PipelineTimes#NONE} on
     * backends without one).
     */
    public record Waits(int lanes, long firstReadNanos, long readWaitNanos, long processNanos, long sinkNanos,
                        PipelineTimes device) {
        public static final Waits NONE = new Waits(0, 0, 0, 0, 0, PipelineTimes.NONE);

        public Waits(int lanes, long firstReadNanos, long readWaitNanos, long processNanos, long sinkNanos) {
            this(lanes, firstReadNanos, readWaitNanos, processNanos, sinkNanos, PipelineTimes.NONE);
        }
    }

    /** Groups a lane takes at least: on fewer, a further lane's set-up costs more than its overlap gains. */
    static final int GROUPS_PER_LANE = 4;

    /**
     * Lanes for {@code groups} groups when {@code requested} are asked for: at most one per {@link #GROUPS_PER_LANE}
     * groups (256 slices of 2048², four groups, took 1.27–1.38 s in one lane and 1.68 s in two on an H100; 2048³, 32
     * groups, 7.35 s in one and 6.85 s in two).
     */
    static int lanesFor(int requested, int groups) {
        return Math.max(1, Math.min(requested, groups / GROUPS_PER_LANE));
    }

    /**
     * The lanes a run of the binned rows {@code range} takes when {@code requested} are asked for, decided before its
     * processors are set up (each lane's pipeline is sized for the lanes that share its GPU): one for a cone-beam or
     * iterative run (their device memory is sized for the GPU alone), else {@link #lanesFor} its planned groups. A run
     * that finds some groups done (a resume) may take fewer.
     */
    public static int lanes(ReconstructionParams p, ScanMetadata meta, int[] range, int rowBin, int requested) {
        if (requested <= 1 || p.coneBeam() != null || p.algorithm().iterative().iterative()) return 1;
        int groupRows = defaultGroupRows(p, meta, requested) * rowBin;
        int multiple = p.algorithm().backendOptions().groupMultiple() * rowBin;
        return lanesFor(requested, GroupPlanner.plan(range[0], range[1], groupRows, multiple).size());
    }

    /** Default rows per group when the parameters leave it to the planner (one group processed at a time). */
    public static int defaultGroupRows(ReconstructionParams p, ScanMetadata meta) {
        return defaultGroupRows(p, meta, 1);
    }

    /**
     * Default rows per group where {@code lanes} groups are processed at once: about 512 MiB of raw rows per group, at
     * least one pass, at most 64 rows (a GPU's chunk pipeline fills and drains once a group, so fewer, larger groups keep
     * it busier: 2048 angles × 2048 columns, 64-row groups back-project a quarter faster than 32-row ones), and no more
     * than half the heap holds of the bands in memory (one processed and one read ahead a lane) and the groups' slices
     * (those computed, the group being written and the writers' queue).
     */
    public static int defaultGroupRows(ReconstructionParams p, ScanMetadata meta, int lanes) {
        if (p.groupRows() > 0) return p.groupRows();
        ConeParams cone = p.coneBeam();
        if (cone != null) return defaultSlabSlices(cone, meta);
        int k = p.algorithm().backendOptions().preferredGroupMultiple();
        int n = Math.max(1, lanes);
        long perRow = Math.max(1, meta.bytesPerRow());
        long perRowHeld = 2L * n * perRow + (n + 2L) * meta.width() * meta.width() * Float.BYTES;
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
        return prepare(src, params, buffers, 1);
    }

    /** As above, for a run of {@code lanes} lanes ({@link #run}). */
    public static PreparedProcessor prepare(ProjectionSource src, ReconstructionParams params, SliceBuffers buffers, int lanes) {
        ScanMetadata meta = src.metadata();
        ReconstructionParams p = Workflow.resolveCenter(src, ConeResolution.resolve(src, params)).params();
        ScanGeometry scan = p.scanGeometry(meta);
        Workflow wf = new Workflow(scan, p);
        SliceGeometry slice = p.sliceGeometry(wf.effective().detectorWidth());
        int groupRows = defaultGroupRows(p, meta, lanes) * wf.rowBin();
        // the slices of the first groups (one a lane) and of the next, allocated while the caller works
        if (buffers != null) buffers.prefillInBackground((Math.max(1, lanes) + 1) * groupRows / wf.rowBin());
        return PreparedProcessor.start(() -> newProcessor(scan, slice, p, groupRows, buffers));
    }

    private static SliceGroupProcessor newProcessor(ScanGeometry scan, SliceGeometry slice, ReconstructionParams params, int groupRows,
                                                    SliceBuffers buffers) {
        BackprojectionBackend backend = Backends.open(params.algorithm().backend(), params.algorithm().backendOptions());
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
        return run(src, params, sink, progress, skip, buffers, prepared, 1);
    }

    /**
     * As above, with up to {@code lanes} groups processed at once where the backend is CUDA, each by a processor of its
     * own ({@link GroupLoop}); other backends process one group at a time (the Java backend's group already takes every
     * core). The sink is called by one lane at a time.
     */
    public static Summary run(ProjectionSource src, ReconstructionParams params, SliceSink sink, Progress progress,
                              IntPredicate skip, SliceBuffers buffers, PreparedProcessor prepared, int lanes) {
        return run(src, params, sink, progress, skip, buffers, prepared, lanes, false);
    }

    /** As above; {@code anyBackend}: lanes on whatever backend runs FBP (tests check lanes on the Java backend). */
    static Summary run(ProjectionSource src, ReconstructionParams params, SliceSink sink, Progress progress,
                       IntPredicate skip, SliceBuffers buffers, PreparedProcessor prepared, int lanes, boolean anyBackend) {
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
        int groupRows = defaultGroupRows(params, meta, lanes) * rb;
        int multiple = params.algorithm().backendOptions().groupMultiple() * rb;
        List<GroupPlanner.Group> groups = GroupPlanner.plan(range[0], range[1], groupRows, multiple);
        int total = (range[1] - range[0]) / rb;
        long start = System.nanoTime();
        int done = 0, skipped = 0;
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
        // FBP groups only: a cone-beam slab and an iterative solve size their device memory for the GPU alone
        boolean shareable = (anyBackend || Backends.of(backend.id()).overlapsGroups()) && params.coneBeam() == null
                && !params.algorithm().iterative().iterative();
        int running = shareable ? lanesFor(lanes, toRun.size()) : 1;
        ReconstructionParams p = params;
        // a conveyor: the next group is read while this one is processed, and the sink may commit slices on threads of
        // its own while the next group is processed
        try (SliceGroupProcessor proc = proc0;
             BandPrefetcher reads = new BandPrefetcher(src, wf, toRun, running)) {
            String variant = proc.requisition().description();
            GroupLoop loop = new GroupLoop(reads, sink, skip, progress, total, done, skipped, start, src.dataName(), src.flatName());
            loop.run(proc, running, () -> newProcessor(scan, slice, p, groupRows, buffers));
            Map<String, Object> workflow = WorkflowReport.describe(params, wf, cr.found(), centerNs, groupRows, requestedRows,
                    InputWarnings.of(src));
            return new Summary(wf.effective(), slice, total, loop.skipped(), loop.updates(), System.nanoTime() - start,
                    loop.readNanos(), loop.preprocessNanos(), loop.filterNanos(), loop.backprojectNanos(), loop.stats(), backend.id(),
                    device, variant, workflow, loop.convergence(), loop.waits());
        }
    }
}
