package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;

import static jcuda.driver.JCudaDriver.cuMemsetD32;
import static org.tomospark.executor.backends.cuda.PaddedLayout.Kind.IMAGE;
import static org.tomospark.executor.backends.cuda.PaddedLayout.Kind.SINOGRAM;

/**
 * The iterative methods' Joseph projector pair on a CUDA device ({@link JosephKernels}, kernels/joseph.cu) with the
 * host-array interface of {@link Projector}: the matrix of the Java
 * {@link org.tomospark.executor.iterative.JosephProjector}, k interleaved slices per pass. Each call uploads its input,
 * projects on the executor's shared context and reads its result back; {@link CudaSolverOps} keeps whole solves on
 * the device instead. One caller at a time.
 */
public final class CudaProjector implements Projector, AutoCloseable {
    private final DeviceCalls calls;
    private final JosephKernels kernels;
    private final PaddedLayout layout;
    private final CUdeviceptr image = new CUdeviceptr(), sino = new CUdeviceptr(), scratch = new CUdeviceptr();
    private final Allocations allocated = new Allocations();
    private boolean closed;

    /**
     * @param device the backend's device option (an index or a Spark GPU address; empty for device 0)
     */
    public CudaProjector(ScanGeometry scan, SliceGeometry slice, int k, String device) {
        this.calls = new DeviceCalls(CudaDevice.get(CudaDevice.parseDevice(device)), "cuda projector");
        this.kernels = new JosephKernels(calls, scan, slice, k);
        this.layout = new PaddedLayout(kernels.shape());
        try {
            calls.run("allocating the projector's buffers", () -> {
                alloc(image, layout.floats(IMAGE));
                alloc(sino, layout.floats(SINOGRAM));
                alloc(scratch, layout.scratchFloats());
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public Shape shape() {
        return kernels.shape();
    }

    @Override
    public void forward(float[] img, float[] out, int[] which) {
        layout.checkHost(out, SINOGRAM);
        calls.run("the forward projection's transfers", () -> layout.upload(img, IMAGE, image, scratch));
        kernels.forward(image, sino, which);
        calls.run("the forward projection's transfers", () -> layout.downloadRows(sino, which, out, scratch));
    }

    @Override
    public void back(float[] in, float[] img, int[] which) {
        layout.checkHost(img, IMAGE);
        calls.run("the back-projection's transfers", () -> layout.upload(in, SINOGRAM, sino, scratch));
        kernels.back(sino, image, which);
        calls.run("the back-projection's transfers", () -> layout.download(image, IMAGE, img, scratch));
    }

    /** Seconds the last call's kernel took (launch to completion), without its transfers. */
    public double lastKernelSeconds() {
        return kernels.lastKernelSeconds();
    }

    /** The kernels chosen for this pass size. */
    public String kernels() {
        return kernels.describe();
    }

    private void alloc(CUdeviceptr d, long floats) {
        allocated.alloc(d, floats * Sizeof.FLOAT);
        cuMemsetD32(d, 0, floats);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        calls.device().makeCurrent();
        allocated.freeAll();
        kernels.close();
    }
}
