package org.tomospark.executor.backends.cuda;

import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import org.tomospark.executor.backend.KernelTimer.Timing;
import org.tomospark.executor.backend.SliceBatch;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;

/**
 * Times the pipeline's own launches for one chunk with device events, on data uploaded once: the back-projection
 * launches only (benchmarks), or the whole chunk with its interleave and entries kernels (auto-tuning: the entries
 * array is a cost of the variants that keep one).
 */
final class ChunkTimer {
    private final CudaStreams streams;
    private final DeviceBuffers buffers;
    private final KernelLauncher launcher;

    ChunkTimer(CudaStreams streams, DeviceBuffers buffers, KernelLauncher launcher) {
        this.streams = streams;
        this.buffers = buffers;
        this.launcher = launcher;
    }

    /**
     * @param withPrep time the whole chunk, not the back-projection launches alone
     * @param description what was timed, for the result
     */
    Timing time(SliceBatch batch, int warmup, int reps, boolean withPrep, String description) {
        DeviceBuffers.Shape sh = buffers.shape;
        CUstream s = streams.compute();
        int n = Math.min(batch.count(), sh.plan().chunkSlices());
        long sliceIn = (long) sh.np() * sh.width();
        for (int i = 0; i < n; i++) buffers.floatsIn[0].put((int) (i * sliceIn), batch.sinograms()[i]);
        cuMemcpyHtoDAsync(buffers.in[0], buffers.hostIn[0], n * sliceIn * 4, s);
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
                    cuEventRecord(e0, s);
                    launcher.chunk(buffers.in[0], n, buffers.out[0], s, Runnable::run);
                    cuEventRecord(e1, s);
                    timed.run();
                } else {
                    launcher.chunk(buffers.in[0], n, buffers.out[0], s, launch -> {
                        cuEventRecord(e0, s);
                        launch.run();
                        cuEventRecord(e1, s);
                        timed.run();
                    });
                }
                if (r >= 0) ms[r] = total[0];
            }
        } finally {
            cuEventDestroy(e0);
            cuEventDestroy(e1);
        }
        return new Timing(ms, (long) n * sh.rows() * sh.cols() * sh.np(), description);
    }
}
