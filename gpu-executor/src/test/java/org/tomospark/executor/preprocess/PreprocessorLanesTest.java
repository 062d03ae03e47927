package org.tomospark.executor.preprocess;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lane-parallel correction against the one-pixel-at-a-time loop, over awkward widths (shorter than a vector, not
 * a multiple of one), both input types, with and without −log, on data with clamped, NaN and infinite values.
 */
class PreprocessorLanesTest {
    static Stream<Arguments> cases() {
        return Stream.of(1, 3, 4, 5, 7, 17, 130, 1001).flatMap(w -> Stream.of(
                Arguments.of(w, true, true), Arguments.of(w, true, false),
                Arguments.of(w, false, true), Arguments.of(w, false, false)));
    }

    @ParameterizedTest(name = "width {0}, uint16 {1}, log {2}")
    @MethodSource("cases")
    void lanesGiveTheScalarLoopsValuesAndCounts(int width, boolean uint16, boolean takeLog) {
        int frames = 150, rows = 3;
        Random rnd = new Random(width * 31L + (uint16 ? 1 : 0) + (takeLog ? 2 : 0));
        float[] flat = new float[rows * width], dark = new float[rows * width];
        for (int i = 0; i < flat.length; i++) {
            dark[i] = 90 + rnd.nextInt(20);
            flat[i] = 15000 + rnd.nextInt(5000);
        }
        int n = frames * rows * width;
        RawStack band;
        if (uint16) {
            short[] raw = new short[n];
            // counts over the whole uint16 range: below the dark (clamped) and above 32767 (unsigned)
            for (int i = 0; i < n; i++) raw[i] = (short) rnd.nextInt(65536);
            raw[n / 2] = 0;
            band = RawStack.ofUint16(frames, rows, width, raw);
        } else {
            float[] raw = new float[n];
            for (int i = 0; i < n; i++) {
                double u = rnd.nextDouble();
                raw[i] = u < 0.003 ? Float.NaN : u < 0.006 ? Float.POSITIVE_INFINITY : (float) (rnd.nextDouble() * 22000 - 500);
            }
            raw[n / 2] = -100;
            band = RawStack.ofFloat(frames, rows, width, raw);
        }
        FlatDark fields = new FlatDark(0, rows, width, flat, dark);
        Preprocessor lanes = new Preprocessor(1e-3f, 1e-6f, 1.0, takeLog);
        Preprocessor.Result a = lanes.apply(band, fields, "data", "flats");
        Preprocessor.Result b = lanes.scalar().apply(band, fields, "data", "flats");
        assertEquals(b.stats(), a.stats());
        assertTrue(b.stats().clampedTransmission() > 0, "the data reach the transmission floor");
        long differ = 0;
        for (int r = 0; r < rows; r++)
            for (int i = 0; i < frames * width; i++) {
                float x = a.sinograms()[r][i], y = b.sinograms()[r][i];
                if (Float.floatToRawIntBits(x) == Float.floatToRawIntBits(y)) continue;
                differ++;
                // only −log may differ, by its last bit, where the two double logarithms round to neighbouring floats
                assertTrue(takeLog && Math.abs(x - y) <= Math.ulp(y), "row " + r + " value " + i + ": " + x + " vs " + y);
            }
        assertTrue(differ <= 1 + n / 1_000_000, differ + " of " + n + " values differ");
    }
}
