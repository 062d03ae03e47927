package org.tomospark.executor.backend.cuda;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Projector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The iterative methods' Joseph projector pair on a CUDA device (kernels/joseph.cu): the matrix of the Java
 * {@link org.tomospark.executor.iterative.JosephProjector}, k interleaved slices per pass. The image, the sinogram
 * and the geometry tables live on the device for the projector's life; each call uploads its input (for a subset of
 * the projections, only their sinogram rows), runs one kernel on the executor's shared context and reads its result
 * back. A thread of either kernel computes a step's weights once for a run of slices (the largest of 32, 16, 8, 4
 * and 1 that divides k). One caller at a time.
 */
public final class CudaProjector implements Projector, AutoCloseable {
    private static final int THREADS = 256;
    /** The kernels' runs of slices per thread (kernels/joseph.cu); a pass uses the largest that divides its k. */
    private static final int[] RUNS = {32, 16, 8, 4, 1};
    /**
     * The grouped kernels: slices per thread, and projections (joseph_forward_cC_aA) or image rows (joseph_back_cC_rR)
     * per thread, so that a thread holds 32 sums either way.
     */
    private static final int[] GROUP_RUNS = {8, 4};
    private static final int GROUP_SUMS = 32;

    private final Shape shape;
    /** Slices per thread: the geometry of a step is computed once for them. */
    private final int run;
    private final CudaDevice dev;
    private final KernelBuild build;
    private final CUmodule module;
    private final CUfunction forward;
    /** The grouped forward projection and adjoint, or null: projections and image rows one at a time. */
    private final CUfunction forwardGroup;
    private final CUfunction backGroup;
    /** Slices per thread of the grouped kernels, and projections or image rows per thread. */
    private final int groupRun;
    private final int groupSize;
    private final CUfunction back;
    private final CUdeviceptr image = new CUdeviceptr(), sino = new CUdeviceptr(), angles = new CUdeviceptr();
    private final CUdeviceptr cosT = new CUdeviceptr(), sinT = new CUdeviceptr(), offT = new CUdeviceptr();
    private final List<CUdeviceptr> allocated = new ArrayList<>();
    private boolean closed;
    private volatile double kernelSeconds;

    /**
     * @param device the backend's device option (an index or a Spark GPU address; empty for device 0)
     */
    public CudaProjector(ScanGeometry scan, SliceGeometry slice, int k, String device) {
        this(scan, slice, k, device, defaultGroupRun(k));
    }

    /** The grouped kernels' slices per thread for a pass of k slices: the first of {@link #GROUP_RUNS} dividing k, or 0. */
    static int defaultGroupRun(int k) {
        for (int r : GROUP_RUNS) if (k % r == 0) return r;
        return 0;
    }

    /**
     * @param groupRun slices per thread of the grouped kernels (8 or 4; k must be a multiple): a thread projects
     *                 32 / groupRun projections (forward) or gathers 32 / groupRun image rows (adjoint), so that one
     *                 read of the image or of a sinogram row serves them; 0: one projection or image row at a time
     */
    public CudaProjector(ScanGeometry scan, SliceGeometry slice, int k, String device, int groupRun) {
        if (groupRun != 0 && (k % groupRun != 0 || Arrays.stream(GROUP_RUNS).noneMatch(r -> r == groupRun)))
            throw new IllegalArgumentException("cuda projector: grouped kernels of " + groupRun + " slices a thread need one of "
                    + Arrays.toString(GROUP_RUNS) + " dividing the " + k + " slices per pass");
        if (k < 1) throw new IllegalArgumentException("cuda projector: slices per pass must be >= 1, got " + k);
        this.shape = new Shape(k, slice.roiRows(), slice.roiCols(), scan.numProjections(), scan.detectorWidth());
        this.run = runOf(k);
        this.groupRun = groupRun;
        this.groupSize = groupRun == 0 ? 1 : GROUP_SUMS / groupRun;
        this.dev = CudaDevice.get(CudaDevice.parseDevice(device));
        this.build = KernelBuild.packaged();
        dev.makeCurrent();
        this.module = guarded("loading kernels/joseph", () -> CudaModules.load(build, "joseph"));
        try {
            forward = CudaModules.function(build, module, "joseph_forward_c" + run);
            back = CudaModules.function(build, module, "joseph_back_c" + run);
            forwardGroup = groupRun == 0 ? null
                    : CudaModules.function(build, module, "joseph_forward_c" + groupRun + "_a" + groupSize);
            backGroup = groupRun == 0 ? null : CudaModules.function(build, module, "joseph_back_c" + groupRun + "_r" + groupSize);
            ProjectionTables t = new ProjectionTables(scan, slice);
            int np = shape.projections();
            double[] c = new double[np], s = new double[np], o = new double[np];
            for (int p = 0; p < np; p++) {
                c[p] = t.cos(p);
                s[p] = t.sin(p);
                o[p] = t.offset(p);
            }
            guarded("allocating the projector's buffers", () -> {
                alloc(image, (long) shape.rows() * shape.cols() * k * Sizeof.FLOAT);
                alloc(sino, (long) np * shape.width() * k * Sizeof.FLOAT);
                alloc(angles, (long) np * Sizeof.INT);
                for (CUdeviceptr d : new CUdeviceptr[]{cosT, sinT, offT}) alloc(d, (long) np * Sizeof.DOUBLE);
                cuMemcpyHtoD(cosT, Pointer.to(c), (long) np * Sizeof.DOUBLE);
                cuMemcpyHtoD(sinT, Pointer.to(s), (long) np * Sizeof.DOUBLE);
                cuMemcpyHtoD(offT, Pointer.to(o), (long) np * Sizeof.DOUBLE);
                return null;
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public Shape shape() {
        return shape;
    }

    @Override
    public void forward(float[] img, float[] out, int[] which) {
        check(img, out);
        if (which.length == 0) return;
        int k = shape.k(), row = shape.width() * k;
        guarded("the forward projection", () -> {
            dev.makeCurrent();
            cuMemcpyHtoD(image, Pointer.to(img), (long) img.length * Sizeof.FLOAT);
            cuMemcpyHtoD(angles, Pointer.to(which), (long) which.length * Sizeof.INT);
            long t0;
            if (forwardGroup != null) {
                Pointer args = KernelArgs.of(KernelArgs.Signature.JOSEPH_FORWARD_GROUP).ptr("img", image).ptr("sino", sino)
                        .ptr("cosT", cosT).ptr("sinT", sinT).ptr("offT", offT).ptr("angles", angles)
                        .i32("nangles", which.length).i32("rows", shape.rows()).i32("cols", shape.cols())
                        .i32("width", shape.width()).i32("k", k).build();
                t0 = System.nanoTime();
                cuLaunchKernel(forwardGroup, blocks((long) shape.width() * (k / groupRun)),
                        (which.length + groupSize - 1) / groupSize, 1, THREADS, 1, 1, 0, null, args, null);
            } else {
                Pointer args = KernelArgs.of(KernelArgs.Signature.JOSEPH_FORWARD).ptr("img", image).ptr("sino", sino)
                        .ptr("cosT", cosT).ptr("sinT", sinT).ptr("offT", offT).ptr("angles", angles)
                        .i32("rows", shape.rows()).i32("cols", shape.cols()).i32("width", shape.width()).i32("k", k).build();
                t0 = System.nanoTime();
                cuLaunchKernel(forward, blocks((long) shape.width() * (k / run)), which.length, 1, THREADS, 1, 1, 0, null, args,
                        null);
            }
            cuCtxSynchronize();
            kernelSeconds = (System.nanoTime() - t0) / 1e9;
            if (which.length == shape.projections()) {
                cuMemcpyDtoH(Pointer.to(out), sino, (long) out.length * Sizeof.FLOAT);
            } else {
                for (int p : which)
                    cuMemcpyDtoH(Pointer.to(out).withByteOffset((long) p * row * Sizeof.FLOAT),
                            sino.withByteOffset((long) p * row * Sizeof.FLOAT), (long) row * Sizeof.FLOAT);
            }
            return null;
        });
    }

    @Override
    public void back(float[] in, float[] img, int[] which) {
        check(img, in);
        int k = shape.k(), row = shape.width() * k;
        guarded("the back-projection", () -> {
            dev.makeCurrent();
            if (which.length == shape.projections()) {
                cuMemcpyHtoD(sino, Pointer.to(in), (long) in.length * Sizeof.FLOAT);
            } else {
                for (int p : which)
                    cuMemcpyHtoD(sino.withByteOffset((long) p * row * Sizeof.FLOAT),
                            Pointer.to(in).withByteOffset((long) p * row * Sizeof.FLOAT), (long) row * Sizeof.FLOAT);
            }
            cuMemcpyHtoD(angles, Pointer.to(which), (long) Math.max(1, which.length) * Sizeof.INT);
            Pointer args = KernelArgs.of(KernelArgs.Signature.JOSEPH_BACK).ptr("sino", sino).ptr("img", image)
                    .ptr("cosT", cosT).ptr("sinT", sinT).ptr("offT", offT).ptr("angles", angles)
                    .i32("nangles", which.length).i32("rows", shape.rows()).i32("cols", shape.cols())
                    .i32("width", shape.width()).i32("k", k).build();
            long t0 = System.nanoTime();
            if (backGroup != null)
                cuLaunchKernel(backGroup, blocks((long) shape.cols() * (k / groupRun)),
                        (shape.rows() + groupSize - 1) / groupSize, 1, THREADS, 1, 1, 0, null, args, null);
            else
                cuLaunchKernel(back, blocks((long) shape.cols() * (k / run)), shape.rows(), 1, THREADS, 1, 1, 0, null, args, null);
            cuCtxSynchronize();
            kernelSeconds = (System.nanoTime() - t0) / 1e9;
            cuMemcpyDtoH(Pointer.to(img), image, (long) img.length * Sizeof.FLOAT);
            return null;
        });
    }

    static int runOf(int k) {
        for (int r : RUNS) if (k % r == 0) return r;
        throw new IllegalStateException("no run divides " + k);
    }

    /** Seconds the last call's kernel took (launch to completion), without its transfers. */
    public double lastKernelSeconds() {
        return kernelSeconds;
    }

    private void alloc(CUdeviceptr d, long bytes) {
        cuMemAlloc(d, bytes);
        allocated.add(d);
    }

    private static int blocks(long threads) {
        return (int) ((threads + THREADS - 1) / THREADS);
    }

    private void check(float[] img, float[] s) {
        int k = shape.k();
        if (img.length != shape.rows() * shape.cols() * k)
            throw new IllegalArgumentException("image holds " + img.length + " floats, expected " + shape.rows() + "x"
                    + shape.cols() + "x" + k);
        if (s.length != shape.projections() * shape.width() * k)
            throw new IllegalArgumentException("sinogram holds " + s.length + " floats, expected " + shape.projections() + "x"
                    + shape.width() + "x" + k);
    }

    /** Runs driver calls; a CUDA error becomes a {@link CudaException}, and a sticky one marks the device unusable. */
    private <T> T guarded(String what, Supplier<T> body) {
        dev.checkUsable();
        try {
            return body.get();
        } catch (jcuda.CudaException e) {  // JCuda's, not this package's CudaException
            String name = CudaException.nameFrom(e.getMessage());
            if (CudaException.isSticky(name)) dev.markUnusable(name + " while running " + what);
            throw new CudaException("cuda projector: " + what + " on " + dev.describe(), name, e);
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        dev.makeCurrent();
        for (CUdeviceptr d : allocated) cuMemFree(d);
        allocated.clear();
        if (module != null) cuModuleUnload(module);
    }
}
