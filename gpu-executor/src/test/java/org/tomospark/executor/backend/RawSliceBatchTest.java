package org.tomospark.executor.backend;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tomospark.executor.preprocess.RawStack;

import java.nio.ShortBuffer;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The staging of a raw batch's counts by projection: each sample lands where the device's correction reads it. */
class RawSliceBatchTest {

    @ParameterizedTest(name = "{0} projections, {1} band rows, {2} columns, rows {4}..+{5} of a batch at band row {3}, {6} parts")
    @CsvSource({"5, 7, 3, 2, 1, 3, 2", "17, 9, 13, 0, 0, 9, 4", "1, 4, 5, 1, 2, 1, 1", "33, 16, 8, 3, 5, 8, 7"})
    void everySampleLandsAtItsProjectionSliceAndColumn(int np, int rows, int width, int bandRow0, int first, int n, int parts) {
        short[] data = new short[np * rows * width];
        for (int i = 0; i < data.length; i++) data[i] = (short) ThreadLocalRandom.current().nextInt(65536);
        int count = Math.min(rows - bandRow0, first + n + 1);
        RawSliceBatch batch = new RawSliceBatch(100, RawStack.ofUint16(np, rows, width, data), bandRow0, count,
                new float[count * width], new float[count * width], 1e-6f);
        ShortBuffer dst = ShortBuffer.allocate(np * n * width);
        for (int k = 0; k < parts; k++) batch.copyCountsByProjection(first, n, np * k / parts, np * (k + 1) / parts, dst);
        for (int p = 0; p < np; p++)
            for (int s = 0; s < n; s++)
                for (int c = 0; c < width; c++)
                    assertEquals(data[(p * rows + bandRow0 + first + s) * width + c], dst.get((p * n + s) * width + c),
                            "projection " + p + ", slice " + s + ", column " + c);
    }
}
