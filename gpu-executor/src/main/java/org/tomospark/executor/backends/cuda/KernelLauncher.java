package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUstream;

import java.util.function.Consumer;

import static jcuda.driver.JCudaDriver.cuFuncSetAttribute;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemsetD32Async;

/**
 * Launches the kernels of one validated job on a stream: the device ramp filter, and per chunk the interleave (with
 * the scaled packing's magnitudes and the entries array where the variant needs them) and the back-projection, with
 * the arguments of each kernel's signature ({@link KernelCalls}) and the grid and shared memory of the variant's
 * manifest row. Driver calls only.
 */
final class KernelLauncher {
    /** Threads per block of the interleave, magnitude and entries kernels (one thread per bin of a projection row). */
    private static final int PREP_THREADS = 256;
    /** Threads per block of the ramp filter (kernels/filter.cu FILTER_THREADS). */
    private static final int FILTER_THREADS = 256;

    private final KernelVariant variant;
    private final DeviceBuffers buffers;
    private final CUfunction backprojection, pack, absMax, entries;
    /** The device ramp filter, or null when filtering on the host. */
    private final Filter filter;

    /** The device ramp filter: FFT length n (a block's shared memory holds n complex values), edge or zero padding. */
    record Filter(CUfunction function, int n, boolean edge) {
    }

    /** Dynamic shared memory a block gets without asking for more per function. */
    private static final int DEFAULT_DYNAMIC_SHARED = 48 * 1024;

    /** Fails, naming the variant and the device, if the variant's shared memory does not fit the device's blocks. */
    static void requireSharedFits(KernelVariant variant, int maxSharedOptin, String deviceName) {
        int smem = variant.dynamicSharedBytes();
        if (smem > DEFAULT_DYNAMIC_SHARED && smem > maxSharedOptin)
            throw new IllegalArgumentException("cuda variant " + variant.id() + " needs " + smem + " bytes of shared memory per block; "
                    + deviceName + " allows " + maxSharedOptin + ": choose another backend.variant");
    }

    /**
     * Looks the variant's kernels up and gives the back-projection kernel the dynamic shared memory its layout needs
     * (checked with {@link #requireSharedFits} before the buffers were allocated).
     */
    KernelLauncher(CudaModules modules, KernelVariant variant, DeviceBuffers buffers, Filter filter) {
        this.variant = variant;
        this.buffers = buffers;
        this.filter = filter;
        this.backprojection = modules.backprojection(variant.functionName());
        int smem = variant.dynamicSharedBytes();
        if (smem > DEFAULT_DYNAMIC_SHARED)
            cuFuncSetAttribute(backprojection, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
        // the window and tensor-core kernels read their compound sinogram packed scaled (absmax, then the packing)
        this.pack = modules.backprojection(variant.packFunctionName());
        this.absMax = variant.scaledPacking() ? modules.backprojection(variant.absMaxFunctionName()) : null;
        this.entries = variant.usesEntries() ? modules.backprojection(variant.entriesFunctionName()) : null;
        if (filter != null)
            cuFuncSetAttribute(filter.function(), CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, filter.n() * 16);
    }

    /** Blocks per launch worth batching groups for (see {@link #maxGroupsPerLaunch}). */
    static final long TARGET_BLOCKS_PER_LAUNCH = 32768;

    /**
     * Groups one launch may take (each with its own compound sinogram) for a rows x cols ROI: 1 for texture-bound
     * variants; else enough for about 32768 blocks (dozens of waves on a large GPU, so the last partial wave costs
     * little), and never more than the grid's z limit of 65535.
     */
    static int maxGroupsPerLaunch(KernelVariant variant, int rows, int cols) {
        if (!variant.batchesGroups()) return 1;
        long blocks = (long) ((cols + variant.blockCols() - 1) / variant.blockCols())
                * ((rows + variant.blockRows() - 1) / variant.blockRows());
        long perBlock = variant.groupsPerBlock();
        return (int) Math.max(1, Math.min(65535L * perBlock, TARGET_BLOCKS_PER_LAUNCH * perBlock / Math.max(1, blocks)));
    }

    /** Ramp-filters {@code nrows} sinogram rows of {@code data} in place, two rows per block. */
    void filter(CUdeviceptr data, long nrows, CUstream s) {
        DeviceBuffers.Shape sh = buffers.shape;
        Pointer args = KernelCalls.filter()
                .data(data).nrows(nrows).width(sh.width()).n(filter.n())
                .tw(buffers.twiddles).resp(buffers.response).edge(filter.edge() ? 1 : 0).build();
        long blocks = (nrows + 1) / 2;
        cuLaunchKernel(filter.function(), (int) blocks, 1, 1, FILTER_THREADS, 1, 1, filter.n() * 16, s, args, null);
    }

    /**
     * Interleaves and back-projects the n slices of a chunk into output planes 0..n of {@code out}: group by group, or,
     * for variants that {@link KernelVariant#batchesGroups() batch groups}, all groups prepared first and then
     * back-projected by one launch whose grid z runs over the groups (no tail wave per group). {@code around} runs
     * each back-projection launch (timing wraps it in events).
     */
    void chunk(CUdeviceptr raw, int n, CUdeviceptr out, CUstream s, Consumer<Runnable> around) {
        DeviceBuffers.Shape sh = buffers.shape;
        int k = variant.k();
        int groups = (n + k - 1) / k;
        for (int first = 0; first < groups; first += buffers.groupsPerLaunch) {
            int count = Math.min(buffers.groupsPerLaunch, groups - first);
            // the scaled packing's per-group maxima are found by atomicMax from zero
            if (variant.scaledPacking()) cuMemsetD32Async(buffers.gmax, 0, count, s);
            for (int z = 0; z < count; z++) {
                int g0 = (first + z) * k;
                prepareGroup(raw, g0, Math.min(k, n - g0), z, s);
            }
            CUdeviceptr planes = out.withByteOffset((long) first * k * sh.rows() * sh.cols() * 4);
            around.accept(() -> backproject(planes, count, s));
        }
    }

    /** Interleaves slices [g0, g0+n) of the chunk into compound sinogram buffer z (and its entries array). */
    private void prepareGroup(CUdeviceptr raw, int g0, int n, int z, CUstream s) {
        DeviceBuffers.Shape sh = buffers.shape;
        int width = sh.width(), np = sh.np(), pitch = sh.plan().pitch();
        CUdeviceptr packed = buffers.packed.withByteOffset(z * buffers.packedGroupBytes);
        CUdeviceptr groupRaw = raw.withByteOffset((long) g0 * np * width * 4);
        Pointer packArgs;
        if (variant.scaledPacking()) {
            // the window and tensor-core kernels' half arithmetic needs data scaled to a known magnitude: find the group's
            // largest magnitude, then pack scaled by a power of two from it (the kernel scales its result back)
            CUdeviceptr gmax = buffers.gmax.withByteOffset(4L * z);
            Pointer ma = KernelCalls.absmax()
                    .raw(groupRaw).width(width).np(np).sliceStride((long) np * width)
                    .nValid(n).gmax(gmax).build();
            cuLaunchKernel(absMax, (width + PREP_THREADS - 1) / PREP_THREADS, np, 1, PREP_THREADS, 1, 1, 0, s, ma, null);
            packArgs = KernelCalls.packWin().raw(groupRaw).width(width).np(np).sliceStride((long) np * width)
                    .nValid(n).dst(packed).pitch(pitch).gmax(gmax).build();
        } else {
            packArgs = KernelCalls.pack().raw(groupRaw).width(width).np(np).sliceStride((long) np * width)
                    .nValid(n).dst(packed).pitch(pitch).build();
        }
        cuLaunchKernel(pack, (pitch + PREP_THREADS - 1) / PREP_THREADS, np, 1, PREP_THREADS, 1, 1, 0, s, packArgs, null);
        if (entries != null) {
            int ep = buffers.entriesPitch;
            Pointer ea = KernelCalls.entries()
                    .sino(packed).pitch(pitch).width(width).np(np)
                    .dst(buffers.entries.withByteOffset(z * buffers.entriesGroupBytes)).epitch(ep).build();
            cuLaunchKernel(entries, (ep + PREP_THREADS - 1) / PREP_THREADS, np, 1, PREP_THREADS, 1, 1, 0, s, ea, null);
        }
    }

    /** Back-projects compound sinogram buffers 0..groups into output planes 0..groups*K of {@code planes}. */
    private void backproject(CUdeviceptr planes, int groups, CUstream s) {
        KernelVariant v = variant;
        DeviceBuffers.Shape sh = buffers.shape;
        int rows = sh.rows(), cols = sh.cols(), pitch = sh.plan().pitch();
        if (groups > 1 && !v.batchesGroups()) throw new IllegalStateException("variant " + v.id() + " does not batch groups");
        int gx = (cols + v.blockCols() - 1) / v.blockCols(), gy = (rows + v.blockRows() - 1) / v.blockRows();
        int gz = (groups + v.groupsPerBlock() - 1) / v.groupsPerBlock();
        CUdeviceptr sino = v.asyncFill() ? buffers.entries : buffers.packed;
        int sinoPitch = v.asyncFill() ? buffers.entriesPitch : pitch;
        long plane = (long) rows * cols;
        Pointer args = switch (v.launch().args()) {
            case TEXTURE -> KernelCalls.texture().tex(buffers.texture).pd(buffers.projections).np(sh.np())
                    .out(planes).rows(rows).cols(cols).plane(plane).build();
            // :async variants read the entries array (the same entries their cache holds) instead of the bins; with grid
            // z > 1 the kernel steps through the buffers by np * pitch and through the output by K planes
            case ALU -> (buffers.texture != null
                    ? KernelCalls.alu().tex(buffers.texture)
                    : KernelCalls.alu().tex(0L))
                    .sino(sino).pitch(sinoPitch).width(sh.width()).np(sh.np()).pd(buffers.projections)
                    .out(planes).rows(rows).cols(cols).plane(plane).build();
            case WINDOW -> KernelCalls.window().sino(buffers.packed).pitch(pitch).width(sh.width()).np(sh.np())
                    .pd(buffers.projections).gmax(buffers.gmax).out(planes).rows(rows).cols(cols).plane(plane).build();
            // 32 slices per tensor-core block (four groups of 8 or eight of 4): the last block of grid z may hold fewer
            // groups (ngroups tells the kernel which exist)
            case TENSOR -> KernelCalls.tensor().sino(buffers.packed).pitch(pitch).width(sh.width()).np(sh.np())
                    .pd(buffers.projections).gmax(buffers.gmax).ngroups(groups).out(planes).rows(rows).cols(cols).plane(plane)
                    .build();
            default -> throw new IllegalStateException("kernel " + v.functionName() + ": " + v.launch().args()
                    + " is not a back-projection signature");
        };
        cuLaunchKernel(backprojection, gx, gy, gz, v.threads(), 1, 1, v.dynamicSharedBytes(), s, args, null);
    }
}
