package org.tomospark.executor.backends.cuda;

import jcuda.driver.CUdeviceptr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendStats;
import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.BatchContract;
import org.tomospark.executor.backend.KernelTimer;
import org.tomospark.executor.backend.PipelineTimes;
import org.tomospark.executor.backend.RawSliceBatch;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.memory.SliceFrame;

import java.util.Locale;
import java.util.function.Supplier;

import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;

/**
 * CUDA back-projection through the JCuda driver API: drives one device for one job at a time. The kernels and their
 * manifest come from the packaged {@link KernelBuild} ({@link CudaModules}); {@link VariantSelector} (with
 * {@link AutoTuner}) picks the kernel, {@link MemoryPlanner} sizes and {@link DeviceBuffers} holds the job's memory,
 * {@link KernelLauncher} launches the kernels with their arguments, {@link ChunkPipeline} streams the batches through
 * them and {@link ChunkTimer} times them.
 *
 * <p>Pipeline per {@link #process}: the batch is cut into chunks; for chunk k+1 the host copies sinograms into
 * pinned buffers and the copy-in stream uploads them while the compute stream filters (optionally), interleaves
 * and back-projects chunk k, and the copy-out stream downloads chunk k−1 (double buffering, events between
 * streams). {@link #processRaw} runs the same pipeline on raw uint16 counts, half the bytes, corrected on the device
 * ({@link DeviceCorrection}) before the filter.
 *
 * <p>Options: {@code variant} (auto, std, stdz, tex, alu[:tTpP][:adv|:std], hybrid[:tTpP][:sS], tc[:tWxH][:bN]); {@code device}
 * (index or Spark GPU address). Extra keys: {@code cuda.chunkSlices} (slices per pipeline chunk; 0, the default, is one
 * kernel block: 8, or 32 for tensor cores), {@code cuda.memoryFraction} (share of free device memory to use, default
 * 0.8), {@code cuda.autotune} (true/false, default true), {@code cuda.tuningCache} (per-device tuning cache file),
 * {@code cuda.hostThreads} (host copy threads, default min(8, cores)), {@code cuda.correctOnDevice} (flat/dark
 * correction and −log of uint16 counts on the device when the job filters there, default true),
 * {@code cuda.allowTextureWeights} (whether auto-tuning may pick variants interpolated by the texture unit's 8-bit
 * weights; default false: they miss the 1e-3 half / 1e-5 float32 accuracy on white noise).
 */
public final class CudaBackend implements BackprojectionBackend, KernelTimer {
    public static final String ID = "cuda";
    private static final Logger LOG = LoggerFactory.getLogger(CudaBackend.class);
    /** The kernels need mma.sync (m16n8k16), ldmatrix and cp.async: compute capability 8.0. */
    private static final int MIN_CC_MAJOR = 8;

    private BackendOptions options;
    private CudaDevice dev;
    private KernelBuild build;
    private CudaModules modules;
    private CudaStreams streams;
    private BackprojectionJob job;
    private KernelVariant variant;
    private String variantSource = "";
    private int np, rows, cols;
    private DeviceBuffers buffers;
    /** Flat/dark correction of raw counts on the device, when the job filters on the device; else null. */
    private DeviceCorrection correction;
    private ChunkPipeline pipeline;
    /** The times of this backend's earlier jobs' pipelines. */
    private PipelineTimes pipelinesBefore = PipelineTimes.NONE;
    private ChunkTimer timer;
    private boolean filterOnDevice;
    private BackendStats stats = BackendStats.ZERO;

    @Override
    public String id() {
        return ID;
    }

    // ---------------------------------------------------------------------------------------------- setup

    @Override
    public void setup(BackendOptions options) {
        this.options = options;
        String r = CudaDevice.unavailableReason();
        if (r != null) throw new BackendUnavailableException("backend 'cuda' cannot run here: " + r);
        int index = CudaDevice.parseDevice(options.device());
        guarded("opening device " + index, () -> {
            dev = CudaDevice.get(index);
            return null;
        });
        if (dev.ccMajor < MIN_CC_MAJOR)
            throw new BackendUnavailableException(String.format(Locale.ROOT,
                    "backend 'cuda' cannot run on %s: its kernels need compute capability %d.0 or newer", dev.describe(), MIN_CC_MAJOR));
        build = KernelBuild.packaged();
        guarded("loading kernels", () -> {
            dev.makeCurrent();
            modules = new CudaModules(build);
            streams = new CudaStreams();
            return null;
        });
    }

    // ---------------------------------------------------------------------------------------------- validate

    @Override
    public Requisition validate(BackprojectionJob job) {
        if (options == null) throw new IllegalStateException("cuda backend: validate() called before setup()");
        if (this.job != null) freeJob();
        try {
            return validateJob(job);
        } catch (RuntimeException e) {
            // a failed validate leaves nothing allocated and the backend unvalidated (process() then says so)
            try {
                freeJob();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            this.job = null;
            throw e;
        }
    }

    private Requisition validateJob(BackprojectionJob job) {
        return guarded("validating the job", () -> {
            dev.makeCurrent();
            this.job = job;
            ScanGeometry scan = job.scan();
            SliceGeometry g = job.slice();
            int width = scan.detectorWidth();
            np = scan.numProjections();
            rows = g.roiRows();
            cols = g.roiCols();
            if (np > 65535) throw new IllegalArgumentException("cuda backend: at most 65535 projections, got " + np);
            VariantSelector.Selection sel = new VariantSelector(build.catalog(), build.version(), dev.name, dev.maxSharedOptin)
                    .select(options, slicesPerPass(), np, job.maxSlicesPerBatch(), new AutoTuner(options, dev, build.catalog(), np));
            variant = sel.variant();
            variantSource = sel.source();
            if (np > variant.maxProjections())
                throw new IllegalArgumentException("cuda variant " + variant.id() + " keeps projection constants in constant memory "
                        + "and takes at most " + variant.maxProjections() + " projections, got " + np + ": use variant alu or hybrid");
            KernelLauncher.requireSharedFits(variant, dev.maxSharedOptin, dev.name);
            boolean half = options.format() == SampleFormat.HALF;

            FilterSpec fs = job.deviceFilter();
            int filterN = deviceFilterLength(fs, width);
            filterOnDevice = filterN > 0;
            long[] free = new long[1], total = new long[1];
            cuMemGetInfo(free, total);
            double frac = options.get(CudaKeys.MEMORY_FRACTION);
            int maxGroups = KernelLauncher.maxGroupsPerLaunch(variant, rows, cols);
            MemoryPlanner.Plan plan = plan(free[0], width, half, filterN, frac, maxGroups);
            if ((variant.window() || variant.scaledPacking()) && (long) np * plan.pitch() + plan.pitch() > Integer.MAX_VALUE)
                // these kernels index a group's compound sinogram with 32-bit bin offsets (projection * pitch + column)
                throw new IllegalArgumentException("cuda variant " + variant.id() + " takes at most 2^31 bins per sinogram, got "
                        + np + " projections x " + plan.pitch() + " (detector width " + width + "): use backend.variant alu");
            boolean correct = filterOnDevice && options.get(CudaKeys.CORRECT_ON_DEVICE)
                    && DeviceCorrection.fits((long) plan.chunkSlices() * np * width * 4, plan.chunkSlices(), np, width);
            if (correct) {
                // the raw counts' buffers come out of the same budget: plan again without them if they do not fit
                long extra = DeviceCorrection.deviceBytes(plan.chunkSlices(), np, width);
                if (plan.deviceBytes() + extra > (long) ((free[0] - MemoryPlanner.RESERVE_BYTES) * frac))
                    plan = plan(free[0] - extra, width, half, filterN, frac, maxGroups);
            }
            long[] constantBytes = new long[1];
            CUdeviceptr constants = modules.projectionConstants(constantBytes);
            DeviceBuffers.FilterTables filterTables = filterOnDevice
                    ? DeviceBuffers.FilterTables.of(filterN, new RampFilter(width, np, fs).response()) : null;
            buffers = new DeviceBuffers(new DeviceBuffers.Shape(width, np, rows, cols, plan, variant, half, options.interpolation(),
                    maxGroups), new ProjectionTables(scan, g), constants, constantBytes[0], filterTables, dev.pinned);
            KernelLauncher.Filter filter = filterOnDevice
                    ? new KernelLauncher.Filter(modules.filter(KernelCalls.Filter.KERNEL), filterN, fs.padding() == Padding.EDGE) : null;
            KernelLauncher launcher = new KernelLauncher(modules, variant, buffers, filter);
            pipeline = new ChunkPipeline(streams, buffers, launcher, HostCopyPool.get(options), dev);
            timer = new ChunkTimer(streams, buffers, launcher);
            if (correct) correction = new DeviceCorrection(modules.correction(KernelCalls.Correct.KERNEL), plan.chunkSlices(), np, width);
            long correctionBytes = correct ? DeviceCorrection.deviceBytes(plan.chunkSlices(), np, width) : 0;
            return new Requisition(slicesPerPass(), plan.deviceBytes() + correctionBytes, plan.pinnedHostBytes(), filterOnDevice,
                    "cuda " + variant.id() + " (" + variant.functionName() + ", " + variantSource + "), "
                            + slicesPerPass() + " slices/pass, " + options.interpolation().name().toLowerCase()
                            + (half ? ", half storage" : ", float32 storage") + ", chunk " + plan.chunkSlices()
                            + " slices" + (filterOnDevice ? ", ramp filter on device (FFT " + filterN + ")" : "")
                            + (correct ? ", flat/dark on device" : ""));
        });
    }

    /**
     * The FFT length of the device ramp filter, when the job asks for one and one block's shared memory holds it
     * (16 bytes a point); else 0 and the filter stays on the host.
     */
    private int deviceFilterLength(FilterSpec fs, int width) {
        if (fs == null) return 0;
        int n = FilterSpec.paddedLength(width);
        if ((long) n * 16 <= dev.maxSharedOptin) return n;
        LOG.warn("cuda: detector width {} needs an FFT of {} points, more than one block's shared memory holds; "
                + "filtering stays on the host", width, n);
        return 0;
    }

    private MemoryPlanner.Plan plan(long free, int width, boolean half, int filterN, double fraction, int maxGroups) {
        return MemoryPlanner.plan(free, width, np, rows, cols, variant.k(), half ? 2 : 4, job.maxSlicesPerBatch(),
                chunkSlices(), fraction, filterN, variant.usesEntries() ? variant.entryBytes() : 0, maxGroups);
    }

    /**
     * Slices a chunk of the pipeline wants, before memory limits, for a processor alone on its GPU (the direct engine):
     * it copies a chunk's slices between Java arrays and pinned buffers in parallel, one slice a thread, so larger chunks
     * keep its host copies ahead of the GPU (2048³ on an H100: 9.2 s with 8-slice chunks, 11.4 s with 4).
     */
    static final int AUTO_CHUNK_SLICES = 8;
    /**
     * The same where several processors share the GPU (Spark tasks, cuda.processorsPerDevice): their pipelines overlap
     * one another, and smaller chunks pin less host memory and fill and drain faster (two H100s, 2048 × 1024 × 2048 in
     * local mode: 6.3 s against 7.8 s with 8-slice chunks, the same bits).
     */
    static final int SHARED_CHUNK_SLICES = 4;

    /**
     * cuda.chunkSlices, or for 0 the smallest chunk that fills the kernel's blocks: the slices of one tensor-core
     * block (32), else {@link #AUTO_CHUNK_SLICES} ({@link #SHARED_CHUNK_SLICES} on a shared GPU). Small chunks let one
     * group's uploads, kernels and downloads overlap.
     */
    private int chunkSlices() {
        int c = options.get(CudaKeys.CHUNK_SLICES);
        int auto = options.get(CudaKeys.PROCESSORS_PER_DEVICE) > 1 ? SHARED_CHUNK_SLICES : AUTO_CHUNK_SLICES;
        return c > 0 ? c : Math.max(auto, variant.k() * variant.groupsPerBlock());
    }

    /**
     * Slices per pass this backend runs: backend.slicesPerPass, with 0 (auto) = the fastest measured mode of each storage
     * (8 for half, the tensor-core kernels; 4 for float32, whose register-window kernel runs at 5.33 TU/s on an H100
     * against 3.96 for the best two-slice one, both exact) and 16 = 8 (the ALU kernels serve at most 8 slices per pass).
     */
    private int slicesPerPass() {
        return slicesPerPass(options);
    }

    static int slicesPerPass(BackendOptions o) {
        int k = o.slicesPerPass();
        if (k == 0) return o.format() == SampleFormat.HALF ? 8 : 4;
        return Math.min(k, KernelCatalog.MAX_SLICES);
    }

    // ---------------------------------------------------------------------------------------------- process

    @Override
    public void process(SliceBatch batch, float[][] out) {
        process(batch, out == null ? null : SliceFrame.wrap(out));
    }

    @Override
    public boolean fillsDirectFrames() {
        return true;
    }

    @Override
    public void process(SliceBatch batch, SliceFrame[] out) {
        if (job == null) throw new IllegalStateException("cuda backend: process() called before validate()");
        BatchContract.check(ID, job, batch, out, filterOnDevice);
        long t0 = System.nanoTime();
        guarded("back-projecting batch at row " + batch.firstRow(), () -> {
            dev.makeCurrent();
            long sliceBytes = (long) np * buffers.shape.width() * 4;
            pipeline.run(batch.count(), !batch.filtered(),
                    (b, first, n) -> pipeline.stageFloats(batch.sinograms(), b, first, n),
                    (b, n) -> cuMemcpyHtoDAsync(buffers.in[b], buffers.hostIn[b], n * sliceBytes, streams.in()), null, out,
                    batch.cancellation());
            return null;
        });
        stats = stats.plus((long) rows * cols * np * batch.count(), System.nanoTime() - t0);
    }

    @Override
    public boolean correctsOnDevice() {
        return correction != null;
    }

    @Override
    public long processRaw(RawSliceBatch batch, float[][] out) {
        return processRaw(batch, out == null ? null : SliceFrame.wrap(out));
    }

    @Override
    public long processRaw(RawSliceBatch batch, SliceFrame[] out) {
        if (job == null) throw new IllegalStateException("cuda backend: processRaw() called before validate()");
        if (correction == null)
            throw new UnsupportedOperationException("cuda backend: this job does not correct on the device (no device filter, "
                    + "or cuda.correctOnDevice=false)");
        BatchContract.check(ID, job, batch, out);
        long t0 = System.nanoTime();
        float floor = batch.transmissionFloor();
        long clamped = guarded("correcting and back-projecting batch at row " + batch.firstRow(), () -> {
            dev.makeCurrent();
            correction.resetCount(streams.compute());
            pipeline.run(batch.count(), true, (b, first, n) -> {
                        int parts = pipeline.threads() * 2;
                        pipeline.parallel(parts, k -> correction.stageCounts(batch, first, n, k, parts, buffers.stagingIn[b]));
                        correction.stageFields(batch, first, n, buffers.stagingIn[b]);
                    },
                    (b, n) -> correction.upload(b, buffers.hostIn[b], n, streams.in()),
                    (b, n) -> correction.launch(b, buffers.in[b], n, floor, streams.compute()), out, batch.cancellation());
            return correction.count();
        });
        stats = stats.plus((long) rows * cols * np * batch.count(), System.nanoTime() - t0);
        return clamped;
    }

    // ---------------------------------------------------------------------------------------------- timing

    @Override
    public Timing timeKernels(SliceBatch batch, int warmup, int reps) {
        return timeChunks(batch, warmup, reps, false);
    }

    /**
     * Times the pipeline's own launches for one chunk: the back-projection launches only, or ({@code withPrep}) the
     * whole chunk, interleave and entries kernels included (auto-tuning: the entries array is a cost of its variants).
     */
    Timing timeChunks(SliceBatch batch, int warmup, int reps, boolean withPrep) {
        if (job == null) throw new IllegalStateException("cuda backend: timeKernels() called before validate()");
        return guarded("timing kernels", () -> {
            dev.makeCurrent();
            return timer.time(batch, warmup, reps, withPrep, variant.id() + " (" + variant.functionName() + ")");
        });
    }

    /** The kernel variant chosen by validate (for benchmarks and logs). */
    public String variantDescription() {
        return variant == null ? "none" : variant.id() + " (" + variant.functionName() + ", " + variantSource + ")";
    }

    // ---------------------------------------------------------------------------------------------- misc

    /** Runs driver calls under the device's error rule ({@link DeviceCalls#guarded}). */
    private <T> T guarded(String what, Supplier<T> body) {
        return DeviceCalls.guarded(dev, what, body);
    }

    @Override
    public BackendStats stats() {
        return stats;
    }

    @Override
    public PipelineTimes pipelineTimes() {
        ChunkPipeline p = pipeline;
        return p == null ? pipelinesBefore : pipelinesBefore.plus(p.times());
    }

    @Override
    public String deviceDescription() {
        if (dev == null) return "cuda: not set up";
        return dev.describe() + ", kernels from " + build.source() + (variant == null ? "" : ", variant " + variantDescription());
    }

    private void freeJob() {
        if (dev == null || !dev.usable()) return;
        try {
            dev.makeCurrent();
            if (streams != null) streams.synchronize();
            if (buffers != null) buffers.close();
            if (correction != null) correction.free();
        } catch (jcuda.CudaException e) {  // JCuda's
            String name = CudaException.nameFrom(e.getMessage());
            if (CudaException.isSticky(name)) dev.markUnusable(name + " while freeing buffers");
            LOG.warn("cuda: error while freeing buffers: {}", name);
        } finally {
            if (pipeline != null) pipelinesBefore = pipelinesBefore.plus(pipeline.times());
            buffers = null;
            pipeline = null;
            timer = null;
            correction = null;
            job = null;
        }
    }

    @Override
    public void close() {
        try {
            freeJob();
            if (dev != null && dev.usable()) {
                try {
                    dev.makeCurrent();
                    if (streams != null) streams.close();
                    if (modules != null) modules.close();
                } catch (jcuda.CudaException e) {  // JCuda's
                    LOG.warn("cuda: error while closing: {}", CudaException.nameFrom(e.getMessage()));
                }
            }
        } finally {
            streams = null;
            modules = null;
        }
    }
}
