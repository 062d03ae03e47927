package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.PipelineTimes;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.util.Cancellation;

import java.nio.FloatBuffer;
import java.util.concurrent.ExecutorService;

import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;
import static jcuda.driver.JCudaDriver.cuStreamWaitEvent;

/**
 * The double-buffered chunk pipeline of one validated job: a batch is cut into chunks of the plan's size; while chunk
 * i is staged on the host and uploaded on the copy-in stream, chunk i−1 is computed on the compute stream (corrected
 * when raw counts were uploaded, filtered when the batch is unfiltered, interleaved, back-projected) and chunk i−2
 * downloaded on the copy-out stream; events order the streams per buffer. A chunk whose output frames are registered
 * direct frames ({@link FrameRegistry}) is downloaded straight into them, slice by slice; any other chunk into the
 * buffer's pinned memory, from which the host copy threads fill its frames. The pipeline times itself
 * ({@link PipelineTimes}): each chunk's compute on the device by events, the host's staging and waiting by its clock.
 */
final class ChunkPipeline {
    private final CudaStreams streams;
    private final DeviceBuffers buffers;
    private final KernelLauncher launcher;
    private final ExecutorService hostPool;
    private final CudaDevice dev;
    /** Per pipeline buffer: whether its chunk in flight was downloaded straight into its frames. */
    private final boolean[] straight = new boolean[2];
    private long computeNs, stageNs, waitNs, batchNs, chunksTimed;

    /** Host side of a chunk: fills pinned input buffer b with slices [first, first + n). */
    interface Stager {
        void stage(int b, int first, int n);
    }

    /** Copy-in stream side of a chunk: uploads pinned buffer b's n slices. */
    interface Uploader {
        void upload(int b, int n);
    }

    /** Compute stream side of a chunk before the filter: turns device input buffer b's n slices into sinograms. */
    interface Converter {
        void convert(int b, int n);
    }

    ChunkPipeline(CudaStreams streams, DeviceBuffers buffers, KernelLauncher launcher, ExecutorService hostPool, CudaDevice dev) {
        this.dev = dev;
        this.streams = streams;
        this.buffers = buffers;
        this.launcher = launcher;
        this.hostPool = hostPool;
    }

    /**
     * Runs {@code count} slices through the pipeline into {@code out}.
     *
     * @param filter    whether to ramp-filter the sinograms on the device
     * @param converter what the compute stream does first (the flat/dark correction of raw counts), or null
     * @param cancel    asked before each chunk: once cancelled, the chunks in flight finish and the run throws
     */
    void run(int count, boolean filter, Stager stager, Uploader uploader, Converter converter, SliceFrame[] out,
             Cancellation cancel) {
        DeviceBuffers.Shape sh = buffers.shape;
        int c = sh.plan().chunkSlices();
        int chunks = (count + c - 1) / c;
        long sliceOut = (long) sh.rows() * sh.cols();
        long t0 = System.nanoTime();
        for (int i = 0; i < chunks; i++) {
            if (cancel.requested()) {
                // nothing may still copy into a frame or a staging buffer once the caller has them back
                streams.synchronize();
                cancel.check("back-projecting chunk " + i + " of " + chunks);
            }
            int b = i & 1;
            if (i >= 2) deliver(b, (i - 2) * c, Math.min(c, count - (i - 2) * c), out);
            int first = i * c, n = Math.min(c, count - first);
            long s0 = System.nanoTime();
            stager.stage(b, first, n);
            stageNs += System.nanoTime() - s0;
            if (i >= 2) cuStreamWaitEvent(streams.in(), streams.computed[b], 0);
            uploader.upload(b, n);
            cuEventRecord(streams.uploaded[b], streams.in());
            cuStreamWaitEvent(streams.compute(), streams.uploaded[b], 0);
            cuEventRecord(streams.started[b], streams.compute());
            if (converter != null) converter.convert(b, n);
            if (filter) launcher.filter(buffers.in[b], (long) n * sh.np(), streams.compute());
            launcher.chunk(buffers.in[b], n, buffers.out[b], streams.compute(), Runnable::run);
            cuEventRecord(streams.computed[b], streams.compute());
            cuStreamWaitEvent(streams.out(), streams.computed[b], 0);
            straight[b] = registered(out, first, n);
            if (straight[b]) {
                for (int s = 0; s < n; s++)
                    cuMemcpyDtoHAsync(FrameRegistry.pixels(out[first + s]), buffers.out[b].withByteOffset(s * sliceOut * 4), sliceOut * 4,
                            streams.out());
            } else {
                cuMemcpyDtoHAsync(buffers.hostOut[b], buffers.out[b], n * sliceOut * 4, streams.out());
            }
            cuEventRecord(streams.downloaded[b], streams.out());
        }
        for (int i = Math.max(0, chunks - 2); i < chunks; i++)
            deliver(i & 1, i * c, Math.min(c, count - i * c), out);
        batchNs += System.nanoTime() - t0;
    }

    /** This pipeline's times so far. */
    PipelineTimes times() {
        return new PipelineTimes(computeNs, stageNs, waitNs, batchNs, chunksTimed);
    }

    /** The host copy threads. */
    int threads() {
        return HostCopyPool.threads(hostPool);
    }

    /** Runs a host task for each of n slices (or parts) on the copy threads. */
    void parallel(int n, HostCopyPool.SliceTask task) {
        HostCopyPool.parallel(hostPool, n, task);
    }

    /** Stages float sinograms: slices [first, first + n) of {@code sinograms} into pinned buffer b, in parallel. */
    void stageFloats(float[][] sinograms, int b, int first, int n) {
        FloatBuffer fb = buffers.floatsIn[b];
        long sliceIn = (long) buffers.shape.np() * buffers.shape.width();
        HostCopyPool.parallel(hostPool, n, s -> fb.put((int) (s * sliceIn), sinograms[first + s]));
    }

    /** Whether every frame of the chunk is a registered direct frame (registering those not yet registered). */
    private boolean registered(SliceFrame[] out, int first, int n) {
        for (int s = 0; s < n; s++) if (!FrameRegistry.ensure(out[first + s], dev)) return false;
        return true;
    }

    private void deliver(int b, int first, int n, SliceFrame[] out) {
        long w0 = System.nanoTime();
        cuEventSynchronize(streams.downloaded[b]);
        waitNs += System.nanoTime() - w0;
        float[] ms = new float[1];
        cuEventElapsedTime(ms, streams.started[b], streams.computed[b]);
        computeNs += (long) (ms[0] * 1e6);
        chunksTimed++;
        if (straight[b]) return;
        int sliceOut = buffers.shape.rows() * buffers.shape.cols();
        FloatBuffer fb = buffers.floatsOut[b];
        HostCopyPool.parallel(hostPool, n, s -> {
            SliceFrame f = out[first + s];
            if (f.isDirect()) f.floats().put(0, fb, s * sliceOut, sliceOut);
            else fb.get(s * sliceOut, f.array());
        });
    }
}
