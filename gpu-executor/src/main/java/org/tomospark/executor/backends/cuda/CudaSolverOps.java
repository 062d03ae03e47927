package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.backends.cuda.PaddedLayout.Kind;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;

import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoD;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD32;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The iterative methods on a CUDA device for the whole solve: every vector of the solvers lives in device
 * memory from the upload of the measurements to the download of the result, projected by the Joseph kernels
 * ({@link JosephKernels}) and updated and reduced by kernels/iterative.cu, so that no projection crosses the bus
 * between iterations. Vectors are padded ({@link PaddedLayout}); their buffers are kept for the next pass when
 * closed, and freed with the ops. Reductions are summed per block on the device and the blocks' sums in order on the
 * host, so results repeat bit for bit. Runs on the executor's shared context (the backend's device option); one
 * caller at a time.
 */
public final class CudaSolverOps implements SolverOps {
    private static final int THREADS = 256;
    /** Blocks of a reduction (IT_SUM_BLOCKS in kernels/iterative.cu): each sums its share per slice. */
    private static final int SUM_BLOCKS = 1024;
    /** The most blocks of an element-wise launch; the kernels stride over the rest. */
    private static final int MAX_BLOCKS = 1 << 20;

    private final DeviceCalls calls;
    private final JosephKernels kernels;
    private final PaddedLayout layout;
    private final CUmodule module;
    private final CUfunction reciprocal, weightedResidual, scaledUpdate, subtractFrom, axpy, xpby, counts, likelihood,
            ratioUpdate, sums, firstSlice, weightedUpdate, subsetResidual, offsetReciprocal, dataDual, tvDual, tvPrimal;
    private final CUdeviceptr scratch = new CUdeviceptr(), coef = new CUdeviceptr(), partials = new CUdeviceptr(),
            angles = new CUdeviceptr();
    private final Allocations allocated = new Allocations();
    private final Map<Kind, Deque<CUdeviceptr>> free = new EnumMap<>(Kind.class);
    private boolean closed;

    /**
     * @param device the backend's device option (an index or a Spark GPU address; empty for device 0)
     */
    public CudaSolverOps(ScanGeometry scan, SliceGeometry slice, int k, String device) {
        this.calls = new DeviceCalls(CudaDevice.get(CudaDevice.parseDevice(device)), "cuda iterative solver");
        this.kernels = new JosephKernels(calls, scan, slice, k);
        this.layout = new PaddedLayout(kernels.shape());
        KernelBuild build = KernelBuild.packaged();
        CUmodule m = null;
        try {
            m = calls.run("loading kernels/iterative", () -> CudaModules.load(build, "iterative"));
            reciprocal = CudaModules.function(build, m, KernelCalls.ItReciprocal.KERNEL);
            weightedResidual = CudaModules.function(build, m, KernelCalls.ItWeightedResidual.KERNEL);
            scaledUpdate = CudaModules.function(build, m, KernelCalls.ItScaledUpdate.KERNEL);
            subtractFrom = CudaModules.function(build, m, KernelCalls.ItSubtractFrom.KERNEL);
            axpy = CudaModules.function(build, m, KernelCalls.ItAxpy.KERNEL);
            xpby = CudaModules.function(build, m, KernelCalls.ItXpby.KERNEL);
            counts = CudaModules.function(build, m, KernelCalls.ItCounts.KERNEL);
            likelihood = CudaModules.function(build, m, KernelCalls.ItLikelihoodTerms.KERNEL);
            ratioUpdate = CudaModules.function(build, m, KernelCalls.ItRatioUpdate.KERNEL);
            sums = CudaModules.function(build, m, KernelCalls.ItSums.KERNEL);
            firstSlice = CudaModules.function(build, m, KernelCalls.ItFirstSlice.KERNEL);
            weightedUpdate = CudaModules.function(build, m, KernelCalls.ItWeightedUpdate.KERNEL);
            subsetResidual = CudaModules.function(build, m, KernelCalls.ItSubsetResidual.KERNEL);
            offsetReciprocal = CudaModules.function(build, m, KernelCalls.ItOffsetReciprocal.KERNEL);
            dataDual = CudaModules.function(build, m, KernelCalls.ItDataDual.KERNEL);
            tvDual = CudaModules.function(build, m, KernelCalls.ItTvDual.KERNEL);
            tvPrimal = CudaModules.function(build, m, KernelCalls.ItTvPrimal.KERNEL);
            calls.run("allocating the solver's buffers", () -> {
                alloc(scratch, layout.scratchFloats() * Sizeof.FLOAT);
                alloc(coef, (long) k * Sizeof.FLOAT);
                alloc(partials, (long) SUM_BLOCKS * k * Sizeof.DOUBLE);
                alloc(angles, (long) Math.max(1, scan.numProjections()) * Sizeof.INT);
            });
        } catch (RuntimeException e) {
            this.module = m;
            close();
            throw e;
        }
        this.module = m;
    }

    /** The most slices per pass the device solver takes by default. */
    public static final int MAX_DEFAULT_PASS = 32;
    /**
     * Slices per pass when the configuration leaves it to the backend: the group's slices up to {@link #MAX_DEFAULT_PASS}
     * (an H200 iterates 32 slices of 2048² from 2048 projections 1.7 times faster in one pass than in four of 8),
     * halved while a solve would take more than a quarter of the device's memory or half of what is free now (other
     * tasks sharing the device, job.tasksPerDevice, hold the rest).
     *
     * @param footprint the vectors the solver holds at once (the solver's footprint)
     */
    public static int defaultSlicesPerPass(ScanGeometry scan, SliceGeometry grid, SolveFootprint footprint, int groupSlices,
                                           String device) {
        CudaDevice dev = CudaDevice.get(CudaDevice.parseDevice(device));
        long[] free = new long[1], total = new long[1];
        DeviceCalls.guarded(dev, "reading the free device memory", () -> {
            dev.makeCurrent();
            return cuMemGetInfo(free, total);
        });
        long budget = Math.min(total[0] / 4, free[0] / 2);
        int k = Math.max(1, Math.min(MAX_DEFAULT_PASS, groupSlices));
        while (k > 1 && bytesPerSolve(scan, grid, footprint, k) > budget) k = (k + 1) / 2;
        return k;
    }

    /** Device memory of a solve of k slices: the solver's vectors (weight images of one slice) and the scratch buffer. */
    static long bytesPerSolve(ScanGeometry scan, SliceGeometry grid, SolveFootprint footprint, int k) {
        PaddedLayout l = new PaddedLayout(new Projector.Shape(k, grid.roiRows(), grid.roiCols(), scan.numProjections(),
                scan.detectorWidth()));
        long floats = footprint.images() * l.floats(Kind.IMAGE) + footprint.sinograms() * l.floats(Kind.SINOGRAM)
                + footprint.weights() * l.floats(Kind.WEIGHTS) + l.scratchFloats();
        return floats * Sizeof.FLOAT;
    }

    /** A padded device vector; closing it keeps its buffer for the next vector of its kind. */
    private final class CudaVec implements Vec {
        final Kind kind;
        final CUdeviceptr ptr;
        private boolean open = true;

        CudaVec(Kind kind, CUdeviceptr ptr) {
            this.kind = kind;
            this.ptr = ptr;
        }

        @Override
        public void close() {
            if (!open) return;
            open = false;
            if (!closed) free.computeIfAbsent(kind, x -> new ArrayDeque<>()).push(ptr);
        }
    }

    private CudaVec vec(Vec v, Kind kind) {
        if (!(v instanceof CudaVec c) || !c.open) throw new IllegalArgumentException("not an open vector of these ops: " + v);
        if (c.kind != kind)
            throw new IllegalArgumentException("a " + c.kind.name().toLowerCase() + " where a " + kind.name().toLowerCase() + " belongs");
        return c;
    }

    private CudaVec any(Vec v) {
        if (!(v instanceof CudaVec c) || !c.open) throw new IllegalArgumentException("not an open vector of these ops: " + v);
        return c;
    }

    /** A vector of k slices: per-slice coefficients and sums do not apply to a weight image, which has one. */
    private CudaVec perSlice(Vec v) {
        CudaVec c = any(v);
        if (c.kind == Kind.WEIGHTS) throw new IllegalArgumentException("a weight image has no slices to scale or sum one by one");
        return c;
    }

    private CudaVec newVec(Kind kind) {
        return calls.run("allocating a vector", () -> {
            Deque<CUdeviceptr> pool = free.get(kind);
            CUdeviceptr p = pool == null || pool.isEmpty() ? null : pool.pop();
            if (p == null) {
                p = new CUdeviceptr();
                alloc(p, layout.floats(kind) * Sizeof.FLOAT);
            }
            cuMemsetD32(p, 0, layout.floats(kind));
            return new CudaVec(kind, p);
        });
    }

    @Override
    public Projector.Shape shape() {
        return kernels.shape();
    }

    @Override
    public Vec image() {
        return newVec(Kind.IMAGE);
    }

    @Override
    public Vec sinogram() {
        return newVec(Kind.SINOGRAM);
    }

    @Override
    public Vec weights() {
        return newVec(Kind.WEIGHTS);
    }

    @Override
    public Vec row(float[] host) {
        CudaVec v = newVec(Kind.ROW);
        upload(host, v);
        return v;
    }

    @Override
    public void upload(float[] host, Vec dst) {
        CudaVec d = any(dst);
        calls.run("uploading a vector", () -> layout.upload(host, d.kind, d.ptr, scratch));
    }

    @Override
    public void download(Vec src, float[] host) {
        CudaVec s = any(src);
        calls.run("downloading a vector", () -> layout.download(s.ptr, s.kind, host, scratch));
    }

    @Override
    public void fill(Vec v, float value) {
        CudaVec d = any(v);
        calls.run("filling a vector", () -> layout.fill(d.ptr, d.kind, value));
    }

    @Override
    public void copy(Vec src, Vec dst) {
        CudaVec s = any(src), d = vec(dst, s.kind);
        calls.run("copying a vector", () -> cuMemcpyDtoD(d.ptr, s.ptr, layout.floats(s.kind) * Sizeof.FLOAT));
    }

    @Override
    public void forward(Vec x, Vec y, int[] which) {
        kernels.forward(vec(x, Kind.IMAGE).ptr, vec(y, Kind.SINOGRAM).ptr, which);
    }

    @Override
    public void back(Vec y, Vec x, int[] which) {
        kernels.back(vec(y, Kind.SINOGRAM).ptr, vec(x, Kind.IMAGE).ptr, which);
    }

    /** Seconds the last projection's kernel took. */
    public double lastKernelSeconds() {
        return kernels.lastKernelSeconds();
    }

    /** The projection kernels chosen for this pass size. */
    public String kernels() {
        return kernels.describe();
    }

    @Override
    public double[] dots(Vec a, Vec b) {
        return sums(perSlice(a), b, 0);
    }

    @Override
    public double[] distancesSquared(Vec a, Vec b) {
        return sums(a, b, 1);
    }

    @Override
    public double distanceSquared(Vec a, Vec b) {
        double t = 0;
        for (double d : sums(a, b, 1)) t += d;
        return t;
    }

    private double[] sums(Vec av, Vec bv, int mode) {
        CudaVec a = any(av), b = vec(bv, a.kind);
        int k = layout.slices(a.kind);
        return calls.run("a reduction", () -> {
            Pointer args = KernelCalls.itSums().a(a.ptr).b(b.ptr).mode(mode)
                    .n(layout.floats(a.kind)).k(k).partials(partials).build();
            cuLaunchKernel(sums, SUM_BLOCKS, 1, 1, THREADS, 1, 1, 0, null, args, null);
            return blockSums(k);
        });
    }

    /** The per-slice sums of a reduction's blocks ({@code partials[block·k + s]}), added in block order. */
    private double[] blockSums(int k) {
        double[] part = new double[SUM_BLOCKS * k];
        cuMemcpyDtoH(Pointer.to(part), partials, (long) part.length * Sizeof.DOUBLE);
        double[] out = new double[k];
        for (int blk = 0; blk < SUM_BLOCKS; blk++)
            for (int s = 0; s < k; s++) out[s] += part[blk * k + s];
        return out;
    }

    @Override
    public void reciprocal(Vec v) {
        CudaVec d = any(v);
        elementwise("reciprocal", reciprocal, d.kind,
                KernelCalls.itReciprocal().v(d.ptr).n(layout.floats(d.kind)));
    }

    @Override
    public void weightedResidual(Vec p, Vec y, Vec r) {
        elementwise("weighted residual", weightedResidual, Kind.SINOGRAM, KernelCalls.itWeightedResidual()
                .p(vec(p, Kind.SINOGRAM).ptr).y(vec(y, Kind.SINOGRAM).ptr).r(vec(r, Kind.SINOGRAM).ptr)
                .n(layout.floats(Kind.SINOGRAM)));
    }

    @Override
    public void scaledUpdate(Vec x, Vec c, Vec u, boolean nonNegative) {
        elementwise("scaled update", scaledUpdate, Kind.IMAGE, KernelCalls.itScaledUpdate()
                .x(vec(x, Kind.IMAGE).ptr).c(vec(c, Kind.IMAGE).ptr).u(vec(u, Kind.IMAGE).ptr)
                .n(layout.floats(Kind.IMAGE)).nonNegative(nonNegative ? 1 : 0));
    }

    @Override
    public void subtractFrom(Vec b, Vec r) {
        CudaVec bv = any(b), rv = vec(r, bv.kind);
        elementwise("subtraction", subtractFrom, bv.kind, KernelCalls.itSubtractFrom()
                .b(bv.ptr).r(rv.ptr).n(layout.floats(bv.kind)));
    }

    @Override
    public void axpy(float[] alpha, Vec x, Vec y) {
        CudaVec xv = perSlice(x), yv = vec(y, xv.kind);
        uploadCoefficients(alpha);
        elementwise("axpy", axpy, xv.kind, KernelCalls.itAxpy().coef(coef).x(xv.ptr)
                .y(yv.ptr).n(layout.floats(xv.kind)).k(shape().k()));
    }

    @Override
    public void xpby(Vec s, float[] beta, Vec d) {
        CudaVec sv = perSlice(s), dv = vec(d, sv.kind);
        uploadCoefficients(beta);
        elementwise("xpby", xpby, sv.kind, KernelCalls.itXpby().s(sv.ptr).coef(coef)
                .d(dv.ptr).n(layout.floats(sv.kind)).k(shape().k()));
    }

    @Override
    public void counts(Vec blank, Vec p, Vec out) {
        elementwise("measured counts", counts, Kind.SINOGRAM, KernelCalls.itCounts()
                .blank(vec(blank, Kind.ROW).ptr).p(vec(p, Kind.SINOGRAM).ptr).out(vec(out, Kind.SINOGRAM).ptr)
                .n(layout.floats(Kind.SINOGRAM)).rowLen((int) layout.pitchFloats(Kind.SINOGRAM)));
    }

    @Override
    public void likelihoodTerms(Vec line, Vec blank, Vec countsV, Vec rowSum, int[] which, Vec num, Vec den) {
        if (which.length == 0) return;
        int rowLen = (int) layout.pitchFloats(Kind.SINOGRAM);
        KernelArgs<?> args = KernelCalls.itLikelihoodTerms().line(vec(line, Kind.SINOGRAM).ptr)
                .blank(vec(blank, Kind.ROW).ptr).counts(vec(countsV, Kind.SINOGRAM).ptr)
                .rowSum(vec(rowSum, Kind.SINOGRAM).ptr).angles(angles).nangles(which.length)
                .rowLen(rowLen).num(vec(num, Kind.SINOGRAM).ptr).den(vec(den, Kind.SINOGRAM).ptr);
        calls.run("the likelihood terms", () -> {
            cuMemcpyHtoD(angles, Pointer.to(which), (long) which.length * Sizeof.INT);
            launch(likelihood, (long) which.length * rowLen, args);
        });
    }

    @Override
    public void ratioUpdate(Vec x, Vec num, Vec den) {
        elementwise("ratio update", ratioUpdate, Kind.IMAGE, KernelCalls.itRatioUpdate()
                .x(vec(x, Kind.IMAGE).ptr).num(vec(num, Kind.IMAGE).ptr).den(vec(den, Kind.IMAGE).ptr)
                .n(layout.floats(Kind.IMAGE)));
    }

    @Override
    public void firstSlice(Vec image, Vec w) {
        elementwise("first slice", firstSlice, Kind.WEIGHTS, KernelCalls.itFirstSlice()
                .image(vec(image, Kind.IMAGE).ptr).w(vec(w, Kind.WEIGHTS).ptr).n(layout.floats(Kind.WEIGHTS))
                .k(shape().k()));
    }

    @Override
    public void weightedUpdate(Vec x, Vec w, Vec u, boolean nonNegative) {
        elementwise("weighted update", weightedUpdate, Kind.IMAGE, KernelCalls.itWeightedUpdate()
                .x(vec(x, Kind.IMAGE).ptr).w(vec(w, Kind.WEIGHTS).ptr).u(vec(u, Kind.IMAGE).ptr)
                .n(layout.floats(Kind.IMAGE)).k(shape().k()).nonNegative(nonNegative ? 1 : 0));
    }

    @Override
    public double[] subsetResidual(Vec p, Vec y, Vec r, int[] which) {
        int k = shape().k();
        if (which.length == 0) return new double[k];
        int rowLen = (int) layout.pitchFloats(Kind.SINOGRAM);
        Pointer args = KernelCalls.itSubsetResidual().p(vec(p, Kind.SINOGRAM).ptr)
                .y(vec(y, Kind.SINOGRAM).ptr).r(vec(r, Kind.SINOGRAM).ptr).angles(angles)
                .nangles(which.length).rowLen(rowLen).k(k).partials(partials).build();
        return calls.run("the subset residual", () -> {
            cuMemcpyHtoD(angles, Pointer.to(which), (long) which.length * Sizeof.INT);
            cuLaunchKernel(subsetResidual, SUM_BLOCKS, 1, 1, THREADS, 1, 1, 0, null, args, null);
            return blockSums(k);
        });
    }

    @Override
    public void offsetReciprocal(Vec v, float offset) {
        CudaVec d = any(v);
        elementwise("offset reciprocal", offsetReciprocal, d.kind, KernelCalls.itOffsetReciprocal()
                .v(d.ptr).n(layout.floats(d.kind)).offset(offset).pitch((int) layout.pitchFloats(d.kind))
                .edge((int) layout.edgeFloats(d.kind)).guardLines((int) layout.guardLines(d.kind)));
    }

    @Override
    public void dataDual(Vec q, Vec y, Vec p, Vec sigma) {
        elementwise("data dual step", dataDual, Kind.SINOGRAM, KernelCalls.itDataDual()
                .q(vec(q, Kind.SINOGRAM).ptr).y(vec(y, Kind.SINOGRAM).ptr).p(vec(p, Kind.SINOGRAM).ptr)
                .sigma(vec(sigma, Kind.SINOGRAM).ptr).n(layout.floats(Kind.SINOGRAM)));
    }

    @Override
    public void tvDual(Vec zx, Vec zy, Vec xbar, float sigma, float[] weight) {
        Projector.Shape sh = shape();
        KernelArgs<?> args = KernelCalls.itTvDual().zx(vec(zx, Kind.IMAGE).ptr)
                .zy(vec(zy, Kind.IMAGE).ptr).xbar(vec(xbar, Kind.IMAGE).ptr).sigma(sigma).weight(coef)
                .rows(sh.rows()).cols(sh.cols()).k(sh.k()).guard(PaddedLayout.GUARD);
        uploadCoefficients(weight);
        calls.run("the TV dual step", () -> launch(tvDual, layout.hostFloats(Kind.IMAGE), args));
    }

    @Override
    public void tvPrimal(Vec x, Vec xbar, Vec u, Vec zx, Vec zy, Vec tau, boolean nonNegative) {
        Projector.Shape sh = shape();
        KernelArgs<?> args = KernelCalls.itTvPrimal().x(vec(x, Kind.IMAGE).ptr)
                .xbar(vec(xbar, Kind.IMAGE).ptr).u(vec(u, Kind.IMAGE).ptr).zx(vec(zx, Kind.IMAGE).ptr)
                .zy(vec(zy, Kind.IMAGE).ptr).tau(vec(tau, Kind.IMAGE).ptr).nonNegative(nonNegative ? 1 : 0)
                .rows(sh.rows()).cols(sh.cols()).k(sh.k()).guard(PaddedLayout.GUARD);
        calls.run("the TV primal step", () -> launch(tvPrimal, layout.hostFloats(Kind.IMAGE), args));
    }

    private void uploadCoefficients(float[] c) {
        if (c.length != shape().k())
            throw new IllegalArgumentException(c.length + " coefficients for " + shape().k() + " slices");
        calls.run("uploading coefficients", () -> cuMemcpyHtoD(coef, Pointer.to(c), (long) c.length * Sizeof.FLOAT));
    }

    private void elementwise(String what, CUfunction f, Kind kind, KernelArgs<?> args) {
        calls.run("the " + what, () -> launch(f, layout.floats(kind), args));
    }

    private void launch(CUfunction f, long n, KernelArgs<?> args) {
        int blocks = (int) Math.max(1, Math.min(MAX_BLOCKS, (n + THREADS - 1) / THREADS));
        cuLaunchKernel(f, blocks, 1, 1, THREADS, 1, 1, 0, null, args.build(), null);
        cuCtxSynchronize();
    }

    private void alloc(CUdeviceptr d, long bytes) {
        allocated.alloc(d, bytes);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        calls.device().makeCurrent();
        allocated.freeAll();
        free.clear();
        if (module != null) cuModuleUnload(module);
        kernels.close();
    }
}
