package org.tomospark.job;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.RawStack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The preflight with its flats read on another thread gives the fields and the errors of the sequential preflight, in
 * the same order: a flat that cannot be read before a row that cannot, a row before nothing.
 */
class PreflightAheadTest {
    static final ProjectionSource DEMO = new DemoDataset(DemoDataset.Spec.demo().withSize(64, 8, 90)).asSource();
    static final ReconstructionParams PARAMS = ReconstructionParams.builder().backend("java").center(31.5).build();

    /** The demo scan, whose flats or projection rows fail to read when asked. */
    static ProjectionSource failing(boolean flats, boolean rows) {
        return new ProjectionSource() {
            @Override
            public ScanMetadata metadata() {
                return DEMO.metadata();
            }

            @Override
            public RawStack readProjections(int rowStart, int n) {
                if (rows) throw new IllegalArgumentException("row " + rowStart + " cut short");
                return DEMO.readProjections(rowStart, n);
            }

            @Override
            public RawStack readFlats(int rowStart, int n) {
                if (flats) throw new IllegalArgumentException("flats unreadable");
                return DEMO.readFlats(rowStart, n);
            }

            @Override
            public RawStack readDarks(int rowStart, int n) {
                return DEMO.readDarks(rowStart, n);
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void theFieldsAreTheSequentialReadsAndTheChecksPass() {
        FlatDark ahead = Preflight.start(DEMO, PARAMS, 0, 8).check(new int[]{0, 8}, 8);
        FlatDark sequential = DEMO.readFlatDark(0, 8);
        Preflight.check(DEMO, PARAMS, sequential, new int[]{0, 8}, 8);
        assertEquals(sequential.rowStart(), ahead.rowStart());
        assertEquals(sequential.rows(), ahead.rows());
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 64; c++) {
                assertEquals(sequential.flat(r, c), ahead.flat(r, c), 0f);
                assertEquals(sequential.dark(r, c), ahead.dark(r, c), 0f);
            }
    }

    @Test
    void aFlatThatCannotBeReadIsNamedBeforeARowThatCannot() {
        assertEquals("flats unreadable", assertThrows(IllegalArgumentException.class,
                () -> Preflight.start(failing(true, true), PARAMS, 0, 8).check(new int[]{0, 8}, 8)).getMessage());
        assertEquals("row 0 cut short", assertThrows(IllegalArgumentException.class,
                () -> Preflight.start(failing(false, true), PARAMS, 0, 8).check(new int[]{0, 8}, 8)).getMessage());
    }

    /** Rows read before the group size is known (a driver waiting for Spark) give the same fields and the same errors. */
    @Test
    void rowsReadFirstCheckAsRowsReadLast() {
        int[] range = {0, 8};
        FlatDark first = Preflight.start(DEMO, PARAMS, 0, 8).readRows(range).check(range, 4);
        FlatDark last = Preflight.start(DEMO, PARAMS, 0, 8).check(range, 4);
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 64; c++) assertEquals(last.flat(r, c), first.flat(r, c), 0f);
        assertEquals("flats unreadable", assertThrows(IllegalArgumentException.class,
                () -> Preflight.start(failing(true, true), PARAMS, 0, 8).readRows(range).check(range, 8)).getMessage());
        assertEquals("row 0 cut short", assertThrows(IllegalArgumentException.class,
                () -> Preflight.start(failing(false, true), PARAMS, 0, 8).readRows(range).check(range, 8)).getMessage());
    }
}
