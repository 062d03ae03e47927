package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;
import org.tomospark.executor.backend.RawSliceBatch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;

import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemsetD32Async;

/**
 * Flat/dark correction and −log of raw uint16 counts on the device (kernels/preprocess.cu {@code correct_u16}), for
 * the chunk pipeline of {@link CudaBackend}: a chunk's counts are staged in its pinned input buffer as
 * [projection][slice][column] (each projection's rows of the chunk are contiguous in the band, so a projection is one
 * copy) with the chunk's dark and denominator rows after them, uploaded (half the bytes of
 * float sinograms), and corrected into the chunk's sinogram buffer, which the ramp filter then reads in place.
 * Two device buffers, one per pipeline buffer; one counter of the transmissions raised to the floor.
 */
final class DeviceCorrection {
    static final int THREADS = 256;

    private final CUfunction fn;
    private final int chunk, np, width;
    private final long fieldsOffset;
    private final CUdeviceptr[] raw = new CUdeviceptr[2];
    private final CUdeviceptr clamped;

    /** Device bytes of one buffer: the counts of a chunk, 256-byte aligned, then its dark and denominator rows. */
    static long bufferBytes(int chunk, int np, int width) {
        return countsBytes(chunk, np, width) + 2L * chunk * width * 4;
    }

    private static long countsBytes(int chunk, int np, int width) {
        return ((long) chunk * np * width * 2 + 255) / 256 * 256;
    }

    /** Device bytes the correction adds to the pipeline: two buffers and the counter. */
    static long deviceBytes(int chunk, int np, int width) {
        return 2 * bufferBytes(chunk, np, width) + 8;
    }

    DeviceCorrection(CUfunction fn, int chunk, int np, int width) {
        this.fn = fn;
        this.chunk = chunk;
        this.np = np;
        this.width = width;
        this.fieldsOffset = countsBytes(chunk, np, width);
        for (int b = 0; b < 2; b++) {
            raw[b] = new CUdeviceptr();
            cuMemAlloc(raw[b], bufferBytes(chunk, np, width));
        }
        clamped = new CUdeviceptr();
        cuMemAlloc(clamped, 8);
    }

    /** Whether a pinned buffer of {@code pinnedBytes} can stage a chunk (it is sized for float sinograms). */
    static boolean fits(long pinnedBytes, int chunk, int np, int width) {
        return bufferBytes(chunk, np, width) <= pinnedBytes;
    }

    /**
     * Host side: part {@code part} of {@code parts} of the counts of batch slices [first, first + n), staged in a pinned
     * buffer as the device buffer holds them, [projection][slice][column] (a contiguous run of each projection's rows).
     * The parts split the projections; they may be staged on several threads at once.
     */
    void stageCounts(RawSliceBatch batch, int first, int n, int part, int parts, ByteBuffer pinned) {
        ShortBuffer counts = pinned.duplicate().order(ByteOrder.nativeOrder()).position(0).limit((int) fieldsOffset).slice()
                .order(ByteOrder.nativeOrder()).asShortBuffer();
        int p0 = (int) ((long) np * part / parts), p1 = (int) ((long) np * (part + 1) / parts);
        batch.copyCountsByProjection(first, n, p0, p1, counts);
    }

    /** Host side: the dark and denominator rows of slices [first, first + n) after the chunk's counts. */
    void stageFields(RawSliceBatch batch, int first, int n, ByteBuffer pinned) {
        FloatBuffer fields = pinned.duplicate().order(ByteOrder.nativeOrder()).limit((int) bufferBytes(chunk, np, width))
                .position((int) fieldsOffset).slice().order(ByteOrder.nativeOrder()).asFloatBuffer();
        fields.put(0, batch.dark(), first * width, n * width);
        fields.put(chunk * width, batch.den(), first * width, n * width);
    }

    /** Uploads a staged chunk of n slices into device buffer {@code b}: the counts, then the field rows. */
    void upload(int b, Pointer pinned, int n, CUstream s) {
        cuMemcpyHtoDAsync(raw[b], pinned, (long) n * np * width * 2, s);
        cuMemcpyHtoDAsync(raw[b].withByteOffset(fieldsOffset), pinned.withByteOffset(fieldsOffset), 2L * chunk * width * 4, s);
    }

    /** Corrects the n slices of device buffer {@code b} into {@code out} ([slice][projection][column] floats). */
    void launch(int b, CUdeviceptr out, int n, float transmissionFloor, CUstream s) {
        CUdeviceptr fields = raw[b].withByteOffset(fieldsOffset);
        Pointer args = KernelCalls.correct()
                .raw(raw[b]).dark(fields).den(fields.withByteOffset((long) chunk * width * 4))
                .out(out).width(width).np(np).floorTr(transmissionFloor).clamped(clamped)
                .build();
        cuLaunchKernel(fn, (width + THREADS - 1) / THREADS, np, n, THREADS, 1, 1, 0, s, args, null);
    }

    /** Zeroes the clamp counter (on the stream, before a batch's first launch). */
    void resetCount(CUstream s) {
        cuMemsetD32Async(clamped, 0, 2, s);
    }

    /** The transmissions clamped since {@link #resetCount} (after the launches have completed). */
    long count() {
        long[] n = new long[1];
        cuMemcpyDtoH(Pointer.to(n), clamped, 8);
        return n[0];
    }

    void free() {
        for (CUdeviceptr p : raw) if (p != null) cuMemFree(p);
        cuMemFree(clamped);
    }
}
