package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

import java.util.List;

import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The Joseph projector pair's kernels (kernels/joseph.cu) for one geometry and pass size on one device: the module,
 * the kernel variants chosen for k, the per-projection table ({@link JosephTables}) and the list of projections of a
 * call, on the device. Projects between padded device vectors ({@link PaddedLayout}); callers own those. Driver calls
 * only; one caller at a time.
 */
final class JosephKernels implements AutoCloseable {
    static final int THREADS = KernelFacts.JOSEPH_THREADS;

    /**
     * A kernel of the family: C slices a thread, U rays (forward) or R image rows (adjoint) a thread, A projections a
     * thread (forward), B groups a block.
     */
    record Variant(String name, int c, int perThread, int a, int b) {
        boolean fits(int k) {
            return k % c == 0 && (long) (k / c) * b <= THREADS;
        }
    }

    /** Preference order; the last of each fits every k up to {@link #THREADS} (kernels/joseph.cuh, the product set). */
    static final List<Variant> FORWARD = KernelFacts.JOSEPH_FORWARD_KERNELS.stream()
            .map(v -> new Variant(v.name(), v.c(), v.u(), v.a(), v.b())).toList();
    static final List<Variant> BACK = KernelFacts.JOSEPH_BACK_KERNELS.stream()
            .map(v -> new Variant(v.name(), v.c(), v.r(), 1, v.b())).toList();

    static Variant choose(List<Variant> family, int k) {
        for (Variant v : family) if (v.fits(k)) return v;
        throw new IllegalArgumentException("config key backend.slicesPerPass: the cuda projector takes at most " + THREADS
                + " slices per pass, got " + k);
    }

    private final DeviceCalls calls;
    private final Projector.Shape shape;
    private final Variant fwd, bwd;
    private final CUmodule module;
    private final CUfunction forward, back;
    private final CUdeviceptr tab = new CUdeviceptr(), ftab = new CUdeviceptr(), angles = new CUdeviceptr();
    private final Allocations allocated = new Allocations();
    private boolean closed;
    private double kernelSeconds;

    JosephKernels(DeviceCalls calls, ScanGeometry scan, SliceGeometry slice, int k) {
        if (k < 1) throw new IllegalArgumentException("cuda projector: slices per pass must be >= 1, got " + k);
        this.calls = calls;
        this.shape = new Projector.Shape(k, slice.roiRows(), slice.roiCols(), scan.numProjections(), scan.detectorWidth());
        this.fwd = choose(FORWARD, k);
        this.bwd = choose(BACK, k);
        KernelBuild build = KernelBuild.packaged();
        this.module = calls.run("loading kernels/joseph", () -> CudaModules.load(build, "joseph"));
        try {
            forward = CudaModules.function(build, module, fwd.name());
            back = CudaModules.function(build, module, bwd.name());
            JosephTables t = new JosephTables(new ProjectionTables(scan, slice));
            int np = shape.projections();
            calls.run("uploading the projection table", () -> {
                alloc(tab, (long) t.tab.length * Sizeof.LONG);
                alloc(ftab, (long) t.ftab.length * Sizeof.FLOAT);
                alloc(angles, (long) np * Sizeof.INT);
                cuMemcpyHtoD(tab, Pointer.to(t.tab), (long) t.tab.length * Sizeof.LONG);
                cuMemcpyHtoD(ftab, Pointer.to(t.ftab), (long) t.ftab.length * Sizeof.FLOAT);
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    Projector.Shape shape() {
        return shape;
    }

    /** The sinogram rows {@code which} of sino ← A·img (padded device vectors); other rows untouched. */
    void forward(CUdeviceptr img, CUdeviceptr sino, int[] which) {
        if (which.length == 0) return;
        calls.run("the forward projection", () -> {
            cuMemcpyHtoD(angles, Pointer.to(which), (long) which.length * Sizeof.INT);
            Pointer args = KernelCalls.josephForward().img(img).sino(sino)
                    .tab(tab).ftab(ftab).angles(angles).nangles(which.length)
                    .rows(shape.rows()).cols(shape.cols()).width(shape.width()).k(shape.k()).build();
            int perBlock = THREADS / (fwd.b() * (shape.k() / fwd.c()));
            int rayGroups = ceil(shape.width(), fwd.perThread()), groups = ceil(which.length, fwd.a());
            launch(forward, ceil(rayGroups, perBlock), ceil(groups, fwd.b()), args);
        });
    }

    /** img ← Aᵀ·sino over the projections {@code which} (padded device vectors); only their rows are read. */
    void back(CUdeviceptr sino, CUdeviceptr img, int[] which) {
        calls.run("the back-projection", () -> {
            cuMemcpyHtoD(angles, Pointer.to(which), (long) Math.max(1, which.length) * Sizeof.INT);
            Pointer args = KernelCalls.josephBack().sino(sino).img(img)
                    .tab(tab).ftab(ftab).angles(angles).nangles(which.length)
                    .rows(shape.rows()).cols(shape.cols()).width(shape.width()).k(shape.k()).build();
            int perBlock = THREADS / (bwd.b() * (shape.k() / bwd.c()));
            int bands = ceil(shape.rows(), bwd.perThread());
            launch(back, ceil(shape.cols(), perBlock), ceil(bands, bwd.b()), args);
        });
    }

    private void launch(CUfunction f, int gridX, int gridY, Pointer args) {
        long t0 = System.nanoTime();
        cuLaunchKernel(f, gridX, gridY, 1, THREADS, 1, 1, 0, null, args, null);
        cuCtxSynchronize();
        kernelSeconds = (System.nanoTime() - t0) / 1e9;
    }

    /** Seconds the last projection's kernel took (launch to completion). */
    double lastKernelSeconds() {
        return kernelSeconds;
    }

    /** The kernels chosen for this pass size. */
    String describe() {
        return fwd.name() + " / " + bwd.name();
    }

    private void alloc(CUdeviceptr d, long bytes) {
        allocated.alloc(d, bytes);
    }

    private static int ceil(int a, int b) {
        return (a + b - 1) / b;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        calls.device().makeCurrent();
        allocated.freeAll();
        if (module != null) cuModuleUnload(module);
    }
}
