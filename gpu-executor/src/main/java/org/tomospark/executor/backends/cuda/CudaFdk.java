package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.backends.cuda.FdkKernels.Footprint;
import org.tomospark.executor.backends.cuda.FdkMatrices.Range;
import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUpointer_attribute;
import jcuda.driver.CUtexObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD32;
import static jcuda.driver.JCudaDriver.cuPointerGetAttribute;

/**
 * FDK back-projection of z-slabs on a CUDA device (kernels/fdk.cu, {@link FdkKernels}), on the executor's shared
 * context. Each call uploads the band of filtered projections into a buffer sized once for the largest band, clears
 * the slab buffer, back-projects every projection into it and adds it into the caller's slices. The kernel:
 * <ul>
 *   <li>u and w independent of z (every circular trajectory, given as matrices or not): the column kernel, a thread
 *       per (x, y) column and 16 voxels of it sharing u, its weights and 1/w² (two columns a thread), the pixels
 *       interpolated in float32 on the ALU from shared-memory copies of each block's footprint;</li>
 *   <li>any other matrices: the general kernel, u, v, w per voxel from partial sums shared down the column;</li>
 *   <li>{@link Mode#TEXTURE}: the same kernels on the band in half precision (times a power of two that keeps its
 *       largest value within half's range), their tiles holding pairs of halves (a pixel and the one below, so that
 *       one load serves both rows and one half2 multiply-add interpolates both in u), and a share of the projections
 *       filtered by the texture unit from a half-precision texture. For z-independent u and w, half of each block's
 *       warps take the tiles and the other half the texture share, on the same voxels, so that the texture unit and
 *       the shared-memory loads work at once; the share is one projection in two, four in seven where footprints are
 *       large ({@link FdkVariant#forFootprint}); on sm_90 on, with the fatbin, the copy engine fills the tiles from a
 *       tensor map of the pairs ({@link FdkVariant#TENSOR_SPLIT}, {@link TensorMaps}: one in two, the same sums as the
 *       split kernel's). Other matrices take the texture alone, where the general kernel's
 *       arithmetic per voxel makes the ALU share slower than the texture unit. Within {@link #TEXTURE_TOLERANCE}
 *       instead of 1e-5 (the texture's 8-bit weights; half precision alone gives 2e-4).</li>
 * </ul>
 * A geometry whose footprints do not fit a block's shared memory falls back to the kernels without tiles (the naive
 * kernel, exact; the texture kernels in texture mode). One caller at a time.
 */
public final class CudaFdk implements ConeBackprojector {
    /** How pixels are interpolated. */
    public enum Mode {
        /** Float32 on the ALU: within 1e-5 (relative L2 over the slab) of {@link org.tomospark.executor.cone.FdkBackprojector}. */
        EXACT,
        /**
         * Half precision, and a share of the projections through the texture unit's 8-bit weights: faster, within
         * {@link #TEXTURE_TOLERANCE}.
         */
        TEXTURE
    }

    /** Relative L2 error the texture mode is held to (1.2e-3 to 1.5e-3 measured on white noise). */
    public static final double TEXTURE_TOLERANCE = 5e-3;
    private static final Logger LOG = LoggerFactory.getLogger(CudaFdk.class);

    private final ConeGeometry g;
    private final ConeVolume vol;
    private final int maxBandRows, maxSlices;
    private final DeviceCalls calls;
    private final FdkMatrices matrices;
    private final CUdeviceptr band = new CUdeviceptr(), slab = new CUdeviceptr();
    /** The texture mode's band in half precision: its pairs (the tiles' source) and its halves (the texture's). */
    private final CUdeviceptr pairs = new CUdeviceptr(), halves = new CUdeviceptr();
    /** The factor on the band that pairs and halves hold (FdkKernels.halfScale). */
    private float scale = 1f;
    private final CUdeviceptr weights = new CUdeviceptr(), twiddles = new CUdeviceptr(), response = new CUdeviceptr();
    /** The filter whose tables are on the device (one per back-projector). */
    private FdkFilter tablesOf;
    private final Allocations allocated = new Allocations();
    private final Set<String> lastKernels = new LinkedHashSet<>();
    /** The projections of each launch of the last back-projection (tests). */
    private final List<Range> launched = new ArrayList<>();
    private FdkKernels kernels;
    private FdkTexture texture;
    /** Whether the texture mode's column kernel fills its tiles by tensor copies ({@link FdkVariant#TENSOR_SPLIT}). */
    private boolean tensorCopies;
    /** The device address of {@link #pairs} (the tensor maps' base). */
    private long pairsAddress;
    private boolean closed;

    /**
     * The exact mode.
     *
     * @param maxBandRows the most detector rows a slab's band holds
     * @param maxSlices   the most slices a slab holds
     * @param device      the backend's device option (an index or a Spark GPU address; empty for the default)
     */
    public CudaFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, String device) {
        this(g, vol, maxBandRows, maxSlices, device, Mode.EXACT);
    }

    /**
     * @param mode {@link Mode#TEXTURE} applies where there are at most {@link FdkTexture#MAX_LAYERS} projections;
     *             beyond, the exact kernels run
     */
    public CudaFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, String device, Mode mode) {
        if (maxBandRows < 1 || maxBandRows > g.rows())
            throw new IllegalArgumentException("cuda fdk: a band of " + maxBandRows + " rows on a detector of " + g.rows());
        if (maxSlices < 1 || maxSlices > vol.nz())
            throw new IllegalArgumentException("cuda fdk: slabs of " + maxSlices + " slices in a volume of " + vol.nz());
        this.g = g;
        this.vol = vol;
        this.maxBandRows = maxBandRows;
        this.maxSlices = maxSlices;
        this.matrices = new FdkMatrices(g);
        this.calls = new DeviceCalls(CudaDevice.get(CudaDevice.parseDevice(device)), "cuda fdk");
        boolean textured = mode == Mode.TEXTURE && g.numProjections() <= FdkTexture.MAX_LAYERS;
        try {
            calls.run("loading kernels/fdk and allocating its buffers", () -> {
                kernels = new FdkKernels();
                // a row more: the filter's pitch is even (see backprojectFiltering)
                allocated.alloc(band, (long) g.numProjections() * (maxBandRows + 1) * g.cols() * Sizeof.FLOAT);
                allocated.alloc(slab, (long) vol.pixels() * maxSlices * Sizeof.FLOAT);
                if (textured) {
                    // pairs of a band whose pitch may be a row more than its rows
                    allocated.alloc(pairs, FdkKernels.pairWords(g.numProjections(), maxBandRows + 1, g.cols()) * Sizeof.INT);
                    allocated.alloc(halves, (long) g.numProjections() * (maxBandRows + 1) * g.cols() * FdkTexture.HALF_BYTES);
                    texture = new FdkTexture(g.cols(), g.numProjections());
                    tensorCopies = tensorCopiesAllowed(g.cols());
                }
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Whether the texture mode's column kernel can take tensor copies here: the module has it (sm_90 code, so a fatbin
     * on such a device), the detector's rows are whole 16-byte words, the pairs' rows fit the copies' 32-bit row
     * coordinates, and the driver's tensor-map encoder loads (else a warning says why, and the kernel copies its tiles
     * itself).
     */
    private boolean tensorCopiesAllowed(int cols) {
        if (!kernels.hasTensorSplit() || calls.device().ccMajor < 9) return false;
        if (cols % 4 != 0) return false;
        if (FdkKernels.pairWords(g.numProjections(), maxBandRows + 1, cols) / cols > Integer.MAX_VALUE) return false;
        if (!TensorMaps.available()) {
            LOG.warn("cuda fdk: {}; the texture mode's kernel copies its tiles without the copy engine", TensorMaps.unavailableReason());
            return false;
        }
        long[] address = new long[1];
        cuPointerGetAttribute(Pointer.to(address), CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_POINTER, pairs);
        pairsAddress = address[0];
        return true;
    }

    @Override
    public void backproject(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        check(q, bandFirst, bandRows, k0, out);
        lastKernels.clear();
        if (out.length == 0 || bandRows == 0) return;  // a slab that sees no detector row adds nothing
        upload(q, bandFirst, bandRows);
        clear(out.length);
        for (FdkVariant v : launchAll(preferred(), true, k0, out.length, bandFirst, bandRows)) lastKernels.add(v.name());
        addInto(out);
    }

    @Override
    public boolean filtersOnDevice() {
        return true;
    }

    /**
     * Uploads the unfiltered band, weights it ({@code fdk_weight}: the cosine weight and the filter's
     * {@link FdkFilter#redundancyWeights}) and ramp-filters its rows (kernels/filter.cu, the filter's response) on the
     * device, then back-projects it: the host neither filters nor holds a second copy.
     */
    @Override
    public void backprojectFiltering(FdkFilter filter, float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        check(q, bandFirst, bandRows, k0, out);
        lastKernels.clear();
        if (out.length == 0 || bandRows == 0) return;
        // the filter transforms two consecutive rows as one complex row: with an even number of rows a projection, no
        // pair spans two projections, and a band from an even row (SlabPlanner's) pairs the same rows in every slab; an
        // odd band gets a zero row after its last, beyond it as far as the kernels are concerned
        int pitch = bandRows + (bandRows & 1);
        uploadBand(q, bandFirst, bandRows, pitch);
        RampFilter ramp = filter.ramp();
        calls.run("weighting and filtering the band of detector rows " + bandFirst + ".." + (bandFirst + bandRows - 1), () -> {
            filterTables(filter);
            kernels.weight(band, weights, g.numProjections(), bandFirst, pitch, g);
            kernels.filter(band, (long) g.numProjections() * pitch, g.cols(), ramp.paddedLength(), twiddles, response,
                    ramp.spec().padding() == Padding.EDGE);
        });
        refreshTexture(pitch);
        clear(out.length);
        for (FdkVariant v : launchAll(preferred(), true, k0, out.length, bandFirst, pitch)) lastKernels.add(v.name());
        addInto(out);
    }

    @Override
    public String description() {
        String kernelNames = lastKernels.isEmpty() ? preferred().name() : String.join(" + ", lastKernels);
        String accuracy = texture != null ? "half precision and texture weights (within " + TEXTURE_TOLERANCE + ")" : "exact float32";
        return "cuda fdk, " + kernelNames + ", " + accuracy + ", " + calls.device().describe();
    }

    /** The kernel this geometry and mode take, before the per-slab check that its tiles fit. */
    FdkVariant preferred() {
        if (texture != null && matrices.zInvariant()) return tensorCopies ? FdkVariant.TENSOR_SPLIT : FdkVariant.HYBRID;
        if (texture != null) return FdkVariant.GENERAL_TEXTURE;
        return matrices.zInvariant() ? FdkVariant.COLUMNS : FdkVariant.GENERAL;
    }

    /** Uploads the band (and, in texture mode, makes its half-precision pairs and texture). */
    void upload(float[][] q, int bandFirst, int bandRows) {
        uploadBand(q, bandFirst, bandRows, bandRows);
        refreshTexture(bandRows);
    }

    /** Uploads projection p's band rows to rows [p·pitch, p·pitch + bandRows) of the band buffer, the others zeroed. */
    private void uploadBand(float[][] q, int bandFirst, int bandRows, int pitch) {
        long floats = (long) bandRows * g.cols(), stride = (long) pitch * g.cols();
        calls.run("uploading the band of detector rows " + bandFirst + ".." + (bandFirst + bandRows - 1), () -> {
            if (pitch != bandRows) cuMemsetD32(band, 0, q.length * stride);
            for (int p = 0; p < q.length; p++)
                cuMemcpyHtoD(band.withByteOffset(p * stride * Sizeof.FLOAT), Pointer.to(q[p]), floats * Sizeof.FLOAT);
        });
    }

    /** In texture mode: the band's scale, its pairs and halves, and the texture from the halves. */
    private void refreshTexture(int bandRows) {
        if (texture == null) return;
        int np = g.numProjections();
        calls.run("making the band's half-precision pairs and texture", () -> {
            scale = kernels.halfScale(band, (long) np * bandRows * g.cols());
            kernels.halfPrecision(band, pairs, halves, np, bandRows, g.cols(), scale);
            texture.refresh(halves, bandRows);
        });
    }

    /**
     * The filter's tables on the device, uploaded at its first use: the redundancy weights of every projection, the FFT's
     * twiddles and the ramp's response.
     */
    private void filterTables(FdkFilter filter) {
        if (filter == tablesOf) return;
        if (tablesOf != null) throw new IllegalStateException("cuda fdk: one FDK filter per back-projector");
        int np = g.numProjections(), cols = g.cols();
        double[] uw = new double[np * cols];
        for (int p = 0; p < np; p++) System.arraycopy(filter.redundancyWeights(p), 0, uw, p * cols, cols);
        RampFilter ramp = filter.ramp();
        DeviceBuffers.FilterTables t = DeviceBuffers.FilterTables.of(ramp.paddedLength(), ramp.response());
        allocated.alloc(weights, (long) uw.length * Sizeof.DOUBLE);
        cuMemcpyHtoD(weights, Pointer.to(uw), (long) uw.length * Sizeof.DOUBLE);
        allocated.alloc(twiddles, (long) t.twiddles().length * Sizeof.FLOAT);
        cuMemcpyHtoD(twiddles, Pointer.to(t.twiddles()), (long) t.twiddles().length * Sizeof.FLOAT);
        allocated.alloc(response, (long) t.response().length * Sizeof.FLOAT);
        cuMemcpyHtoD(response, Pointer.to(t.response()), (long) t.response().length * Sizeof.FLOAT);
        tablesOf = filter;
    }

    /** Zeroes the first {@code slices} slices of the slab buffer. */
    void clear(int slices) {
        calls.run("clearing the slab", () -> cuMemsetD32(slab, 0, (long) vol.pixels() * slices));
    }

    /**
     * Adds the back-projection of the uploaded band into the slab buffer with {@code wanted} (tests and benchmarks): per
     * chunk of matrices in constant memory, the footprint check, then the launches. Returns the kernel each chunk ran (a
     * kernel without tiles where wanted's do not fit).
     */
    List<FdkVariant> launchAll(FdkVariant wanted, int k0, int slices, int bandFirst, int bandRows) {
        return launchAll(wanted, false, k0, slices, bandFirst, bandRows);
    }

    /** The same; byFootprint: the kernel that suits the chunk's footprints (FdkVariant.forFootprint), as the product runs. */
    private List<FdkVariant> launchAll(FdkVariant wanted, boolean byFootprint, int k0, int slices, int bandFirst, int bandRows) {
        if (wanted.kind().halfPrecision() && texture == null)
            throw new IllegalStateException("cuda fdk: kernel " + wanted.name() + " reads the texture: open with Mode.TEXTURE");
        if (wanted.kind() == FdkVariant.Kind.TENSOR_HYBRID && !tensorCopies)
            throw new IllegalStateException("cuda fdk: kernel " + wanted.name() + " needs tensor copies, which this device, module or "
                    + "detector does not allow");
        return calls.run("the back-projection of slices " + k0 + ".." + (k0 + slices - 1), () -> {
            CUtexObject tex = texture != null ? texture.handle() : new CUtexObject();
            FdkLaunch l = new FdkLaunch(band, pairs, scale, tex, slab, vol, k0, slices, g.cols(), g.rows(), bandFirst, bandRows);
            List<FdkVariant> ran = new ArrayList<>();
            launched.clear();
            CudaDevice dev = calls.device();
            FdkVariant.SmShared sm = new FdkVariant.SmShared(dev.sharedPerSm, dev.reservedSharedPerBlock, dev.maxSharedOptin);
            for (Range chunk : FdkMatrices.chunks(g.numProjections())) {
                kernels.matrices(matrices.constants(chunk));
                FdkVariant v = wanted;
                int cap = 0, bw = 0, boxes = 0;
                byte[] map = null;
                if (v.usesTiles()) {
                    Footprint f = kernels.footprint(v, l, 0, chunk.count(), matrices.zInvariant());
                    if (v.kind() == FdkVariant.Kind.TENSOR_HYBRID) {
                        if (FdkVariant.tensorTilesFit(f, dev.maxSharedOptin)) {
                            bw = f.width();
                            boxes = FdkVariant.tensorBoxes(f);
                            cap = FdkVariant.tensorCap(bw, boxes);
                            map = pairsMap(bandRows, bw);
                        } else {
                            v = FdkVariant.HYBRID;  // the same blocks and footprints, tiles copied by the block
                        }
                    }
                    if (map == null) {
                        if (v.tilesFit(f, dev.maxSharedOptin)) {
                            cap = FdkVariant.tileCap(f);
                            if (byFootprint) v = v.forFootprint(f);
                        } else {
                            v = v.withoutTiles();
                        }
                    }
                }
                int most = v.launchProjections(chunk.count(), cap, sm);
                for (Range launch : FdkMatrices.launches(chunk, most)) {
                    int p0 = launch.first() - chunk.first();
                    if (map != null) kernels.launchTensor(l, map, chunk.first(), p0, launch.count(), bw, boxes);
                    else kernels.launch(v, l, chunk.first(), p0, launch.count(), cap);
                    launched.add(launch);
                }
                ran.add(v);
            }
            return ran;
        });
    }

    /**
     * The tensor map of the band's pairs as made for a band of {@code bandRows} rows (fdk_pairs): cols × (its rows for
     * every projection and the leading guard) words, boxes of bw × {@link FdkVariant#PAIR_GUARD}.
     */
    private byte[] pairsMap(int bandRows, int bw) {
        long rows = FdkKernels.pairWords(g.numProjections(), bandRows, g.cols()) / g.cols();
        return TensorMaps.tiled2d(pairsAddress, g.cols(), rows, (long) g.cols() * Sizeof.INT, bw, FdkVariant.PAIR_GUARD);
    }

    /**
     * The largest footprint of v's blocks for slab [k0, k0 + slices) over the first chunk of projections (tests): the
     * bound from the slab's end chunks (ends, for z-independent u and w) or every block's.
     */
    Footprint footprint(FdkVariant v, int k0, int slices, boolean ends) {
        return calls.run("sizing the tiles", () -> {
            Range chunk = FdkMatrices.chunks(g.numProjections()).get(0);
            kernels.matrices(matrices.constants(chunk));
            FdkLaunch l = new FdkLaunch(band, pairs, scale, new CUtexObject(), slab, vol, k0, slices, g.cols(), g.rows(), 0, g.rows());
            return kernels.footprint(v, l, 0, chunk.count(), ends);
        });
    }

    /** Whether the texture mode's column kernel takes tensor copies here (tests). */
    boolean tensorCopies() {
        return tensorCopies;
    }

    /** The projections of each launch of the last back-projection, in order (tests). */
    List<Range> lastLaunches() {
        return List.copyOf(launched);
    }

    /** Voxel (i, j) of slab slice kk, read back (tests and benchmarks). */
    float voxel(int kk, int j, int i) {
        float[] v = new float[1];
        long at = ((long) kk * vol.n() + j) * vol.n() + i;
        calls.run("reading a voxel back", () -> cuMemcpyDtoH(Pointer.to(v), slab.withByteOffset(at * Sizeof.FLOAT), Sizeof.FLOAT));
        return v[0];
    }

    /** The driver calls of this back-projector (benchmarks time its kernels with events on the same context). */
    DeviceCalls calls() {
        return calls;
    }

    /** Adds the first out.length slices of the slab buffer into out. */
    void addInto(float[][] out) {
        int pixels = vol.pixels();
        float[] staging = new float[pixels];
        for (int kk = 0; kk < out.length; kk++) {
            long at = (long) kk * pixels * Sizeof.FLOAT;
            calls.run("downloading the slab",
                    () -> cuMemcpyDtoH(Pointer.to(staging), slab.withByteOffset(at), (long) pixels * Sizeof.FLOAT));
            float[] o = out[kk];
            for (int i = 0; i < pixels; i++) o[i] += staging[i];
        }
    }

    private void check(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        if (closed) throw new IllegalStateException("cuda fdk: closed");
        if (q.length != g.numProjections())
            throw new IllegalArgumentException("cuda fdk: " + q.length + " projections for a geometry of " + g.numProjections());
        if (bandRows < 0 || bandRows > maxBandRows)
            throw new IllegalArgumentException("cuda fdk: a band of " + bandRows + " rows; this back-projector was sized for "
                    + maxBandRows);
        if (bandFirst < 0 || bandFirst + bandRows > g.rows())
            throw new IllegalArgumentException("cuda fdk: band rows " + bandFirst + ".." + (bandFirst + bandRows - 1) + " on a detector of "
                    + g.rows() + " rows");
        for (float[] p : q)
            if (p.length < (long) bandRows * g.cols())
                throw new IllegalArgumentException("cuda fdk: a projection of " + p.length + " pixels for a band of " + bandRows + " x "
                        + g.cols());
        if (out.length > maxSlices)
            throw new IllegalArgumentException("cuda fdk: a slab of " + out.length + " slices; this back-projector was sized for "
                    + maxSlices);
        if (k0 < 0 || k0 + out.length > vol.nz())
            throw new IllegalArgumentException("cuda fdk: slices " + k0 + ".." + (k0 + out.length - 1) + " of a volume of " + vol.nz());
        for (float[] s : out)
            if (s.length != vol.pixels())
                throw new IllegalArgumentException("cuda fdk: an output slice of " + s.length + " voxels, expected " + vol.pixels());
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        calls.run("freeing the back-projector", () -> {
            allocated.freeAll();
            if (texture != null) texture.close();
            if (kernels != null) kernels.close();
        });
    }
}
