package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;
import jcuda.driver.CUDA_RESOURCE_DESC;
import jcuda.driver.CUDA_TEXTURE_DESC;
import jcuda.driver.CUarray_format;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfilter_mode;
import jcuda.driver.CUresourcetype;
import jcuda.driver.CUtexObject;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.geometry.ProjectionTables;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

import static jcuda.driver.JCudaDriver.CU_TRSF_READ_AS_INTEGER;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuTexObjectCreate;
import static jcuda.driver.JCudaDriver.cuTexObjectDestroy;

/**
 * The device and pinned host memory of one validated job: per pipeline buffer (two) the input sinograms and output
 * planes on the device and in page-locked host memory; one compound sinogram (and entries array) per group of a
 * launch; the projection tables; the texture a texture-bound variant reads; the ramp filter's twiddles and response.
 * Sizes come from the {@link MemoryPlanner.Plan}. Driver calls only.
 */
final class DeviceBuffers implements AutoCloseable {
    /** CU_TR_ADDRESS_MODE_BORDER (cuda.h: 3); JCuda 12.6's CUaddress_mode lacks the constant. */
    private static final int ADDRESS_MODE_BORDER = 3;

    /** What the buffers are sized for. */
    record Shape(int width, int np, int rows, int cols, MemoryPlanner.Plan plan, KernelVariant variant, boolean half,
                 Interpolation interpolation, int maxGroupsPerLaunch) {
    }

    final Shape shape;
    /** Groups of a chunk back-projected by one launch (grid z), each with its own compound sinogram / entries array. */
    final int groupsPerLaunch;
    final long packedGroupBytes;
    /** Entries per row of the entries array and the bytes of one group's array (0 without one). */
    final int entriesPitch;
    final long entriesGroupBytes;

    final CUdeviceptr[] in = new CUdeviceptr[2], out = new CUdeviceptr[2];
    final Pointer[] hostIn = new Pointer[2], hostOut = new Pointer[2];
    final ByteBuffer[] stagingIn = new ByteBuffer[2];
    final FloatBuffer[] floatsIn = new FloatBuffer[2], floatsOut = new FloatBuffer[2];
    /** Compound sinograms, entries arrays, per-group magnitudes of a scaled packing, double projection table. */
    CUdeviceptr packed, entries, gmax, projections;
    /** Twiddles and frequency response of the device ramp filter (null when filtering on the host). */
    CUdeviceptr twiddles, response;
    CUtexObject texture;
    private final List<CUdeviceptr> device = new ArrayList<>();
    /** Where the pipeline's page-locked host buffers come from and go back to (the device's pool). */
    private final PinnedPool pinned;
    private long hostInBytes, hostOutBytes;

    /**
     * Allocates everything and uploads the tables.
     *
     * @param constants   the texture kernels' projection table in constant memory, and its size in bytes
     * @param filter      the ramp filter's twiddles and response to upload, or null
     */
    DeviceBuffers(Shape shape, ProjectionTables tables, CUdeviceptr constants, long constantBytes, FilterTables filter,
                  PinnedPool pinned) {
        this.shape = shape;
        this.pinned = pinned;
        KernelVariant v = shape.variant();
        int chunk = shape.plan().chunkSlices(), k = v.k();
        int binBytes = k * (shape.half() ? 2 : 4);
        this.groupsPerLaunch = Math.min((chunk + k - 1) / k, shape.maxGroupsPerLaunch());
        this.packedGroupBytes = (long) shape.np() * shape.plan().pitch() * binBytes;
        this.entriesPitch = v.usesEntries() ? MemoryPlanner.pitch(shape.width() + 1, v.entryBytes()) : 0;
        this.entriesGroupBytes = (long) shape.np() * entriesPitch * v.entryBytes();
        try {
            allocatePipeline(chunk, k);
            // variants that batch a chunk's groups into one launch keep one compound sinogram (and entries array) per group
            packed = malloc(packedGroupBytes * groupsPerLaunch);
            if (v.scaledPacking()) gmax = malloc(4L * groupsPerLaunch);
            uploadProjections(tables, constants, constantBytes);
            // entries array (bp_entries_*): entry e of a row holds columns (e-1, e), e in [0, width], as the cache
            // would (value and difference of K slices, 8 to 32 bytes)
            if (v.usesEntries()) entries = malloc(entriesGroupBytes * groupsPerLaunch);
            if (v.usesEntries() && v.hybrid()) texture = entriesTexture();
            else if (v.usesTexture()) texture = binsTexture(binBytes);
            if (filter != null) {
                twiddles = upload(filter.twiddles());
                response = upload(filter.response());
            }
        } catch (RuntimeException e) {
            try {
                close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** The device ramp filter's tables: exp(-2 pi i m / n) as (cos, -sin) pairs, and the real frequency response. */
    record FilterTables(float[] twiddles, float[] response) {
        static FilterTables of(int n, float[] response) {
            float[] tw = new float[2 * n];
            for (int m = 0; m < n; m++) {
                double a = 2 * Math.PI * m / n;
                tw[2 * m] = (float) Math.cos(a);
                tw[2 * m + 1] = (float) -Math.sin(a);
            }
            return new FilterTables(tw, response);
        }
    }

    private void allocatePipeline(int chunk, int k) {
        long inBytes = (long) chunk * shape.np() * shape.width() * 4;
        int padded = (chunk + k - 1) / k * k;
        long outBytes = (long) padded * shape.rows() * shape.cols() * 4;
        hostInBytes = inBytes;
        hostOutBytes = (long) chunk * shape.rows() * shape.cols() * 4;
        for (int i = 0; i < 2; i++) {
            in[i] = malloc(inBytes);
            out[i] = malloc(outBytes);
            hostIn[i] = pinned.take(hostInBytes);
            stagingIn[i] = hostIn[i].getByteBuffer(0, hostInBytes).order(ByteOrder.nativeOrder());
            floatsIn[i] = stagingIn[i].asFloatBuffer();
            hostOut[i] = pinned.take(hostOutBytes);
            floatsOut[i] = hostOut[i].getByteBuffer(0, hostOutBytes).order(ByteOrder.nativeOrder()).asFloatBuffer();
        }
    }

    /**
     * Projection tables: double (cos, sin, off) for the ALU kernels and the exact nearest fix-up; float4 (cos, sin,
     * off, 0) in constant memory for the texture kernels, when the scan fits it.
     */
    private void uploadProjections(ProjectionTables t, CUdeviceptr constants, long constantBytes) {
        int np = shape.np();
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
        projections = malloc((long) np * 24);
        cuMemcpyHtoD(projections, Pointer.to(pdv), (long) np * 24);
        if ((long) np * 16 <= constantBytes) cuMemcpyHtoD(constants, Pointer.to(pf), (long) np * 16);
    }

    /** Hybrid :xe: the texture share point-fetches entries as raw 32-bit words; a 32-byte entry is two uint4 texels. */
    private CUtexObject entriesTexture() {
        int eb = shape.variant().entryBytes();
        int texels = eb > 16 ? eb / 16 : 1;
        CUDA_RESOURCE_DESC rd = new CUDA_RESOURCE_DESC();
        rd.resType = CUresourcetype.CU_RESOURCE_TYPE_PITCH2D;
        rd.pitch2D_devPtr = entries;
        rd.pitch2D_format = CUarray_format.CU_AD_FORMAT_UNSIGNED_INT32;
        rd.pitch2D_numChannels = eb / 4 / texels;
        rd.pitch2D_width = (long) (shape.width() + 1) * texels;
        rd.pitch2D_height = shape.np();
        rd.pitch2D_pitchInBytes = (long) entriesPitch * eb;
        CUDA_TEXTURE_DESC td = borderTexture();
        td.filterMode = CUfilter_mode.CU_TR_FILTER_MODE_POINT;
        td.flags = CU_TRSF_READ_AS_INTEGER; // unnormalised coordinates, raw words
        return texture(rd, td);
    }

    /** The texture kernels and filtered hybrids read the compound sinogram's bins, filtered by the mode's interpolation. */
    private CUtexObject binsTexture(int binBytes) {
        CUDA_RESOURCE_DESC rd = new CUDA_RESOURCE_DESC();
        rd.resType = CUresourcetype.CU_RESOURCE_TYPE_PITCH2D;
        rd.pitch2D_devPtr = packed;
        rd.pitch2D_format = shape.half() ? CUarray_format.CU_AD_FORMAT_HALF : CUarray_format.CU_AD_FORMAT_FLOAT;
        rd.pitch2D_numChannels = shape.variant().k();
        rd.pitch2D_width = shape.width();
        rd.pitch2D_height = shape.np();
        rd.pitch2D_pitchInBytes = (long) shape.plan().pitch() * binBytes;
        CUDA_TEXTURE_DESC td = borderTexture();
        td.filterMode = shape.interpolation() == Interpolation.LINEAR ? CUfilter_mode.CU_TR_FILTER_MODE_LINEAR
                : CUfilter_mode.CU_TR_FILTER_MODE_POINT;
        td.flags = 0; // unnormalised coordinates, values returned as float
        return texture(rd, td);
    }

    private static CUDA_TEXTURE_DESC borderTexture() {
        CUDA_TEXTURE_DESC td = new CUDA_TEXTURE_DESC();
        td.addressMode = new int[]{ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER, ADDRESS_MODE_BORDER};
        td.borderColor = new float[]{0f, 0f, 0f, 0f};
        return td;
    }

    private static CUtexObject texture(CUDA_RESOURCE_DESC rd, CUDA_TEXTURE_DESC td) {
        CUtexObject t = new CUtexObject();
        cuTexObjectCreate(t, rd, td, null);
        return t;
    }

    private CUdeviceptr upload(float[] a) {
        CUdeviceptr p = malloc((long) a.length * 4);
        cuMemcpyHtoD(p, Pointer.to(a), (long) a.length * 4);
        return p;
    }

    private CUdeviceptr malloc(long bytes) {
        CUdeviceptr p = new CUdeviceptr();
        cuMemAlloc(p, Math.max(bytes, 4));
        device.add(p);
        return p;
    }

    /** Frees everything allocated (the streams that use the buffers must be idle). */
    @Override
    public void close() {
        try {
            if (texture != null) cuTexObjectDestroy(texture);
            for (CUdeviceptr p : device) cuMemFree(p);
            // the pinned buffers go back to the device's pool, for the next processor of this shape
            for (Pointer p : hostIn) if (p != null) pinned.give(p, hostInBytes);
            for (Pointer p : hostOut) if (p != null) pinned.give(p, hostOutBytes);
        } finally {
            texture = null;
            device.clear();
            for (int i = 0; i < 2; i++) {
                in[i] = out[i] = null;
                hostIn[i] = hostOut[i] = null;
                stagingIn[i] = null;
                floatsIn[i] = floatsOut[i] = null;
            }
            packed = entries = gmax = projections = twiddles = response = null;
        }
    }
}
