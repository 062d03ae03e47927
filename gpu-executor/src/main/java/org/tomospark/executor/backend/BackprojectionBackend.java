package org.tomospark.executor.backend;

import org.tomospark.executor.memory.SliceFrame;

/**
 * One back-projection implementation. Every backend follows the same lifecycle:
 * <ol>
 *   <li>{@link #setup(BackendOptions)}: choose the device, create or attach to its context;</li>
 *   <li>{@link #validate(BackprojectionJob)}: check the geometry and batch size against the device's limits,
 *       load kernels lazily and allocate; returns a {@link Requisition};</li>
 *   <li>{@link #process(SliceBatch, float[][])}, any number of times;</li>
 *   <li>{@link #close()}.</li>
 * </ol>
 * The API carries no JCuda/JOCL types. Implementations are not thread-safe: use one per task thread.
 */
public interface BackprojectionBackend extends AutoCloseable {

    /** The id selectable by configuration: java, cuda, opencl. */
    String id();

    void setup(BackendOptions options);

    Requisition validate(BackprojectionJob job);

    /**
     * Back-projects every sinogram of the batch. {@code out[s]} must hold roiRows × roiCols values and is
     * overwritten (row-major) with the reconstruction of sinogram s.
     */
    void process(SliceBatch batch, float[][] out);

    /**
     * Whether {@link #processRaw} works: the backend takes raw uint16 counts and does the flat/dark correction and −log
     * on its device, before filtering (after {@link #validate}; only backends that filter on the device).
     */
    default boolean correctsOnDevice() {
        return false;
    }

    /**
     * As {@link #process} for raw counts ({@link #correctsOnDevice}): corrects, filters and back-projects every slice
     * of the batch. Returns the number of transmissions raised to the floor.
     */
    default long processRaw(RawSliceBatch batch, float[][] out) {
        throw new UnsupportedOperationException(id() + " backend does not correct raw counts on a device");
    }

    /**
     * Whether this backend fills direct {@link SliceFrame}s without going through Java arrays (a device that copies
     * its results straight into them); otherwise the caller gives it heap frames.
     */
    default boolean fillsDirectFrames() {
        return false;
    }

    /** As {@link #process(SliceBatch, float[][])}, the outputs in slice frames (heap frames: their arrays). */
    default void process(SliceBatch batch, SliceFrame[] out) {
        float[][] arrays = SliceFrame.arrays(out);
        if (arrays != null) {
            process(batch, arrays);
            return;
        }
        float[][] tmp = arraysFor(batch.count(), out);
        process(batch, tmp);
        for (int i = 0; i < batch.count(); i++) out[i].copyFrom(tmp[i]);
    }

    /** As {@link #processRaw(RawSliceBatch, float[][])}, the outputs in slice frames (heap frames: their arrays). */
    default long processRaw(RawSliceBatch batch, SliceFrame[] out) {
        float[][] arrays = SliceFrame.arrays(out);
        if (arrays != null) return processRaw(batch, arrays);
        float[][] tmp = arraysFor(batch.count(), out);
        long clamped = processRaw(batch, tmp);
        for (int i = 0; i < batch.count(); i++) out[i].copyFrom(tmp[i]);
        return clamped;
    }

    /**
     * Arrays standing in for the first {@code count} of {@code out} (direct frames, for a backend that fills arrays); the
     * batch's contract is checked by the array method, which also sees a missing frame as a missing array.
     */
    private static float[][] arraysFor(int count, SliceFrame[] out) {
        float[][] tmp = new float[Math.min(count, out.length)][];
        for (int i = 0; i < tmp.length; i++) tmp[i] = out[i] == null ? null : new float[out[i].pixels()];
        return tmp;
    }

    BackendStats stats();

    /** How well this backend's device pipeline was fed so far ({@link PipelineTimes#NONE} where it has none). */
    default PipelineTimes pipelineTimes() {
        return PipelineTimes.NONE;
    }

    /** The device in words, e.g. "java: 2 threads, Vector API 256-bit". */
    String deviceDescription();

    @Override
    void close();
}
