package org.tomospark.executor.preview;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The preview's grey window: the percentiles of the finite values, as a sort of them gives. */
class PngPreviewTest {

    /** The window by a sort of the finite values, the definition the preview follows. */
    private static float[] bySort(float[] px, double loPct, double hiPct) {
        float[] f = new float[px.length];
        int n = 0;
        for (float v : px) if (Float.isFinite(v)) f[n++] = v;
        float[] s = Arrays.copyOf(f, n);
        Arrays.sort(s);
        float lo = s[(int) Math.min(n - 1, Math.floor(loPct / 100 * (n - 1)))];
        float hi = s[(int) Math.min(n - 1, Math.floor(hiPct / 100 * (n - 1)))];
        return new float[]{lo, hi <= lo ? lo + 1e-6f : hi};
    }

    @Test
    void windowIsThePercentilesOfTheFiniteValues() {
        Random r = new Random(3);
        // a disc of values in a field of zeros, with NaN and infinite pixels the window must ignore
        int w = 301, h = 257;
        float[] px = new float[w * h];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double dx = x - w / 2.0, dy = y - h / 2.0;
                px[y * w + x] = dx * dx + dy * dy < 100 * 100 ? (float) (1 + 0.1 * r.nextGaussian()) : 0f;
            }
        for (int i = 0; i < 500; i++) px[r.nextInt(px.length)] = i % 3 == 0 ? Float.NaN : i % 3 == 1 ? Float.POSITIVE_INFINITY
                : Float.NEGATIVE_INFINITY;
        float[] copy = px.clone();
        for (double[] p : new double[][]{{0.5, 99.5}, {0, 100}, {50, 50}, {99.5, 0.5}, {10, 90}})
            assertArrayEquals(bySort(px, p[0], p[1]), PngPreview.window(px, p[0], p[1]), Arrays.toString(p));
        assertArrayEquals(copy, px, "the image is left as it was");
    }

    @Test
    void windowOfNothingFiniteIsZeroToOne() {
        assertArrayEquals(new float[]{0, 1}, PngPreview.window(new float[]{Float.NaN, Float.POSITIVE_INFINITY}, 0.5, 99.5));
    }

    @Test
    void windowOfOneValueIsNotEmpty() {
        float[] win = PngPreview.window(new float[]{2, 2, 2, Float.NaN}, 0.5, 99.5);
        assertEquals(2f, win[0]);
        assertEquals(2f + 1e-6f, win[1]);
    }
}
