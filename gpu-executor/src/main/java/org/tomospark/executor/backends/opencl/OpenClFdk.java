package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_mem;
import org.jocl.cl_program;

import java.util.Locale;

import static org.jocl.CL.CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE;
import static org.jocl.CL.CL_KERNEL_WORK_GROUP_SIZE;
import static org.jocl.CL.CL_MEM_COPY_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_TRUE;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clEnqueueFillBuffer;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBufferRect;
import static org.jocl.CL.clGetKernelWorkGroupInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseMemObject;

/**
 * FDK's cone-beam back-projection of a z-slab on an OpenCL device (kernels/fdk.cl), the same sum as the Java
 * reference {@link FdkBackprojector#backproject}: voxel-driven, bilinear, zero beyond the detector, weight 1/w².
 * <ul>
 *   <li>Kernels: {@code fdk_columns} where every projection matrix leaves u and w independent of z (the circular
 *       trajectory: a column of voxels shares u, its weights and 1/w², and v moves by a constant step), else
 *       {@code fdk_general}, which follows u, v and w of the matrix down the column voxel by voxel. One work-item per
 *       voxel column and block of slices, the block's sums in private memory over every projection of a launch.</li>
 *   <li>Projections per launch: as many matrices as the device's constant memory holds (usually all of them); the
 *       matrices are uploaded once, at construction.</li>
 *   <li>Precision: the terms of each voxel column and projection in double where the device has cl_khr_fp64, else
 *       float; per voxel only small offsets from them, in float (cheap on GPUs of slow doubles, and as accurate at any
 *       detector size); samples, weights and sums in float.</li>
 *   <li>Device memory, allocated once for the largest band and slab: the band of every projection with one zero pixel
 *       on each side (so that no read is tested) and the slab; each call uploads the band, runs, reads the slab back
 *       and adds it into the caller's slices.</li>
 * </ul>
 * The device context is the backend's shared one ({@link ClRuntime#context}); the queue, kernel and buffers belong to
 * this instance. One caller at a time.
 */
public final class OpenClFdk implements ConeBackprojector {
    /** Slices one work-item covers at most (its private sums). */
    static final int MAX_SLICES_PER_ITEM = 16;
    private static final int GROUP_X = 16;
    private static final int GROUP_Y = 8;
    private static final int MATRIX = 12;

    /**
     * Choices the tests force; 0 or false leave them to the device and the geometry.
     *
     * @param general              the per-voxel kernel even where the column one applies
     * @param floatTerms           float column terms even where the device has doubles
     * @param slicesPerItem        slices per work-item (at most {@link #MAX_SLICES_PER_ITEM})
     * @param projectionsPerLaunch projections per kernel launch (at most what constant memory holds)
     */
    record Tuning(boolean general, boolean floatTerms, int slicesPerItem, int projectionsPerLaunch) {
        static final Tuning AUTO = new Tuning(false, false, 0, 0);
    }

    private final ConeVolume vol;
    private final int cols;
    private final int rows;
    private final int nproj;
    private final int maxBandRows;
    private final int maxSlices;
    private final ClRuntime.DeviceInfo info;
    private final ClDeviceContext ctx;
    private final ClMemory memory;
    private final boolean fp64;
    private final String kernelName;
    private final int slicesPerItem;
    private final int perLaunch;
    private final long[] local = new long[3];
    private final float[] slice;
    private cl_command_queue queue;
    private ClKernel kernel;
    private cl_mem proj;
    private cl_mem slab;
    private cl_mem[] mats;
    /** The band height the padded projection layout on the device was zeroed for; -1 before the first call. */
    private int layoutRows = -1;
    private boolean closed;

    /**
     * @param maxBandRows the most detector rows a slab's band holds
     * @param maxSlices   the most slices a slab holds
     * @param device      the backend's device option (an index or a Spark GPU address; empty for the default)
     */
    public OpenClFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, String device) {
        this(g, vol, maxBandRows, maxSlices, device, Tuning.AUTO);
    }

    OpenClFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, String device, Tuning tuning) {
        if (maxBandRows < 1 || maxBandRows > g.rows())
            throw new IllegalArgumentException("opencl fdk: the largest band must hold 1 to " + g.rows() + " detector rows, got "
                    + maxBandRows);
        if (maxSlices < 1 || maxSlices > vol.nz())
            throw new IllegalArgumentException("opencl fdk: the largest slab must hold 1 to " + vol.nz() + " slices, got " + maxSlices);
        String why = ClRuntime.unavailableReason();
        if (why != null) throw new OpenClException("opencl fdk: " + why);
        this.vol = vol;
        this.cols = g.cols();
        this.rows = g.rows();
        this.nproj = g.numProjections();
        this.maxBandRows = maxBandRows;
        this.maxSlices = maxSlices;
        this.info = ClRuntime.select(DeviceSelector.parse(device));
        this.ctx = ClRuntime.context(info);
        this.memory = new ClMemory(ctx, info, "opencl fdk");
        this.fp64 = ctx.hasExtension("cl_khr_fp64") && !tuning.floatTerms();
        this.kernelName = tuning.general() || !columnsApply(g) ? ClPrograms.Fdk.FDK_GENERAL : ClPrograms.Fdk.FDK_COLUMNS;
        int item = tuning.slicesPerItem() > 0 ? Math.min(tuning.slicesPerItem(), MAX_SLICES_PER_ITEM) : MAX_SLICES_PER_ITEM;
        // slices per work-item: the blocks of the largest slab as even as they can be
        int blocks = ceilDiv(maxSlices, item);
        this.slicesPerItem = ceilDiv(maxSlices, blocks);
        int realBytes = fp64 ? Sizeof.cl_double : Sizeof.cl_float;
        long matrixBytes = (long) MATRIX * realBytes;
        long constant = ClRuntime.deviceLong(info.device(), CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
        int fits = (int) Math.min(nproj, constant / matrixBytes);
        if (fits < 1)
            throw new OpenClException("opencl fdk: " + info + " has " + constant + " bytes of constant memory "
                    + "(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), less than one projection matrix (" + matrixBytes + " bytes)");
        this.perLaunch = tuning.projectionsPerLaunch() > 0 ? Math.min(tuning.projectionsPerLaunch(), fits) : fits;
        long projBytes = (long) nproj * (maxBandRows + 2) * (cols + 2) * Sizeof.cl_float;
        long slabBytes = (long) maxSlices * vol.n() * vol.n() * Sizeof.cl_float;
        checkMemory(projBytes, slabBytes, (long) nproj * matrixBytes);
        this.slice = new float[vol.pixels()];
        try {
            queue = clCreateCommandQueue(ctx.context(), info.device(), 0, null);
            cl_program p = ctx.program(ClPrograms.fdk().zb(slicesPerItem).useDouble(fp64).build());
            kernel = ClKernel.create(p, kernelName, fp64);
            groupSize();
            proj = memory.buffer("buffer of the projections' bands (" + nproj + " x " + (maxBandRows + 2) + " rows x " + (cols + 2)
                    + " pixels, padded)", CL_MEM_READ_ONLY, projBytes, null);
            slab = memory.buffer("slab buffer (" + maxSlices + " slices of " + vol.n() + " x " + vol.n() + " voxels)", CL_MEM_READ_WRITE,
                    slabBytes, null);
            mats = new cl_mem[ceilDiv(nproj, perLaunch)];
            for (int c = 0; c < mats.length; c++) mats[c] = matrices(g, c * perLaunch, Math.min(nproj, (c + 1) * perLaunch));
        } catch (CLException e) {
            OpenClException failure = new OpenClException("opencl fdk: setting up " + kernelName + " on " + info + ": "
                    + CL.stringFor_errorCode(e.getStatus()), e);
            releaseAfter(failure);
            throw failure;
        } catch (RuntimeException e) {
            releaseAfter(e);
            throw e;
        }
    }

    /** Whether u and w are independent of z in every projection (matrix elements P[0][2] and P[2][2] zero). */
    private static boolean columnsApply(ConeGeometry g) {
        for (int p = 0; p < g.numProjections(); p++) {
            double[] m = g.matrix(p).m();
            if (m[2] != 0 || m[10] != 0) return false;
        }
        return true;
    }

    /** Refuses, before allocating, buffers beyond the device's limits, with the sizes asked for and the limits. */
    private void checkMemory(long projBytes, long slabBytes, long matBytes) {
        String[] what = {"the projections' bands (" + nproj + " projections x " + (maxBandRows + 2) + " x " + (cols + 2) + " floats)",
                "the slab (" + maxSlices + " slices x " + vol.n() + " x " + vol.n() + " floats)"};
        long[] bytes = {projBytes, slabBytes};
        for (int b = 0; b < bytes.length; b++)
            if (bytes[b] > ctx.maxAlloc)
                throw new OpenClException("opencl fdk: " + what[b] + " need " + bytes[b] + " bytes in one allocation but " + info
                        + " allows at most " + ctx.maxAlloc + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE); use thinner slabs (fewer "
                        + "slices, hence fewer band rows) or a device with more memory");
        long total = projBytes + slabBytes + matBytes;
        if (total > ctx.globalMem)
            throw new OpenClException("opencl fdk: the back-projection needs " + total + " bytes of device memory (" + what[0] + ": "
                    + projBytes + ", " + what[1] + ": " + slabBytes + ", matrices: " + matBytes + ") but " + info + " has "
                    + ctx.globalMem + " bytes (CL_DEVICE_GLOBAL_MEM_SIZE); use thinner slabs or a device with more memory");
    }

    /** The work-group: 16 × 8 voxel columns, halved while the kernel allows fewer work-items. */
    private void groupSize() {
        long[] most = new long[1];
        clGetKernelWorkGroupInfo(kernel.handle(), info.device(), CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t, Pointer.to(most), null);
        long x = GROUP_X, y = GROUP_Y;
        while (x * y > Math.min(most[0], ctx.maxWorkGroup) && x * y > 1) {
            if (y >= x) y /= 2;
            else x /= 2;
        }
        local[0] = x;
        local[1] = y;
        local[2] = 1;
    }

    /** The matrices of projections [from, to) in a constant buffer, row-major, in the kernel's coordinate type. */
    private cl_mem matrices(ConeGeometry g, int from, int to) {
        int count = to - from;
        long bytes = (long) count * MATRIX * (fp64 ? Sizeof.cl_double : Sizeof.cl_float);
        if (fp64) {
            double[] all = new double[count * MATRIX];
            for (int p = from; p < to; p++) System.arraycopy(g.matrix(p).m(), 0, all, (p - from) * MATRIX, MATRIX);
            return memory.buffer("projection matrices", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, Pointer.to(all));
        }
        float[] all = new float[count * MATRIX];
        for (int p = from; p < to; p++) {
            double[] m = g.matrix(p).m();
            for (int e = 0; e < MATRIX; e++) all[(p - from) * MATRIX + e] = (float) m[e];
        }
        return memory.buffer("projection matrices", CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, Pointer.to(all));
    }

    @Override
    public void backproject(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        if (closed) throw new IllegalStateException("opencl fdk: backproject() after close()");
        check(q, bandFirst, bandRows, k0, out);
        int nz = out.length;
        if (nz == 0 || bandRows == 0) return; // a slab that sees no detector row reads zeros only
        int n = vol.n(), pitch = cols + 2, stride = (bandRows + 2) * pitch;
        String step = "uploading the band";
        long bytes = (long) nproj * stride * Sizeof.cl_float;
        try {
            upload(q, bandRows, pitch, stride);
            step = "running " + kernelName;
            bytes = (long) nz * n * n * Sizeof.cl_float;
            // the rows a voxel may take: beyond them it reads zeros (outside the detector); within them the band holds
            // its four pixels, the padding included
            int vLo = Math.max(-1, bandFirst - 1), vHi = Math.min(rows - 1, bandFirst + bandRows - 1);
            // blocks of whole chunks of the volume's slices (kernels/fdk.cl): those the slab touches
            long[] global = {roundUp(n, local[0]), roundUp(n, local[1]), ceilDiv(k0 % slicesPerItem + nz, slicesPerItem)};
            for (int c = 0; c < mats.length; c++) {
                int p0 = c * perLaunch, np = Math.min(nproj, p0 + perLaunch) - p0;
                kernel.args().mem("proj", proj).mem("mats", mats[c]).i32("np", np).i32("p0", p0).i32("projStride", stride)
                        .i32("pitch", pitch).i32("cols", cols).i32("bandFirst", bandFirst).i32("vLo", vLo).i32("vHi", vHi).i32("n", n)
                        .i32("nzSlab", nz).i32("k0", k0).real("centreXy", (n - 1) / 2.0).real("centreZ", (vol.nz() - 1) / 2.0)
                        .real("s", vol.voxel()).mem("out", slab).i32("add", c == 0 ? 0 : 1).complete();
                clEnqueueNDRangeKernel(queue, kernel.handle(), 3, null, global, local, 0, null, null);
            }
            step = "reading the slab back";
            long plane = (long) n * n * Sizeof.cl_float;
            for (int k = 0; k < nz; k++) {
                clEnqueueReadBuffer(queue, slab, CL_TRUE, k * plane, plane, Pointer.to(slice), 0, null, null);
                float[] o = out[k];
                for (int v = 0; v < slice.length; v++) o[v] += slice[v];
            }
        } catch (CLException e) {
            throw memory.error(step + " (" + nz + " slices from rows " + bandFirst + " to " + (bandFirst + bandRows - 1) + ")", bytes,
                    e);
        }
    }

    /**
     * Writes every projection's band into the device's padded layout: rows of cols + 2 floats, one zero row above and
     * below each band and one zero pixel at both ends of each row. The padding is zeroed whenever the band's height,
     * and with it the layout, changes; the writes leave it untouched.
     */
    private void upload(float[][] q, int bandRows, int pitch, int stride) {
        if (layoutRows != bandRows) {
            long bytes = (long) nproj * stride * Sizeof.cl_float;
            clEnqueueFillBuffer(queue, proj, Pointer.to(new float[]{0f}), Sizeof.cl_float, 0, bytes, 0, null, null);
            layoutRows = -1; // until the band rows are written over the zeroed layout
        }
        long rowBytes = (long) cols * Sizeof.cl_float;
        long[] hostOrigin = {0, 0, 0}, region = {rowBytes, bandRows, 1};
        for (int p = 0; p < nproj; p++) {
            long[] origin = {Sizeof.cl_float, (long) p * (bandRows + 2) + 1, 0};
            clEnqueueWriteBufferRect(queue, proj, CL_TRUE, origin, hostOrigin, region, (long) pitch * Sizeof.cl_float, 0, rowBytes, 0,
                    Pointer.to(q[p]), 0, null, null);
        }
        layoutRows = bandRows;
    }

    private void check(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        if (q.length != nproj)
            throw new IllegalArgumentException("opencl fdk: " + q.length + " projections given, the geometry has " + nproj);
        if (bandRows < 0 || bandRows > maxBandRows)
            throw new IllegalArgumentException("opencl fdk: a band of " + bandRows + " rows; this instance holds at most " + maxBandRows);
        if (bandFirst < 0 || bandFirst + bandRows > rows)
            throw new IllegalArgumentException("opencl fdk: band rows [" + bandFirst + ", " + (bandFirst + bandRows)
                    + ") beyond the detector's " + rows + " rows");
        if (out.length > maxSlices)
            throw new IllegalArgumentException("opencl fdk: a slab of " + out.length + " slices; this instance holds at most " + maxSlices);
        if (k0 < 0 || k0 + out.length > vol.nz())
            throw new IllegalArgumentException("opencl fdk: slices [" + k0 + ", " + (k0 + out.length) + ") of a volume of " + vol.nz());
        for (int p = 0; p < nproj; p++)
            if (q[p].length < bandRows * cols)
                throw new IllegalArgumentException("opencl fdk: projection " + p + " holds " + q[p].length
                        + " values, less than its band of " + bandRows + " x " + cols);
        for (float[] s : out)
            if (s.length != vol.pixels())
                throw new IllegalArgumentException("opencl fdk: a slice of " + s.length + " voxels, the volume's hold " + vol.pixels());
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "opencl fdk, %s (%s column terms, %d slices per work-item, %d projections per launch), %s",
                kernelName, fp64 ? "double" : "float", slicesPerItem, perLaunch, info);
    }

    /** Releases what a failed construction had made, keeping any failure of the release with the original one. */
    private void releaseAfter(RuntimeException failure) {
        try {
            close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        CLException first = null;
        for (cl_mem m : mats == null ? new cl_mem[0] : mats) first = release(m, first);
        first = release(proj, first);
        first = release(slab, first);
        try {
            if (kernel != null) kernel.release();
        } catch (CLException e) {
            first = first == null ? e : first;
        }
        try {
            if (queue != null) clReleaseCommandQueue(queue);
        } catch (CLException e) {
            first = first == null ? e : first;
        }
        mats = null;
        proj = slab = null;
        kernel = null;
        queue = null;
        if (first != null)
            throw new OpenClException("opencl fdk: releasing the device's buffers, kernel or queue on " + info + ": "
                    + CL.stringFor_errorCode(first.getStatus()), first);
    }

    private static CLException release(cl_mem m, CLException first) {
        if (m == null) return first;
        try {
            clReleaseMemObject(m);
            return first;
        } catch (CLException e) {
            return first == null ? e : first;
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    private static long roundUp(long a, long b) {
        return (a + b - 1) / b * b;
    }

}
