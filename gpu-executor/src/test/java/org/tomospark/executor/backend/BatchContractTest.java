package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preprocess.RawStack;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The per-batch contract every backend checks: each violation's message names the backend, the batch's row and the slice. */
class BatchContractTest {
    static final int NP = 12, W = 20;
    /** A 5-row, 8-column ROI of a 16-pixel slice: 40 values per output. */
    static final ScanGeometry SCAN = ScanGeometry.builder().detectorWidth(W).anglesRange(180, NP).build();
    static final BackprojectionJob JOB = new BackprojectionJob(SCAN, SliceGeometry.square(16).withRoi(2, 3, 8, 5), 3);

    static SliceBatch batch(int slices, int projections, int width, boolean filtered) {
        float[][] s = new float[slices][projections * width];
        return new SliceBatch(7, s, projections, width, filtered);
    }

    static float[][] outputs(int n, int pixels) {
        return new float[n][pixels];
    }

    static String violation(SliceBatch b, float[][] out, boolean filtersOnDevice) {
        return assertThrows(IllegalArgumentException.class, () -> BatchContract.check("java", JOB, b, out, filtersOnDevice))
                .getMessage();
    }

    @Test
    void aBatchThatFitsTheJobPasses() {
        assertDoesNotThrow(() -> BatchContract.check("java", JOB, batch(3, NP, W, true), outputs(3, 40), false));
        // more output arrays than slices are fine: the caller may reuse a larger set
        assertDoesNotThrow(() -> BatchContract.check("java", JOB, batch(2, NP, W, true), outputs(3, 40), false));
        // unfiltered sinograms go to a backend that filters on its device
        assertDoesNotThrow(() -> BatchContract.check("cuda", JOB, batch(2, NP, W, false), outputs(2, 40), true));
    }

    @Test
    void everyViolationNamesTheBatchAndTheSlice() {
        assertEquals("java backend: the batch at row 7 is 11x20 (projections x columns) but the validated geometry is 12x20",
                violation(batch(1, NP - 1, W, true), outputs(1, 40), false));
        assertEquals("java backend: the batch at row 7 is 12x21 (projections x columns) but the validated geometry is 12x20",
                violation(batch(1, NP, W + 1, true), outputs(1, 40), false));
        assertEquals("java backend: the batch at row 7 holds 4 slices, more than the validated maximum 3",
                violation(batch(4, NP, W, true), outputs(4, 40), false));
        assertEquals("java backend: the batch at row 7 holds 3 slices but 2 output arrays were given",
                violation(batch(3, NP, W, true), outputs(2, 40), false));
        assertEquals("java backend: the batch at row 7 holds 3 slices but 0 output arrays were given",
                violation(batch(3, NP, W, true), null, false));
        float[][] missing = outputs(3, 40);
        missing[1] = null;
        assertEquals("java backend: the output of slice 1 (row 8) of the batch at row 7 is missing; it must hold 40 (5x8 ROI)",
                violation(batch(3, NP, W, true), missing, false));
        float[][] small = outputs(3, 40);
        small[2] = new float[39];
        assertEquals("java backend: the output of slice 2 (row 9) of the batch at row 7 holds 39 values; "
                        + "it must hold 40 (5x8 ROI)",
                violation(batch(3, NP, W, true), small, false));
        assertEquals("java backend expects filtered sinograms: the batch at row 7 is unfiltered, and the validated job "
                        + "filters on the host (Requisition.filtersOnDevice is false: no BackprojectionJob.deviceFilter, or the "
                        + "backend cannot filter this width on its device)",
                violation(batch(1, NP, W, false), outputs(1, 40), false));
    }

    @Test
    void rawCountsAreCheckedAgainstTheSameJob() {
        int rows = 4;
        RawStack band = RawStack.ofUint16(NP, rows, W, new short[NP * rows * W]);
        RawSliceBatch ok = new RawSliceBatch(20, band, 1, 3, new float[3 * W], new float[3 * W], 1e-6f);
        assertDoesNotThrow(() -> BatchContract.check("cuda", JOB, ok, outputs(3, 40)));
        float[][] small = outputs(3, 40);
        small[0] = new float[41];
        assertEquals("cuda backend: the output of slice 0 (row 20) of the batch at row 20 holds 41 values; "
                        + "it must hold 40 (5x8 ROI)",
                assertThrows(IllegalArgumentException.class, () -> BatchContract.check("cuda", JOB, ok, small)).getMessage());
        RawStack narrow = RawStack.ofUint16(NP, rows, W - 2, new short[NP * rows * (W - 2)]);
        RawSliceBatch wrong = new RawSliceBatch(20, narrow, 0, 2, new float[2 * (W - 2)], new float[2 * (W - 2)], 1e-6f);
        assertEquals("cuda backend: the batch at row 20 is 12x18 (projections x columns) but the validated geometry is 12x20",
                assertThrows(IllegalArgumentException.class, () -> BatchContract.check("cuda", JOB, wrong, outputs(2, 40)))
                        .getMessage());
    }
}
