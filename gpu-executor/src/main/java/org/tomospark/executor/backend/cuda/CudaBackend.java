package org.tomospark.executor.backend.cuda;

import org.tomospark.executor.backend.BackendUnavailableException;
import jcuda.Pointer;
import jcuda.driver.CUDA_RESOURCE_DESC;
import jcuda.driver.CUDA_TEXTURE_DESC;
import jcuda.driver.CUarray_format;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfilter_mode;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresourcetype;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.CUtexObject;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendStats;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.RawSliceBatch;
import org.tomospark.executor.backend.KernelTimer;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import static jcuda.driver.JCudaDriver.*;

/**
 * CUDA back-projection through the JCuda driver API. Kernels come from kernels/*.cu, loaded as a fatbin
 * (packaged by the Maven "cuda-kernels" profile) or, failing that, as the committed PTX (JIT-compiled by the
 * driver).
 *
 * <p>Pipeline per {@link #process}: the batch is cut into chunks; for chunk k+1 the host copies sinograms into
 * pinned buffers and the copy-in stream uploads them while the compute stream filters (optionally), interleaves
 * and back-projects chunk k, and the copy-out stream downloads chunk k−1 (double buffering, events between
 * streams). {@link #processRaw} runs the same pipeline on raw uint16 counts, half the bytes, corrected on the device
 * ({@link DeviceCorrection}) before the filter.
 *
 * <p>Options: {@code variant} (auto, std, stdz, tex, alu[:tTpP][:adv|:std], hybrid[:tTpP][:sS], tc[:tWxH][:bN]); {@code device}
 * (index or Spark GPU address). Extra keys: {@code cuda.chunkSlices} (slices per pipeline chunk, default 32),
 * {@code cuda.memoryFraction} (share of free device memory to use, default 0.8), {@code cuda.autotune}
 * (true/false, default true), {@code cuda.tuningCache} (per-device tuning cache file),
 * {@code cuda.hostThreads} (host copy threads, default min(8, cores)), {@code cuda.correctOnDevice} (flat/dark
 * correction and −log of uint16 counts on the device when the job filters there, default true),
 * {@code cuda.allowTextureWeights} (whether auto-tuning may pick variants interpolated by the texture unit's 8-bit
 * weights; default false: they miss the 1e-3 half / 1e-5 float32 accuracy on white noise).
 */
public final class CudaBackend implements BackprojectionBackend, KernelTimer {
    public static final String ID = "cuda";
    private static final Logger LOG = LoggerFactory.getLogger(CudaBackend.class);
    private static volatile ExecutorService hostPool;
    /** One lock per (device and kernels, mode, cache file): see {@link #chooseVariant}. */
    private static final Map<String, Object> TUNING_LOCKS = new ConcurrentHashMap<>();
    /** CU_TR_ADDRESS_MODE_BORDER (cuda.h: 3); JCuda 12.6's CUaddress_mode lacks the constant. */
    private static final int ADDRESS_MODE_BORDER = 3;

    private BackendOptions options;
    private CudaDevice dev;
    private boolean nested; // tuning sweeps: no tuning
    private CUmodule bpModule, filterModule, correctModule;
    private String moduleSource = "";
    private BackprojectionJob job;
    private KernelVariant variant;
    private String variantSource = "";
    private MemoryPlanner.Plan plan;
    private int width, np, rows, cols;
    private final CUdeviceptr[] dIn = new CUdeviceptr[2], dOut = new CUdeviceptr[2];
    private CUdeviceptr dPacked, dEntries, dProj, dTw, dResp;
    /** Window and tensor-core variants: per group of a launch, the largest magnitude (float bits) its packing was scaled by. */
    private CUdeviceptr dGmax;
    private int entriesPitch;
    /** Groups of a chunk back-projected by one launch (grid z), each with its own compound sinogram / entries. */
    private int groupsPerLaunch = 1;
    private long packedGroupBytes, entriesGroupBytes;
    private final Pointer[] hIn = new Pointer[2], hOut = new Pointer[2];
    private final FloatBuffer[] fIn = new FloatBuffer[2], fOut = new FloatBuffer[2];
    private final ByteBuffer[] bIn = new ByteBuffer[2];
    /** Flat/dark correction of raw counts on the device, when the job filters on the device; else null. */
    private DeviceCorrection correction;
    private CUstream sIn, sCompute, sOut;
    private final CUevent[] evH2D = new CUevent[2], evCompute = new CUevent[2], evD2H = new CUevent[2];
    private CUtexObject tex;
    private CUfunction fnBp, fnPack, fnEntries, fnFilter, fnAbsMax;
    private int filterN;
    private boolean filterEdge, filterOnDevice;
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
        guarded("loading kernels", () -> {
            dev.makeCurrent();
            bpModule = loadModule("backproject");
            filterModule = loadModule("filter");
            correctModule = loadModule("preprocess");
            sIn = stream();
            sCompute = stream();
            sOut = stream();
            for (int i = 0; i < 2; i++) {
                evH2D[i] = event();
                evCompute[i] = event();
                evD2H[i] = event();
            }
            return null;
        });
    }

    private static CUstream stream() {
        CUstream s = new CUstream();
        cuStreamCreate(s, CUstream_flags.CU_STREAM_NON_BLOCKING);
        return s;
    }

    private static CUevent event() {
        CUevent e = new CUevent();
        cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING);
        return e;
    }


    /** Short hash of the committed PTX (the source of the fatbins too): tuning choices are cached per device and kernel build. */
    private static String kernelsVersion() {
        return KernelsVersion.VALUE;
    }

    /** Computed once per JVM, on first use (the PTX is 8.6 MB). */
    private static final class KernelsVersion {
        static final String VALUE = compute();

        private static String compute() {
            byte[] ptx = resource("/kernels-ptx/backproject.ptx");
            if (ptx == null) return "unknown";
            try {
                byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(ptx);
                return java.util.HexFormat.of().formatHex(d, 0, 4);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private CUmodule loadModule(String name) {
        CUmodule m = new CUmodule();
        byte[] fat = resource("/kernels-fatbin/" + name + ".fatbin");
        if (fat != null && dev.ccMajor >= 8) {
            cuModuleLoadData(m, fat);
            moduleSource = "fatbin";
            return m;
        }
        byte[] ptx = resource("/kernels-ptx/" + name + ".ptx");
        if (ptx == null)
            throw new IllegalStateException("cuda: neither /kernels-fatbin/" + name + ".fatbin nor /kernels-ptx/" + name
                    + ".ptx is on the classpath (build gpu-executor with kernels/build-ptx.sh output)");
        byte[] z = java.util.Arrays.copyOf(ptx, ptx.length + 1);
        cuModuleLoadDataEx(m, Pointer.to(z), 0, new int[0], Pointer.to(new int[0]));
        moduleSource = "ptx (driver JIT)";
        return m;
    }

    private static byte[] resource(String path) {
        try (InputStream in = CudaBackend.class.getResourceAsStream(path)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cuda: cannot read resource " + path + ": " + e.getMessage(), e);
        }
    }

    private CUfunction function(CUmodule m, String name) {
        CUfunction f = new CUfunction();
        try {
            cuModuleGetFunction(f, m, name);
        } catch (jcuda.CudaException e) {
            throw new IllegalStateException("cuda: kernel " + name + " is not in the loaded module (" + moduleSource
                    + "): rebuild kernels (kernels/build-ptx.sh)", e);
        }
        return f;
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
            width = scan.detectorWidth();
            np = scan.numProjections();
            rows = g.roiRows();
            cols = g.roiCols();
            if (np > 65535) throw new IllegalArgumentException("cuda backend: at most 65535 projections, got " + np);
            variant = chooseVariant();
            if (np > variant.maxProjections())
                throw new IllegalArgumentException("cuda variant " + variant.id() + " keeps projection constants in constant memory and takes at most "
                        + variant.maxProjections() + " projections, got " + np + ": use variant alu or hybrid");
            fnBp = function(bpModule, variant.functionName());
            int smem = variant.dynamicSharedBytes();
            if (smem > 48 * 1024) {
                // more than the default 48 KiB of dynamic shared memory must be asked for per function
                if (smem > dev.maxSharedOptin)
                    throw new IllegalArgumentException("cuda variant " + variant.id() + " needs " + smem + " bytes of shared memory per block; "
                            + dev.name + " allows " + dev.maxSharedOptin + ": choose another backend.variant");
                cuFuncSetAttribute(fnBp, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
            }
            boolean half = options.format() == SampleFormat.HALF;
            // the window and tensor-core kernels read their compound sinogram packed scaled (absmax, then the packing)
            fnPack = function(bpModule, variant.packFunctionName());
            fnAbsMax = variant.absMaxFunctionName() == null ? null : function(bpModule, variant.absMaxFunctionName());
            fnEntries = variant.usesEntries() ? function(bpModule, variant.entriesFunctionName()) : null;

            FilterSpec fs = job.deviceFilter();
            filterOnDevice = false;
            filterN = 0;
            if (fs != null) {
                int n = FilterSpec.paddedLength(width);
                if ((long) n * 16 <= dev.maxSharedOptin) {
                    filterOnDevice = true;
                    filterN = n;
                    filterEdge = fs.padding() == Padding.EDGE;
                } else {
                    LOG.warn("cuda: detector width {} needs an FFT of {} points, more than one block's shared memory holds; filtering stays on the host", width, n);
                }
            }
            long[] free = new long[1], total = new long[1];
            cuMemGetInfo(free, total);
            double frac = options.get(BackendKeys.CUDA_MEMORY_FRACTION);
            plan = MemoryPlanner.plan(free[0], width, np, rows, cols, variant.k(), half ? 2 : 4, job.maxSlicesPerBatch(),
                    options.get(BackendKeys.CUDA_CHUNK_SLICES), frac, filterN, variant.usesEntries() ? variant.entryBytes() : 0,
                    maxGroupsPerLaunch());
            if (variant.scaledPacking() && (long) np * plan.pitch() + plan.pitch() > Integer.MAX_VALUE)
                // these kernels index a group's compound sinogram with 32-bit bin offsets (projection * pitch + column)
                throw new IllegalArgumentException("cuda variant " + variant.id() + " takes at most 2^31 bins per sinogram, got "
                        + np + " projections x " + plan.pitch() + " (detector width " + width + "): use backend.variant alu");
            boolean correct = filterOnDevice && options.get(BackendKeys.CUDA_CORRECT_ON_DEVICE)
                    && DeviceCorrection.fits((long) plan.chunkSlices() * np * width * 4, plan.chunkSlices(), np, width);
            if (correct) {
                // the raw counts' buffers come out of the same budget: plan again without them if they do not fit
                long extra = DeviceCorrection.deviceBytes(plan.chunkSlices(), np, width);
                if (plan.deviceBytes() + extra > (long) ((free[0] - MemoryPlanner.RESERVE_BYTES) * frac))
                    plan = MemoryPlanner.plan(free[0] - extra, width, np, rows, cols, variant.k(), half ? 2 : 4, job.maxSlicesPerBatch(),
                            options.get(BackendKeys.CUDA_CHUNK_SLICES), frac, filterN, variant.usesEntries() ? variant.entryBytes() : 0,
                            maxGroupsPerLaunch());
            }
            allocate(scan, g, half);
            if (correct) correction = new DeviceCorrection(function(correctModule, "correct_u16"), plan.chunkSlices(), np, width);
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
     * Slices per pass this backend runs: backend.slicesPerPass, with 0 (auto) = the fastest measured mode (8 for half
     * storage, 4 for float32) and 16 = 8 (the ALU kernels serve at most 8 slices per pass).
     */
    private int slicesPerPass() {
        return slicesPerPass(options);
    }

    static int slicesPerPass(BackendOptions o) {
        int k = o.slicesPerPass();
        if (k == 0) return o.format() == SampleFormat.HALF ? 8 : 4;
        return Math.min(k, 8);
    }

    private KernelVariant chooseVariant() {
        int k = slicesPerPass();
        SampleFormat f = options.format();
        Interpolation in = options.interpolation();
        String v = options.variant();
        if (!v.equals("auto")) {
            variantSource = "requested";
            return KernelVariant.parse(v, k, f, in);
        }
        String mode = KernelVariant.modeKey(k, f, in);
        String cachePath = options.get(BackendKeys.CUDA_TUNING_CACHE);
        Path cacheFile = cachePath.isBlank() ? TuningTable.defaultCacheFile() : Path.of(cachePath);
        // a kernel update (new or faster variants) invalidates earlier choices: the key carries the kernels' hash
        String tuneKey = dev.name + " kernels " + kernelsVersion();
        String chosen;
        // one tuning per device, mode and cache in this JVM: tasks that start together wait for the first one's choice
        // instead of each timing the variants (and settling on different ones)
        synchronized (TUNING_LOCKS.computeIfAbsent(tuneKey + "|" + mode + "|" + cacheFile.toAbsolutePath(), x -> new Object())) {
            TuningTable cache;
            try {
                cache = TuningTable.load(cacheFile);
            } catch (IOException | IllegalArgumentException e) {
                LOG.warn("cuda: ignoring unreadable tuning cache {}: {}", cacheFile, e.getMessage());
                cache = new TuningTable();
            }
            chosen = cache.forDevice(tuneKey, mode);
            if (chosen != null) {
                variantSource = "tuned, cached in " + cacheFile;
            } else if (!nested && options.get(BackendKeys.CUDA_AUTOTUNE)) {
                chosen = sweep(k, f, in);
                variantSource = "tuned now";
                cache.putForDevice(tuneKey, mode, chosen);
                try {
                    cache.store(cacheFile, "tomospark CUDA auto-tuning cache (per device); delete to re-tune");
                } catch (IOException e) {
                    LOG.warn("cuda: cannot write the tuning cache {}: {}", cacheFile, e.getMessage());
                }
            } else {
                chosen = TuningTable.fallback().generic(mode);
                variantSource = "fallback table";
                if (chosen == null) {
                    chosen = "alu";
                    variantSource = "built-in default";
                }
            }
        }
        KernelVariant kv = KernelVariant.parse(chosen, k, f, in);
        if (np > kv.maxProjections()) {
            variantSource += "; " + kv.id() + " cannot take " + np + " projections, using alu";
            kv = KernelVariant.parse("alu", k, f, in);
        }
        if (kv.dynamicSharedBytes() > dev.maxSharedOptin) {
            // a table or cache made on a larger GPU (e.g. an H200's 227 KiB per block against 99 KiB on sm_86/89): the
            // same family's variant with the most shared memory that fits, else alu
            KernelVariant fit = KernelVariant.fittingShared(kv, k, dev.maxSharedOptin);
            variantSource += "; " + kv.id() + " needs " + kv.dynamicSharedBytes() + " bytes of shared memory, " + dev.name
                    + " allows " + dev.maxSharedOptin + ", using " + fit.id();
            kv = fit;
        }
        KernelVariant forBatch = KernelVariant.forBatch(kv, k, job.maxSlicesPerBatch());
        if (forBatch != kv) {
            // e.g. Spark slice groups of 16 rows: a tensor-core block of 32 slices would run half empty
            variantSource += "; " + kv.id() + " takes 32 slices per block, batches hold at most " + job.maxSlicesPerBatch()
                    + ", using " + forBatch.id();
            kv = forBatch;
        }
        return kv;
    }

    /** Times every compiled variant of a mode on a synthetic 1024² problem and returns the fastest's id. */
    private String sweep(int k, SampleFormat f, Interpolation in) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(1024).anglesRange(180, 512).build();
        SliceGeometry sg = SliceGeometry.square(1024);
        // enough slices that a block taking several groups (tensor-core kernels: 32 slices) is timed full
        int slices = Math.max(8, k);
        for (KernelVariant cand : KernelVariant.all(k, f, in)) slices = Math.max(slices, cand.k() * cand.groupsPerBlock());
        float[][] s = new float[slices][512 * 1024];
        Random rnd = new Random(1);
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = rnd.nextFloat() - 0.5f;
        SliceBatch batch = new SliceBatch(0, s, 512, 1024, true);
        String best = null;
        double bestMs = Double.MAX_VALUE;
        StringBuilder log = new StringBuilder();
        // variants bound by the texture unit's 8-bit interpolation weights (relative L2 ~1.2e-3..2e-3 on white noise)
        // break both promises, 1e-5 for float32 and 1e-3 for half: left out unless cuda.allowTextureWeights=true
        boolean allowWeights = options.get(BackendKeys.CUDA_ALLOW_TEXTURE_WEIGHTS);
        for (KernelVariant cand : KernelVariant.all(k, f, in)) {
            if (np > cand.maxProjections()) continue;
            if (cand.textureWeights() && !allowWeights) continue;
            CudaBackend b = new CudaBackend();
            b.nested = true;
            try {
                b.setup(options.withVariant(cand.id()).withExtra(BackendKeys.CUDA_CHUNK_SLICES.name(), Integer.toString(slices)));
                b.validate(new BackprojectionJob(scan, sg, slices));
                // the device work a variant costs per chunk: interleave, its entries array if it keeps one, back-projection
                double ms = b.timeChunks(batch, 1, 3, true).medianMs();
                log.append(String.format(" %s=%.2fms", cand.id(), ms));
                if (ms < bestMs) {
                    bestMs = ms;
                    best = cand.id();
                }
            } catch (RuntimeException e) {
                // a candidate that cannot run here is skipped, but said loudly; a sticky error ends the sweep
                LOG.warn("cuda auto-tune on {}: variant {} failed: {}", dev.name, cand.id(), e.getMessage());
                log.append(" ").append(cand.id()).append("=failed(").append(e.getMessage()).append(")");
                if (!dev.usable()) throw e;
            } finally {
                b.close();
                if (dev.usable()) dev.makeCurrent();
            }
        }
        LOG.info("cuda auto-tune on {} for {}:{} -> {}", dev.name, KernelVariant.modeKey(k, f, in), log, best);
        if (best == null) throw new IllegalStateException("cuda auto-tune: no variant ran for mode " + KernelVariant.modeKey(k, f, in) + ":" + log);
        return best;
    }

    private void allocate(ScanGeometry scan, SliceGeometry g, boolean half) {
        int c = plan.chunkSlices();
        long inBytes = (long) c * np * width * 4;
        int padded = (c + variant.k() - 1) / variant.k() * variant.k();
        long outBytes = (long) padded * rows * cols * 4;
        for (int i = 0; i < 2; i++) {
            dIn[i] = malloc(inBytes);
            dOut[i] = malloc(outBytes);
            hIn[i] = new Pointer();
            cuMemAllocHost(hIn[i], inBytes);
            bIn[i] = hIn[i].getByteBuffer(0, inBytes).order(ByteOrder.nativeOrder());
            fIn[i] = bIn[i].asFloatBuffer();
            long ob = (long) c * rows * cols * 4;
            hOut[i] = new Pointer();
            cuMemAllocHost(hOut[i], ob);
            fOut[i] = hOut[i].getByteBuffer(0, ob).order(ByteOrder.nativeOrder()).asFloatBuffer();
        }
        int binBytes = variant.k() * (half ? 2 : 4);
        // variants that batch a chunk's groups into one launch keep one compound sinogram (and entries array) per group
        groupsPerLaunch = Math.min((plan.chunkSlices() + variant.k() - 1) / variant.k(), maxGroupsPerLaunch());
        packedGroupBytes = (long) np * plan.pitch() * binBytes;
        dPacked = malloc(packedGroupBytes * groupsPerLaunch);
        if (variant.scaledPacking()) dGmax = malloc(4L * groupsPerLaunch);
        // projection tables: double (cos, sin, off) for the ALU kernels and the exact nearest fix-up;
        // float4 (cos, sin, off, 0) in constant memory for the texture kernels
        ProjectionTables t = new ProjectionTables(scan, g);
        double[] pdv = new double[np * 3];
        float[] pf = new float[np * 4];
        for (int p = 0; p < np; p++) {
            pdv[3 * p] = t.cos(p);
            pdv[3 * p + 1] = t.sin(p);
            pdv[3 * p + 2] = t.offset(p);
            pf[4 * p] = (float) t.cos(p);
            pf[4 * p + 1] = (float) t.sin(p);
            pf[4 * p + 2] = (float) t.offset(p);
        }
        dProj = malloc((long) np * 24);
        cuMemcpyHtoD(dProj, Pointer.to(pdv), (long) np * 24);
        if (np <= 4096) {
            CUdeviceptr cp = new CUdeviceptr();
            long[] sz = new long[1];
            cuModuleGetGlobal(cp, sz, bpModule, "c_proj");
            cuMemcpyHtoD(cp, Pointer.to(pf), (long) np * 16);
        }
        if (variant.usesEntries()) {
            // entries array (bp_entries_*): entry e of a row holds columns (e-1, e), e in [0, width], as the cache
            // would (value and difference of K slices, 8 to 32 bytes)
            int eb = variant.entryBytes();
            entriesPitch = MemoryPlanner.pitch(width + 1, eb);
            entriesGroupBytes = (long) np * entriesPitch * eb;
            dEntries = malloc(entriesGroupBytes * groupsPerLaunch);
        }
        if (variant.usesEntries() && variant.hybrid()) {
            // hybrid :xe: the texture share point-fetches entries as raw 32-bit words; a 32-byte entry is two uint4
            // texels
            int eb = variant.entryBytes();
            int texels = eb > 16 ? eb / 16 : 1;
            CUDA_RESOURCE_DESC rd = new CUDA_RESOURCE_DESC();
            rd.resType = CUresourcetype.CU_RESOURCE_TYPE_PITCH2D;
            rd.pitch2D_devPtr = dEntries;
            rd.pitch2D_format = CUarray_format.CU_AD_FORMAT_UNSIGNED_INT32;
            rd.pitch2D_numChannels = eb / 4 / texels;
            rd.pitch2D_width = (long) (width + 1) * texels;
            rd.pitch2D_height = np;
            rd.pitch2D_pitchInBytes = (long) entriesPitch * eb;
            CUDA_TEXTURE_DESC td = new CUDA_TEXTURE_DESC();
            td.addressMode = new int[]{ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER};
            td.filterMode = CUfilter_mode.CU_TR_FILTER_MODE_POINT;
            td.flags = CU_TRSF_READ_AS_INTEGER; // unnormalised coordinates, raw words
            td.borderColor = new float[]{0f, 0f, 0f, 0f};
            tex = new CUtexObject();
            cuTexObjectCreate(tex, rd, td, null);
        } else if (variant.usesTexture()) {
            CUDA_RESOURCE_DESC rd = new CUDA_RESOURCE_DESC();
            rd.resType = CUresourcetype.CU_RESOURCE_TYPE_PITCH2D;
            rd.pitch2D_devPtr = dPacked;
            rd.pitch2D_format = half ? CUarray_format.CU_AD_FORMAT_HALF : CUarray_format.CU_AD_FORMAT_FLOAT;
            rd.pitch2D_numChannels = variant.k();
            rd.pitch2D_width = width;
            rd.pitch2D_height = np;
            rd.pitch2D_pitchInBytes = (long) plan.pitch() * binBytes;
            CUDA_TEXTURE_DESC td = new CUDA_TEXTURE_DESC();
            td.addressMode = new int[]{ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER};
            td.filterMode = options.interpolation() == Interpolation.LINEAR ? CUfilter_mode.CU_TR_FILTER_MODE_LINEAR
                    : CUfilter_mode.CU_TR_FILTER_MODE_POINT;
            td.flags = 0; // unnormalised coordinates, values returned as float
            td.borderColor = new float[]{0f, 0f, 0f, 0f};
            tex = new CUtexObject();
            cuTexObjectCreate(tex, rd, td, null);
        }
        if (filterOnDevice) {
            int n = filterN;
            float[] tw = new float[2 * n];
            for (int m = 0; m < n; m++) {
                double a = 2 * Math.PI * m / n;
                tw[2 * m] = (float) Math.cos(a);
                tw[2 * m + 1] = (float) -Math.sin(a);
            }
            dTw = malloc((long) n * 8);
            cuMemcpyHtoD(dTw, Pointer.to(tw), (long) n * 8);
            float[] resp = new RampFilter(width, np, job.deviceFilter()).response();
            dResp = malloc((long) resp.length * 4);
            cuMemcpyHtoD(dResp, Pointer.to(resp), (long) resp.length * 4);
            fnFilter = function(filterModule, "ramp_filter_rows");
            cuFuncSetAttribute(fnFilter, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, n * 16);
        }
    }

    private static CUdeviceptr malloc(long bytes) {
        CUdeviceptr p = new CUdeviceptr();
        cuMemAlloc(p, Math.max(bytes, 4));
        return p;
    }

    // ---------------------------------------------------------------------------------------------- process

    @Override
    public void process(SliceBatch batch, float[][] out) {
        if (job == null) throw new IllegalStateException("cuda backend: process() called before validate()");
        checkBatch(batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out);
        if (!batch.filtered() && !filterOnDevice)
            throw new IllegalArgumentException("cuda backend got an unfiltered batch but the validated job has no device filter "
                    + "(BackprojectionJob.deviceFilter() was null or the width is too large for the device FFT)");
        long t0 = System.nanoTime();
        guarded("back-projecting batch at row " + batch.firstRow(), () -> {
            dev.makeCurrent();
            runPipeline(batch.count(), !batch.filtered(), (b, first, n) -> {
                final FloatBuffer fb = fIn[b];
                long sliceIn = (long) np * width;
                parallel(hostPool(), n, s -> fb.put((int) (s * sliceIn), batch.sinograms()[first + s]));
            }, (b, n) -> cuMemcpyHtoDAsync(dIn[b], hIn[b], (long) n * np * width * 4, sIn), out);
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
        if (job == null) throw new IllegalStateException("cuda backend: processRaw() called before validate()");
        if (correction == null)
            throw new UnsupportedOperationException("cuda backend: this job does not correct on the device (no device filter, "
                    + "or cuda.correctOnDevice=false)");
        checkBatch(batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out);
        long t0 = System.nanoTime();
        long clamped = guarded("correcting and back-projecting batch at row " + batch.firstRow(), () -> {
            dev.makeCurrent();
            correction.resetCount(sCompute);
            runPipeline(batch.count(), true, (b, first, n) -> {
                        parallel(hostPool(), n, s -> correction.stageCounts(batch, first + s, s, bIn[b]));
                        correction.stageFields(batch, first, n, bIn[b]);
                    },
                    (b, n) -> correction.upload(b, hIn[b], n, sIn), out, batch.transmissionFloor());
            return correction.count();
        });
        stats = stats.plus((long) rows * cols * np * batch.count(), System.nanoTime() - t0);
        return clamped;
    }

    private void checkBatch(int firstRow, int numProjections, int batchWidth, int count, float[][] out) {
        if (batchWidth != width || numProjections != np)
            throw new IllegalArgumentException("batch at row " + firstRow + " is " + numProjections + "x"
                    + batchWidth + " but the validated geometry is " + np + "x" + width);
        if (count > job.maxSlicesPerBatch())
            throw new IllegalArgumentException("batch of " + count + " slices exceeds the validated maximum " + job.maxSlicesPerBatch());
        int pixels = rows * cols;
        for (int s = 0; s < count; s++)
            if (out[s] == null || out[s].length != pixels)
                throw new IllegalArgumentException("output " + s + " must hold " + pixels + " values (" + rows + "x" + cols + " ROI)");
    }

    /** Host side of a chunk: fills pinned input buffer b with slices [first, first + n). */
    private interface Stager {
        void stage(int b, int first, int n);
    }

    /** Copy-in stream side of a chunk: uploads pinned buffer b's n slices. */
    private interface Uploader {
        void upload(int b, int n);
    }

    private void runPipeline(int count, boolean filter, Stager stager, Uploader uploader, float[][] out) {
        runPipeline(count, filter, stager, uploader, out, Float.NaN);
    }

    /**
     * The double-buffered chunk pipeline: while chunk i is staged and uploaded, chunk i−1 is computed (corrected when
     * {@code transmissionFloor} is a number, filtered when {@code filter}, interleaved, back-projected) and chunk i−2
     * downloaded.
     */
    private void runPipeline(int count, boolean filter, Stager stager, Uploader uploader, float[][] out, float transmissionFloor) {
        int c = plan.chunkSlices();
        int chunks = (count + c - 1) / c;
        long sliceOut = (long) rows * cols;
        ExecutorService pool = hostPool();
        for (int i = 0; i < chunks; i++) {
            int b = i & 1;
            if (i >= 2) deliver(pool, b, (i - 2) * c, Math.min(c, count - (i - 2) * c), out);
            int first = i * c, n = Math.min(c, count - first);
            stager.stage(b, first, n);
            if (i >= 2) cuStreamWaitEvent(sIn, evCompute[b], 0);
            uploader.upload(b, n);
            cuEventRecord(evH2D[b], sIn);
            cuStreamWaitEvent(sCompute, evH2D[b], 0);
            if (!Float.isNaN(transmissionFloor)) correction.launch(b, dIn[b], n, transmissionFloor, sCompute);
            if (filter) launchFilter(dIn[b], (long) n * np, sCompute);
            launchChunk(dIn[b], n, dOut[b], sCompute);
            cuEventRecord(evCompute[b], sCompute);
            cuStreamWaitEvent(sOut, evCompute[b], 0);
            cuMemcpyDtoHAsync(hOut[b], dOut[b], n * sliceOut * 4, sOut);
            cuEventRecord(evD2H[b], sOut);
        }
        for (int i = Math.max(0, chunks - 2); i < chunks; i++)
            deliver(pool, i & 1, i * c, Math.min(c, count - i * c), out);
    }

    private void deliver(ExecutorService pool, int b, int first, int n, float[][] out) {
        cuEventSynchronize(evD2H[b]);
        long sliceOut = (long) rows * cols;
        final FloatBuffer fb = fOut[b];
        parallel(pool, n, s -> fb.get((int) (s * sliceOut), out[first + s]));
    }

    private interface SliceTask {
        void run(int s);
    }

    private static void parallel(ExecutorService pool, int n, SliceTask task) {
        if (n == 1) {
            task.run(0);
            return;
        }
        List<Future<?>> fs = new ArrayList<>(n);
        for (int s = 0; s < n; s++) {
            final int ss = s;
            fs.add(pool.submit(() -> task.run(ss)));
        }
        for (Future<?> f : fs) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while copying host buffers", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("host buffer copy failed: " + e.getCause(), e.getCause());
            }
        }
    }

    /** cuda.hostThreads, or min(8, cores) for 0. */
    private static int hostThreads(BackendOptions o) {
        int n = o.get(BackendKeys.CUDA_HOST_THREADS);
        return n > 0 ? n : Math.min(8, Runtime.getRuntime().availableProcessors());
    }

    private ExecutorService hostPool() {
        ExecutorService p = hostPool;
        if (p == null) {
            synchronized (CudaBackend.class) {
                p = hostPool;
                if (p == null) {
                    int n = hostThreads(options);
                    p = Executors.newFixedThreadPool(Math.max(1, n), r -> {
                        Thread t = new Thread(r, "tomospark-cuda-host-copy");
                        t.setDaemon(true);
                        return t;
                    });
                    hostPool = p;
                }
            }
        }
        return p;
    }

    private void launchFilter(CUdeviceptr data, long nrows, CUstream s) {
        Pointer args = KernelArgs.of(KernelArgs.Signature.FILTER)
                .ptr("data", data).i64("nrows", nrows).i32("width", width).i32("n", filterN)
                .ptr("tw", dTw).ptr("resp", dResp).i32("edge", filterEdge ? 1 : 0).build();
        long blocks = (nrows + 1) / 2;
        cuLaunchKernel(fnFilter, (int) blocks, 1, 1, 256, 1, 1, filterN * 16, s, args, null);
    }

    /**
     * Interleaves and back-projects the n slices of a chunk into output planes 0..n of dOutBuf: group by group, or,
     * for variants that {@link KernelVariant#batchesGroups() batch groups}, all groups prepared first and then
     * back-projected by one launch whose grid z runs over the groups (no tail wave per group).
     */
    private void launchChunk(CUdeviceptr raw, int n, CUdeviceptr dOutBuf, CUstream s) {
        launchChunk(raw, n, dOutBuf, s, Runnable::run);
    }

    /** As above; {@code around} runs each back-projection launch (the timing wraps it in events). */
    private void launchChunk(CUdeviceptr raw, int n, CUdeviceptr dOutBuf, CUstream s, java.util.function.Consumer<Runnable> around) {
        int k = variant.k();
        int groups = (n + k - 1) / k;
        for (int first = 0; first < groups; first += groupsPerLaunch) {
            int count = Math.min(groupsPerLaunch, groups - first);
            // the scaled packing's per-group maxima are found by atomicMax from zero
            if (variant.scaledPacking()) cuMemsetD32Async(dGmax, 0, count, s);
            for (int z = 0; z < count; z++) {
                int g0 = (first + z) * k;
                prepareGroup(raw, g0, Math.min(k, n - g0), z, s);
            }
            CUdeviceptr outPlanes = dOutBuf.withByteOffset((long) first * k * rows * cols * 4);
            around.accept(() -> launchBackprojection(outPlanes, count, s));
        }
    }

    /**
     * Groups one launch may take (each with its own compound sinogram): 1 for texture-bound variants; else enough for
     * about 32768 blocks (dozens of waves on a large GPU, so the last partial wave costs little), and never more than
     * the grid's z limit of 65535.
     */
    private int maxGroupsPerLaunch() {
        if (!variant.batchesGroups()) return 1;
        long blocks = (long) ((cols + variant.blockCols() - 1) / variant.blockCols()) * ((rows + variant.blockRows() - 1) / variant.blockRows());
        long perBlock = variant.groupsPerBlock();
        return (int) Math.max(1, Math.min(65535L * perBlock, TARGET_BLOCKS_PER_LAUNCH * perBlock / Math.max(1, blocks)));
    }

    /** Blocks per launch worth batching groups for (see {@link #maxGroupsPerLaunch()}). */
    static final long TARGET_BLOCKS_PER_LAUNCH = 32768;

    /** Interleaves slices [g0, g0+n) of the chunk into compound sinogram buffer z (and its entries array). */
    private void prepareGroup(CUdeviceptr raw, int g0, int n, int z, CUstream s) {
        CUdeviceptr packed = dPacked.withByteOffset(z * packedGroupBytes);
        CUdeviceptr groupRaw = raw.withByteOffset((long) g0 * np * width * 4);
        KernelArgs pa = KernelArgs.of(variant.scaledPacking() ? KernelArgs.Signature.PACK_WIN : KernelArgs.Signature.PACK)
                .ptr("raw", groupRaw).i32("width", width).i32("np", np).i64("sliceStride", (long) np * width)
                .i32("nValid", n).ptr("dst", packed).i32("pitch", plan.pitch());
        if (variant.scaledPacking()) {
            // the window and tensor-core kernels' half arithmetic needs data scaled to a known magnitude: find the group's largest
            // magnitude, then pack scaled by a power of two from it (the kernel scales its result back)
            CUdeviceptr gmax = dGmax.withByteOffset(4L * z);
            Pointer ma = KernelArgs.of(KernelArgs.Signature.ABSMAX)
                    .ptr("raw", groupRaw).i32("width", width).i32("np", np).i64("sliceStride", (long) np * width)
                    .i32("nValid", n).ptr("gmax", gmax).build();
            cuLaunchKernel(fnAbsMax, (width + 255) / 256, np, 1, 256, 1, 1, 0, s, ma, null);
            pa.ptr("gmax", gmax);
        }
        cuLaunchKernel(fnPack, (plan.pitch() + 255) / 256, np, 1, 256, 1, 1, 0, s, pa.build(), null);
        if (fnEntries != null) {
            Pointer ea = KernelArgs.of(KernelArgs.Signature.ENTRIES)
                    .ptr("sino", packed).i32("pitch", plan.pitch()).i32("width", width).i32("np", np)
                    .ptr("dst", dEntries.withByteOffset(z * entriesGroupBytes)).i32("epitch", entriesPitch).build();
            cuLaunchKernel(fnEntries, (entriesPitch + 255) / 256, np, 1, 256, 1, 1, 0, s, ea, null);
        }
    }

    /** Back-projects compound sinogram buffers 0..groups into output planes 0..groups*K of outPlanes. */
    private void launchBackprojection(CUdeviceptr outPlanes, int groups, CUstream s) {
        KernelVariant v = variant;
        if (groups > 1 && !v.batchesGroups()) throw new IllegalStateException("variant " + v.id() + " does not batch groups");
        int gx = (cols + v.blockCols() - 1) / v.blockCols(), gy = (rows + v.blockRows() - 1) / v.blockRows();
        int gz = (groups + v.groupsPerBlock() - 1) / v.groupsPerBlock();
        Pointer args;
        if (v.family() == KernelVariant.Family.TC) {
            // 32 slices per block (four groups of 8 or eight of 4): the last block of grid z may hold fewer groups
            // (ngroups tells the kernel which exist)
            args = KernelArgs.of(KernelArgs.Signature.TENSOR)
                    .ptr("sino", dPacked).i32("pitch", plan.pitch()).i32("width", width).i32("np", np).ptr("pd", dProj)
                    .ptr("gmax", dGmax).ptr("out", outPlanes).i32("rows", rows).i32("cols", cols)
                    .i64("plane", (long) rows * cols).i32("ngroups", groups).build();
        } else if (v.window()) {
            args = KernelArgs.of(KernelArgs.Signature.WINDOW)
                    .ptr("sino", dPacked).i32("pitch", plan.pitch()).i32("width", width).i32("np", np).ptr("pd", dProj)
                    .ptr("gmax", dGmax).ptr("out", outPlanes).i32("rows", rows).i32("cols", cols)
                    .i64("plane", (long) rows * cols).build();
        } else if (v.family() == KernelVariant.Family.ALU) {
            // :async variants read the entries array (the same entries their cache holds) instead of the bins; with
            // grid z > 1 the kernel steps through the buffers by np * pitch and through the output by K planes
            KernelArgs a = KernelArgs.of(KernelArgs.Signature.ALU)
                    .ptr("sino", v.asyncFill() ? dEntries : dPacked).i32("pitch", v.asyncFill() ? entriesPitch : plan.pitch())
                    .i32("width", width).i32("np", np).ptr("pd", dProj);
            if (tex != null) a.ptr("tex", tex);
            else a.i64("tex", 0L);
            args = a.ptr("out", outPlanes).i32("rows", rows).i32("cols", cols).i64("plane", (long) rows * cols).build();
        } else {
            args = KernelArgs.of(KernelArgs.Signature.TEXTURE)
                    .ptr("tex", tex).ptr("pd", dProj).ptr("out", outPlanes).i32("rows", rows).i32("cols", cols)
                    .i64("plane", (long) rows * cols).i32("np", np).build();
        }
        cuLaunchKernel(fnBp, gx, gy, gz, v.threads(), 1, 1, v.dynamicSharedBytes(), s, args, null);
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
    private Timing timeChunks(SliceBatch batch, int warmup, int reps, boolean withPrep) {
        if (job == null) throw new IllegalStateException("cuda backend: timeKernels() called before validate()");
        return guarded("timing kernels", () -> {
            dev.makeCurrent();
            int n = Math.min(batch.count(), plan.chunkSlices());
            long sliceIn = (long) np * width;
            for (int s = 0; s < n; s++) fIn[0].put((int) (s * sliceIn), batch.sinograms()[s]);
            cuMemcpyHtoDAsync(dIn[0], hIn[0], n * sliceIn * 4, sCompute);
            CUevent e0 = new CUevent(), e1 = new CUevent();
            cuEventCreate(e0, 0);
            cuEventCreate(e1, 0);
            double[] ms = new double[reps];
            try {
                for (int r = -warmup; r < reps; r++) {
                    double[] total = {0};
                    Runnable timed = () -> {
                        float[] t = new float[1];
                        cuEventSynchronize(e1);
                        cuEventElapsedTime(t, e0, e1);
                        total[0] += t[0];
                    };
                    if (withPrep) {
                        cuEventRecord(e0, sCompute);
                        launchChunk(dIn[0], n, dOut[0], sCompute);
                        cuEventRecord(e1, sCompute);
                        timed.run();
                    } else {
                        launchChunk(dIn[0], n, dOut[0], sCompute, launch -> {
                            cuEventRecord(e0, sCompute);
                            launch.run();
                            cuEventRecord(e1, sCompute);
                            timed.run();
                        });
                    }
                    if (r >= 0) ms[r] = total[0];
                }
            } finally {
                cuEventDestroy(e0);
                cuEventDestroy(e1);
            }
            return new Timing(ms, (long) n * rows * cols * np, variant.id() + " (" + variant.functionName() + ")");
        });
    }

    /** The kernel variant chosen by validate (for benchmarks and logs). */
    public String variantDescription() {
        return variant == null ? "none" : variant.id() + " (" + variant.functionName() + ", " + variantSource + ")";
    }

    // ---------------------------------------------------------------------------------------------- misc

    private <T> T guarded(String what, Supplier<T> body) {
        if (dev != null) dev.checkUsable();
        try {
            return body.get();
        } catch (jcuda.CudaException e) {
            String name = CudaException.nameFrom(e.getMessage());
            if (CudaException.isSticky(name) && dev != null) dev.markUnusable(name + " while " + what);
            throw new CudaException(what + (dev == null ? "" : " on " + dev.describe()), name, e);
        }
    }

    @Override
    public BackendStats stats() {
        return stats;
    }

    @Override
    public String deviceDescription() {
        if (dev == null) return "cuda: not set up";
        return dev.describe() + ", kernels from " + moduleSource + (variant == null ? "" : ", variant " + variantDescription());
    }

    private void freeJob() {
        if (dev == null || !dev.usable()) return;
        try {
            dev.makeCurrent();
            if (sCompute != null) {
                cuStreamSynchronize(sIn);
                cuStreamSynchronize(sCompute);
                cuStreamSynchronize(sOut);
            }
            if (tex != null) cuTexObjectDestroy(tex);
            for (int i = 0; i < 2; i++) {
                if (dIn[i] != null) cuMemFree(dIn[i]);
                if (dOut[i] != null) cuMemFree(dOut[i]);
                if (hIn[i] != null) cuMemFreeHost(hIn[i]);
                if (hOut[i] != null) cuMemFreeHost(hOut[i]);
                dIn[i] = dOut[i] = null;
                hIn[i] = hOut[i] = null;
                fIn[i] = fOut[i] = null;
                bIn[i] = null;
            }
            for (CUdeviceptr p : new CUdeviceptr[]{dPacked, dEntries, dProj, dTw, dResp, dGmax}) if (p != null) cuMemFree(p);
            if (correction != null) correction.free();
        } catch (jcuda.CudaException e) {
            String name = CudaException.nameFrom(e.getMessage());
            if (CudaException.isSticky(name)) dev.markUnusable(name + " while freeing buffers");
            LOG.warn("cuda: error while freeing buffers: {}", name);
        } finally {
            tex = null;
            dPacked = dEntries = dProj = dTw = dResp = dGmax = null;
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
                    for (CUstream s : new CUstream[]{sIn, sCompute, sOut}) if (s != null) cuStreamDestroy(s);
                    for (CUevent[] es : new CUevent[][]{evH2D, evCompute, evD2H})
                        for (CUevent e : es) if (e != null) cuEventDestroy(e);
                    if (bpModule != null) cuModuleUnload(bpModule);
                    if (filterModule != null) cuModuleUnload(filterModule);
                    if (correctModule != null) cuModuleUnload(correctModule);
                } catch (jcuda.CudaException e) {
                    LOG.warn("cuda: error while closing: {}", CudaException.nameFrom(e.getMessage()));
                }
            }
        } finally {
            sIn = sCompute = sOut = null;
            bpModule = filterModule = correctModule = null;
        }
    }
}
