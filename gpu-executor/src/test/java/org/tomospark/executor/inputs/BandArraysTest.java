package org.tomospark.executor.inputs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.preprocess.RawStack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Bands read into arrays that earlier bands released: the same array comes back holding the new band's samples (every
 * sample overwritten, none left from before), an array is never handed to two bands, and the kept arrays are bounded.
 */
class BandArraysTest {
    private static final int FRAMES = 7, ROWS = 12, WIDTH = 9;
    @TempDir
    Path tmp;

    @BeforeEach
    @AfterEach
    void empty() {
        BandArrays.clear();
    }

    private Path scan(ScanMetadata.SampleType type) throws Exception {
        int bytes = type == ScanMetadata.SampleType.UINT16 ? 2 : 4;
        ByteBuffer b = ByteBuffer.allocate(FRAMES * ROWS * WIDTH * bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int p = 0; p < FRAMES; p++)
            for (int r = 0; r < ROWS; r++)
                for (int c = 0; c < WIDTH; c++)
                    if (bytes == 2) b.putShort(LayoutScans.u16(p, r, c));
                    else b.putFloat(LayoutScans.f32(p, r, c));
        Path f = tmp.resolve("scan-" + type + ".raw");
        Files.write(f, b.array());
        return f;
    }

    private static RawStack read(FileChannelRangeReader ranges, ScanMetadata.SampleType type, int row, int rows) throws Exception {
        return new ContiguousBandReader(ranges, "scan", 0, FRAMES, ROWS, WIDTH, type, ByteOrder.LITTLE_ENDIAN, 3, 20)
                .read(row, rows);
    }

    private static void assertBand(RawStack s, ScanMetadata.SampleType type, int row, int rows) {
        for (int p = 0; p < FRAMES; p++)
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < WIDTH; c++) {
                    float want = type == ScanMetadata.SampleType.UINT16 ? LayoutScans.u16(p, row + r, c) & 0xffff
                            : LayoutScans.f32(p, row + r, c);
                    assertEquals(want, s.get(p, r, c), "frame " + p + " row " + (row + r) + " col " + c);
                }
    }

    private static Object array(RawStack s) {
        return s.isUint16() ? s.uint16Data() : s.floatData();
    }

    @Test
    void aReleasedArrayHoldsTheNextBandOfItsSize() throws Exception {
        for (ScanMetadata.SampleType type : ScanMetadata.SampleType.values()) {
            try (FileChannelRangeReader ranges = FileChannelRangeReader.open(scan(type))) {
                RawStack a = read(ranges, type, 0, 4);
                assertBand(a, type, 0, 4);
                Object first = array(a);
                a.release();
                RawStack b = read(ranges, type, 5, 4);
                assertSame(first, array(b), type + ": the released array is read into");
                assertBand(b, type, 5, 4);
                // a band of another size gets an array of its own
                b.release();
                RawStack c = read(ranges, type, 2, 3);
                assertNotSame(first, array(c));
                assertBand(c, type, 2, 3);
            }
            BandArrays.clear();
        }
    }

    @Test
    void anArrayIsNeverHandedToTwoBands() throws Exception {
        ScanMetadata.SampleType type = ScanMetadata.SampleType.UINT16;
        try (FileChannelRangeReader ranges = FileChannelRangeReader.open(scan(type))) {
            RawStack a = read(ranges, type, 0, 4);
            a.release();
            a.release(); // a second release gives nothing back
            assertEquals(1, BandArrays.kept()[0]);
            RawStack b = read(ranges, type, 4, 4), c = read(ranges, type, 8, 4);
            assertNotSame(array(b), array(c));
            assertBand(b, type, 4, 4);
            assertBand(c, type, 8, 4);
            // bands not released stay with their holders
            assertEquals(0, BandArrays.kept()[0]);
        }
    }

    @Test
    void keptArraysAreBounded() throws Exception {
        ScanMetadata.SampleType type = ScanMetadata.SampleType.FLOAT32;
        try (FileChannelRangeReader ranges = FileChannelRangeReader.open(scan(type))) {
            RawStack[] held = new RawStack[BandArrays.KEEP + 3];
            for (int i = 0; i < held.length; i++) held[i] = read(ranges, type, 0, 2);
            for (RawStack s : held) s.release();
            long[] kept = BandArrays.kept();
            assertEquals(BandArrays.KEEP, kept[0]);
            assertEquals(BandArrays.KEEP * 4L * FRAMES * 2 * WIDTH, kept[1]);
        }
    }
}
