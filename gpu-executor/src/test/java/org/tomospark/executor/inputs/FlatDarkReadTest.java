package org.tomospark.executor.inputs;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.RawStack;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FlatDarkReadTest {
    /** A source of already normalised data: no flat and no dark frames at all. */
    static ProjectionSource withoutFields(int rows, int width) {
        ScanMetadata meta = new ScanMetadata("norm.raw", 3, rows, width, ScanMetadata.SampleType.FLOAT32,
                new double[]{0, 60, 120}, 0, 0);
        return new ProjectionSource() {
            public ScanMetadata metadata() { return meta; }
            public RawStack readProjections(int rowStart, int n) { throw new UnsupportedOperationException(); }
            public RawStack readFlats(int rowStart, int n) { return null; }
            public RawStack readDarks(int rowStart, int n) { return null; }
            public void close() { }
        };
    }

    @Test
    void missingFlatsAndDarksMeanTransmissionData() {
        // documented: no flats -> flat 1, no darks -> dark 0; the band shape comes from the metadata
        FlatDark fd = withoutFields(10, 7).readFlatDark(4, 3);
        assertEquals(3, fd.rows());
        assertEquals(7, fd.width());
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 7; c++) {
                assertEquals(1f, fd.flat(r, c));
                assertEquals(0f, fd.dark(r, c));
            }
    }

    /** Flats whose value encodes frame, absolute row and column: 100 + 10*frame + row + col/100; no darks. */
    static ProjectionSource withRowCodedFlats(int rows, int width, int frames) {
        ScanMetadata meta = new ScanMetadata("coded.raw", 3, rows, width, ScanMetadata.SampleType.FLOAT32,
                new double[]{0, 60, 120}, frames, 0);
        return new ProjectionSource() {
            public ScanMetadata metadata() { return meta; }
            public RawStack readProjections(int rowStart, int n) { throw new UnsupportedOperationException(); }
            public RawStack readFlats(int rowStart, int n) {
                float[] d = new float[frames * n * width];
                for (int f = 0; f < frames; f++)
                    for (int r = 0; r < n; r++)
                        for (int c = 0; c < width; c++) d[(f * n + r) * width + c] = 100 + 10 * f + (rowStart + r) + c / 100f;
                return RawStack.ofFloat(frames, n, width, d);
            }
            public RawStack readDarks(int rowStart, int n) { return null; }
            public void close() { }
        };
    }

    @Test
    void flatsAreAveragedOverFramesForTheRequestedRowsAndMissingDarksAreZero() {
        // mean over frames f = 0..3 of 100 + 10 f + row + col/100 = 115 + row + col/100, row counted from the file
        FlatDark fd = withRowCodedFlats(20, 9, 4).readFlatDark(6, 5);
        assertEquals(6, fd.rowStart());
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 9; c++) {
                assertEquals(115f + (6 + r) + c / 100f, fd.flat(r, c), 1e-4f, "row " + r + " col " + c);
                assertEquals(0f, fd.dark(r, c));
            }
    }
}
