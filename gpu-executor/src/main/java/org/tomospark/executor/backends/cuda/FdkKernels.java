package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.geometry.ConeGeometry;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static jcuda.driver.JCudaDriver.cuFuncSetAttribute;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD32;
import static jcuda.driver.JCudaDriver.cuModuleGetGlobal;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The FDK kernels (kernels/fdk.cu) on one device: the module, its constant memory of projection matrices, the
 * footprint kernel that sizes the column kernels' shared-memory tiles, and the launches. Driver calls only (the
 * caller wraps them in its {@link DeviceCalls}); one caller at a time.
 */
final class FdkKernels implements AutoCloseable {
    /** Launch of fdk_footprint: a grid-stride loop over (block, projection) pairs. */
    private static final int FOOTPRINT_GRID = 1024, FOOTPRINT_THREADS = 256;
    /** The batched ramp filter of kernels/filter.cu, two rows a block. */
    private static final String FILTER = KernelCalls.Filter.KERNEL;
    private static final int FILTER_THREADS = 256, WEIGHT_THREADS = 256;
    /** Dynamic shared memory a block gets without opting in. */
    private static final int DEFAULT_SHARED = 48 * 1024;

    /**
     * The largest footprint of any block in pixels, whether every block has one (else use a kernel without tiles), and
     * the widest and tallest footprint (pixels, rows).
     */
    record Footprint(int pixels, boolean complete, int width, int height) {
        /** A footprint whose width and height are not known (the kernels that size tiles by pixels alone). */
        Footprint(int pixels, boolean complete) {
            this(pixels, complete, 0, 0);
        }
    }

    private final KernelBuild build = KernelBuild.packaged();
    private final CUmodule module;
    private CUmodule filterModule;
    private final Map<String, CUfunction> functions = new HashMap<>();
    private final Map<String, Integer> sharedAllowed = new HashMap<>();
    /** The split kernel with tensor copies, where the module has it (sm_90 code: a fatbin on such a device); else null. */
    private CUfunction tensorSplit;
    private final CUdeviceptr constants = new CUdeviceptr(), footprintResult = new CUdeviceptr(), largest = new CUdeviceptr();
    private final Allocations allocated = new Allocations();
    private final long constantBytes;
    private boolean closed;

    /** Loads the module into the calling thread's current context. */
    FdkKernels() {
        this.module = CudaModules.load(build, "fdk");
        try {
            long[] bytes = new long[1];
            cuModuleGetGlobal(constants, bytes, module, "c_fdk");
            constantBytes = bytes[0];
            allocated.alloc(footprintResult, 4L * Sizeof.INT);
            allocated.alloc(largest, Sizeof.INT);
            for (FdkVariant v : FdkVariant.PRODUCT) functions.put(v.name(), CudaModules.function(build, module, v.name()));
            functions.put(KernelCalls.FdkFootprint.KERNEL, CudaModules.function(build, module, KernelCalls.FdkFootprint.KERNEL));
            tensorSplit = CudaModules.functionIfPresent(module, FdkVariant.TENSOR_SPLIT.name());
            for (String name : List.of(KernelCalls.FdkWeight.KERNEL, KernelCalls.FdkAbsmax.KERNEL, KernelCalls.FdkMakePairs.KERNEL,
                    KernelCalls.FdkHalves.KERNEL))
                functions.put(name, CudaModules.function(build, module, name));
            filterModule = CudaModules.load(build, "filter");
            functions.put(FILTER, CudaModules.function(build, filterModule, FILTER));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Whether the module holds the split kernel with tensor copies ({@link FdkVariant#TENSOR_SPLIT}). */
    boolean hasTensorSplit() {
        return tensorSplit != null;
    }

    /** Puts the matrices of the next launches (FdkMatrices.constants) into constant memory. */
    void matrices(double[] packed) {
        long bytes = (long) packed.length * Sizeof.DOUBLE;
        if (bytes > constantBytes)
            throw new IllegalArgumentException("cuda fdk: " + packed.length / 12 + " matrices exceed the kernels' constant memory ("
                    + constantBytes / (12 * Sizeof.DOUBLE) + ")");
        cuMemcpyHtoD(constants, Pointer.to(packed), bytes);
    }

    /**
     * The largest footprint of v's blocks over projections [p0, p0 + np) of the constant memory, for slab l. zInvariant
     * (u and w of every matrix independent of z): a bound from the blocks of the slab's first and last chunks of slices
     * alone (fdk_footprint's ends), a row taller than theirs; else every block's.
     */
    Footprint footprint(FdkVariant v, FdkLaunch l, int p0, int np, boolean zInvariant) {
        cuMemsetD32(footprintResult, 0, 4);
        Pointer args = KernelCalls.fdkFootprint().result(footprintResult).n(l.vol().n())
                .nz(l.vol().nz()).k0(l.k0()).slices(l.slices()).voxel(l.vol().voxel()).p0(p0)
                .np(np).tileX(v.blockColumnsX()).tileY(v.blockColumnsY()).tileZ(v.z())
                .ends(zInvariant ? 1 : 0).build();
        cuLaunchKernel(functions.get(KernelCalls.FdkFootprint.KERNEL), FOOTPRINT_GRID, 1, 1, FOOTPRINT_THREADS, 1, 1, 0, null, args, null);
        int[] r = new int[4];
        cuMemcpyDtoH(Pointer.to(r), footprintResult, 4L * Sizeof.INT);
        return new Footprint(r[0], r[1] == 0, r[2], r[3]);
    }

    /**
     * Launches v over projections [chunk + p0, chunk + p0 + np) (matrices p0.. of the constant memory) with tiles of cap
     * pixels (a multiple of 4: the tiles are copied in 16-byte words).
     */
    void launch(FdkVariant v, FdkLaunch l, int chunk, int p0, int np, int cap) {
        if (cap % 4 != 0) throw new IllegalArgumentException("cuda fdk: a tile of " + cap + " pixels is not whole 16-byte words");
        CUfunction f = functions.get(v.name());
        int shared = Math.toIntExact(v.sharedBytes(np, cap));
        if (shared > DEFAULT_SHARED && sharedAllowed.getOrDefault(v.name(), 0) < shared) {
            cuFuncSetAttribute(f, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
            sharedAllowed.put(v.name(), shared);
        }
        // the texture mode's kernels read the band's pairs, and take the scale that it and the texture are in
        Pointer args = v.kind().halfPrecision()
                ? KernelCalls.fdkPairs().q(l.pairs()).scale(l.scale()).tex(l.texture()).slab(l.slab()).n(l.vol().n())
                        .nz(l.vol().nz()).k0(l.k0()).slices(l.slices()).voxel(l.vol().voxel()).cols(l.cols()).rows(l.rows())
                        .bandFirst(l.bandFirst()).bandRows(l.bandRows()).chunk(chunk).p0(p0).np(np).cap(cap).build()
                : KernelCalls.fdk().q(l.band()).tex(l.texture()).slab(l.slab()).n(l.vol().n())
                        .nz(l.vol().nz()).k0(l.k0()).slices(l.slices()).voxel(l.vol().voxel()).cols(l.cols()).rows(l.rows())
                        .bandFirst(l.bandFirst()).bandRows(l.bandRows()).chunk(chunk).p0(p0).np(np).cap(cap).build();
        int[] grid = v.grid(l.vol().n(), l.k0(), l.slices());
        cuLaunchKernel(f, grid[0], grid[1], grid[2], FdkVariant.THREADS, 1, 1, shared, null, args, null);
    }

    /**
     * Launches {@link FdkVariant#TENSOR_SPLIT} over projections [chunk + p0, chunk + p0 + np) with the tensor map of the
     * band's pairs ({@link TensorMaps}, boxes of bw × {@link FdkVariant#PAIR_GUARD}) and tiles of {@code boxes} boxes.
     */
    void launchTensor(FdkLaunch l, byte[] map, int chunk, int p0, int np, int bw, int boxes) {
        FdkVariant v = FdkVariant.TENSOR_SPLIT;
        if (tensorSplit == null)
            throw new IllegalStateException("cuda fdk: " + v.name() + " is not in the loaded module (" + build.source() + ")");
        int shared = Math.toIntExact(v.sharedBytes(np, FdkVariant.tensorCap(bw, boxes)));
        if (shared > DEFAULT_SHARED && sharedAllowed.getOrDefault(v.name(), 0) < shared) {
            cuFuncSetAttribute(tensorSplit, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
            sharedAllowed.put(v.name(), shared);
        }
        Pointer args = KernelCalls.fdkTensor().map(map).tex(l.texture()).slab(l.slab())
                .n(l.vol().n()).nz(l.vol().nz()).k0(l.k0()).slices(l.slices()).voxel(l.vol().voxel())
                .bandFirst(l.bandFirst()).bandRows(l.bandRows()).chunk(chunk).p0(p0).np(np)
                .bw(bw).boxes(boxes).scale(l.scale()).build();
        int[] grid = v.grid(l.vol().n(), l.k0(), l.slices());
        cuLaunchKernel(tensorSplit, grid[0], grid[1], grid[2], FdkVariant.THREADS, 1, 1, shared, null, args, null);
    }

    /**
     * FDK's weights of a band of {@code np} projections of bandRows × cols pixels from detector row bandFirst, in place:
     * the cosine weight and {@code uw} (np × cols doubles, FdkFilter.redundancyWeights).
     */
    void weight(CUdeviceptr q, CUdeviceptr uw, int np, int bandFirst, int bandRows, ConeGeometry g) {
        long pixels = (long) np * bandRows * g.cols();
        Pointer args = KernelCalls.fdkWeight().q(q).uw(uw).pixels(pixels)
                .bandRows(bandRows).cols(g.cols()).bandFirst(bandFirst).dsd(g.dsd()).du(g.du())
                .dv(g.dv()).cu(g.cu()).cv(g.cv()).build();
        int blocks = (int) Math.min(1L << 20, (pixels + WEIGHT_THREADS - 1) / WEIGHT_THREADS);
        cuLaunchKernel(functions.get(KernelCalls.FdkWeight.KERNEL), Math.max(1, blocks), 1, 1, WEIGHT_THREADS, 1, 1, 0, null, args, null);
    }

    /**
     * The power of two the texture mode scales a band of {@code count} floats by: its largest |value| times it lies in
     * [2^13, 2^14), well within half precision's range (65504), and the smallest values keep their relative precision
     * down to 2^-24 of that. 1 for a band of zeros, or one holding an infinity or a NaN (which the sums then carry).
     */
    float halfScale(CUdeviceptr q, long count) {
        cuMemsetD32(largest, 0, 1);
        Pointer args = KernelCalls.fdkAbsmax().result(largest).q(q).count(count).build();
        cuLaunchKernel(functions.get(KernelCalls.FdkAbsmax.KERNEL), gridFor(count), 1, 1, WEIGHT_THREADS, 1, 1, 0, null, args, null);
        int[] bits = new int[1];
        cuMemcpyDtoH(Pointer.to(bits), largest, Sizeof.INT);
        return scaleFor(Float.intBitsToFloat(bits[0]));
    }

    /** The scale of {@link #halfScale} for a band whose largest |value| is {@code largest}. */
    static float scaleFor(float largest) {
        if (largest == 0 || !Float.isFinite(largest)) return 1f;
        return Math.scalb(1f, Math.max(-126, Math.min(127, 13 - Math.getExponent(largest))));
    }

    /**
     * The texture mode's inputs from a band of np projections of bandRows × cols floats: its pairs ({@code pairs},
     * {@link #pairWords} words: each projection's bandRows + 1 rows of entries between rows of zeros) and its halves
     * ({@code halves}, np × bandRows × cols), both times scale.
     */
    void halfPrecision(CUdeviceptr band, CUdeviceptr pairs, CUdeviceptr halves, int np, int bandRows, int cols, float scale) {
        long count = (long) np * bandRows * cols;
        Pointer args = KernelCalls.fdkMakePairs().pairs(pairs).q(band).np(np)
                .bandRows(bandRows).cols(cols).scale(scale).build();
        cuLaunchKernel(functions.get(KernelCalls.FdkMakePairs.KERNEL), gridFor(pairWords(np, bandRows, cols)), 1, 1, WEIGHT_THREADS,
                1, 1, 0, null, args, null);
        args = KernelCalls.fdkHalves().halves(halves).q(band).count(count)
                .scale(scale).build();
        cuLaunchKernel(functions.get(KernelCalls.FdkHalves.KERNEL), gridFor(count), 1, 1, WEIGHT_THREADS, 1, 1, 0, null, args, null);
    }

    /**
     * Words of a band's pairs (fdk_pairs): {@link FdkVariant#PAIR_GUARD} rows of zeros, then for each projection its
     * bandRows + 1 rows of entries and as many rows of zeros; rows of cols words.
     */
    static long pairWords(int np, int bandRows, int cols) {
        return (pairRows(bandRows) * np + FdkVariant.PAIR_GUARD) * cols;
    }

    /** Rows of one projection's pairs, its entries and the zeros after them. */
    static long pairRows(int bandRows) {
        return bandRows + 1L + FdkVariant.PAIR_GUARD;
    }

    /** Blocks of a grid-stride loop over {@code count} items. */
    private static int gridFor(long count) {
        return (int) Math.max(1, Math.min(1L << 20, (count + WEIGHT_THREADS - 1) / WEIGHT_THREADS));
    }

    /**
     * Ramp-filters {@code rows} rows of {@code width} pixels in place with the FFT of length n (a power of two), its
     * twiddles ({@code tw}, n complex) and real response ({@code resp}, n/2 + 1), edge or zero padding.
     */
    void filter(CUdeviceptr data, long rows, int width, int n, CUdeviceptr tw, CUdeviceptr resp, boolean edge) {
        CUfunction f = functions.get(FILTER);
        int shared = n * 16;
        if (shared > DEFAULT_SHARED && sharedAllowed.getOrDefault(FILTER, 0) < shared) {
            cuFuncSetAttribute(f, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
            sharedAllowed.put(FILTER, shared);
        }
        Pointer args = KernelCalls.filter().data(data).nrows(rows).width(width)
                .n(n).tw(tw).resp(resp).edge(edge ? 1 : 0).build();
        long blocks = (rows + 1) / 2;
        if (blocks > Integer.MAX_VALUE) throw new IllegalArgumentException("cuda fdk: " + rows + " rows to filter in one launch");
        cuLaunchKernel(f, (int) blocks, 1, 1, FILTER_THREADS, 1, 1, shared, null, args, null);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        allocated.freeAll();
        if (filterModule != null) cuModuleUnload(filterModule);
        if (module != null) cuModuleUnload(module);
    }
}
