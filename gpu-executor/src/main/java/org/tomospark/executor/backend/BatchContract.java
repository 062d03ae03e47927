package org.tomospark.executor.backend;

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
        checkShape(backend, job, batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out);
        if (!batch.filtered() && !filtersOnDevice)
            throw new IllegalArgumentException(backend + " backend expects filtered sinograms: the batch at row "
                    + batch.firstRow() + " is unfiltered, and the validated job filters on the host (Requisition.filtersOnDevice "
                    + "is false: no BackprojectionJob.deviceFilter, or the backend cannot filter this width on its device)");
    }

    /** As {@link #check(String, BackprojectionJob, SliceBatch, float[][], boolean)} for raw counts, which are never filtered. */
    public static void check(String backend, BackprojectionJob job, RawSliceBatch batch, float[][] out) {
        checkShape(backend, job, batch.firstRow(), batch.numProjections(), batch.width(), batch.count(), out);
    }

    private static void checkShape(String backend, BackprojectionJob job, int firstRow, int projections, int width, int count,
                                   float[][] out) {
        int np = job.scan().numProjections(), w = job.scan().detectorWidth();
        if (projections != np || width != w)
            throw new IllegalArgumentException(backend + " backend: the batch at row " + firstRow + " is " + projections + "x"
                    + width + " (projections x columns) but the validated geometry is " + np + "x" + w);
        if (count > job.maxSlicesPerBatch())
            throw new IllegalArgumentException(backend + " backend: the batch at row " + firstRow + " holds " + count
                    + " slices, more than the validated maximum " + job.maxSlicesPerBatch());
        if (out == null || out.length < count)
            throw new IllegalArgumentException(backend + " backend: the batch at row " + firstRow + " holds " + count
                    + " slices but " + (out == null ? 0 : out.length) + " output arrays were given");
        int pixels = job.slice().pixels();
        for (int s = 0; s < count; s++)
            if (out[s] == null || out[s].length != pixels)
                throw new IllegalArgumentException(backend + " backend: the output of slice " + s + " (row " + (firstRow + s)
                        + ") of the batch at row " + firstRow
                        + (out[s] == null ? " is missing" : " holds " + out[s].length + " values") + "; it must hold " + pixels
                        + " (" + job.slice().roiRows() + "x" + job.slice().roiCols() + " ROI)");
    }
}
