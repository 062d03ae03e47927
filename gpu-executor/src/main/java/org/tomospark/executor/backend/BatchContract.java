package org.tomospark.executor.backend;

import org.tomospark.executor.memory.SliceFrame;

import java.util.function.IntUnaryOperator;

/**
 * What every backend checks of a batch before it touches its device: the batch fits the job it validated (the same
 * projections and detector width, no more slices than the validated maximum), there is an output array of the ROI's
 * size for every slice, and an unfiltered batch goes only to a backend that filters on its device. Each violation is an
 * {@link IllegalArgumentException} that names the backend, the batch's first row and, for an output, the slice.
 */
public final class BatchContract {
    private BatchContract() {
    }

    /**
     * @param backend         the backend's id, for the messages
     * @param job             the job the backend validated
     * @param filtersOnDevice whether the backend's {@link Requisition} for the job said it filters on the device
     */
    public static void check(String backend, BackprojectionJob job, SliceBatch batch, float[][] out, boolean filtersOnDevice) {
        checkShape(backend, job, batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out == null ? -1 : out.length,
                s -> out[s] == null ? -1 : out[s].length);
        checkFiltered(backend, batch, filtersOnDevice);
    }

    /** As above, the outputs in slice frames. */
    public static void check(String backend, BackprojectionJob job, SliceBatch batch, SliceFrame[] out, boolean filtersOnDevice) {
        checkShape(backend, job, batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out == null ? -1 : out.length,
                s -> out[s] == null ? -1 : out[s].pixels());
        checkFiltered(backend, batch, filtersOnDevice);
    }

    private static void checkFiltered(String backend, SliceBatch batch, boolean filtersOnDevice) {
        if (!batch.filtered() && !filtersOnDevice)
            throw new IllegalArgumentException(backend + " backend expects filtered sinograms: the batch at row "
                    + batch.firstRow() + " is unfiltered, and the validated job filters on the host (Requisition.filtersOnDevice "
                    + "is false: no BackprojectionJob.deviceFilter, or the backend cannot filter this width on its device)");
    }

    /** As {@link #check(String, BackprojectionJob, SliceBatch, float[][], boolean)} for raw counts, which are never filtered. */
    public static void check(String backend, BackprojectionJob job, RawSliceBatch batch, float[][] out) {
        checkShape(backend, job, batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out == null ? -1 : out.length,
                s -> out[s] == null ? -1 : out[s].length);
    }

    /** As above, the outputs in slice frames. */
    public static void check(String backend, BackprojectionJob job, RawSliceBatch batch, SliceFrame[] out) {
        checkShape(backend, job, batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out == null ? -1 : out.length,
                s -> out[s] == null ? -1 : out[s].pixels());
    }

    /** {@code outs}: the outputs given (−1: none); {@code length}: output s's values (−1: missing). */
    private static void checkShape(String backend, BackprojectionJob job, int firstRow, int projections, int width, int count,
                                   int outs, IntUnaryOperator length) {
        int np = job.scan().numProjections(), w = job.scan().detectorWidth();
        if (projections != np || width != w)
            throw new IllegalArgumentException(backend + " backend: the batch at row " + firstRow + " is " + projections + "x"
                    + width + " (projections x columns) but the validated geometry is " + np + "x" + w);
        if (count > job.maxSlicesPerBatch())
            throw new IllegalArgumentException(backend + " backend: the batch at row " + firstRow + " holds " + count
                    + " slices, more than the validated maximum " + job.maxSlicesPerBatch());
        if (outs < count)
            throw new IllegalArgumentException(backend + " backend: the batch at row " + firstRow + " holds " + count
                    + " slices but " + Math.max(0, outs) + " output arrays were given");
        int pixels = job.slice().pixels();
        for (int s = 0; s < count; s++) {
            int n = length.applyAsInt(s);
            if (n != pixels)
                throw new IllegalArgumentException(backend + " backend: the output of slice " + s + " (row " + (firstRow + s)
                        + ") of the batch at row " + firstRow
                        + (n < 0 ? " is missing" : " holds " + n + " values") + "; it must hold " + pixels
                        + " (" + job.slice().roiRows() + "x" + job.slice().roiCols() + " ROI)");
        }
    }
}
