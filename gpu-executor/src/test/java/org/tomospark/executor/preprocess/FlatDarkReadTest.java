package org.tomospark.executor.preprocess;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;

import static org.junit.jupiter.api.Assertions.*;

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
        FlatDark fd = FlatDark.read(withoutFields(10, 7), 4, 3);
        assertEquals(3, fd.rows());
        assertEquals(7, fd.width());
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 7; c++) {
                assertEquals(1f, fd.flat(r, c));
                assertEquals(0f, fd.dark(r, c));
            }
    }
}
