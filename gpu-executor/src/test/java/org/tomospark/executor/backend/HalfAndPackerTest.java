package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;

import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HalfAndPackerTest {
    @Test
    void halfKnownEncodings() {
        assertEquals((short) 0x3C00, Half.fromFloat(1f));
        assertEquals((short) 0xC000, Half.fromFloat(-2f));
        assertEquals((short) 0x7BFF, Half.fromFloat(65504f));
        assertEquals((short) 0x7C00, Half.fromFloat(70000f));
        assertEquals((short) 0x0001, Half.fromFloat(0x1p-24f));
        assertEquals((short) 0x0400, Half.fromFloat(0x1p-14f));
        assertEquals((short) 0x3555, Half.fromFloat(1f / 3f));
        // ties to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10
        assertEquals((short) 0x3C00, Half.fromFloat(1f + 0x1p-11f));
        assertEquals((short) 0x3C02, Half.fromFloat(1f + 3 * 0x1p-11f));
        assertTrue(Float.isNaN(Half.toFloat(Half.fromFloat(Float.NaN))));
    }

    @Test
    void halfRoundTripIsExactForEveryHalfValue() {
        for (int h = 0; h < 0x10000; h++) {
            float f = Half.toFloat((short) h);
            if (Float.isNaN(f)) continue;
            assertEquals((short) h, Half.fromFloat(f), "half 0x" + Integer.toHexString(h));
        }
    }

    @Test
    void halfRoundingErrorIsBelowHalfAnUlp() {
        Random r = new Random(3);
        for (int i = 0; i < 100000; i++) {
            float f = (float) (r.nextGaussian() * 100);
            if (Math.abs(f) < 1e-3f) continue; // subnormal halves have a fixed ulp
            float h = Half.round(f);
            float ulp = Math.ulp(h) * (1 << 13); // half ulp = float ulp << 13 in the normal range
            assertTrue(Math.abs(h - f) <= ulp / 2 + 1e-12, f + " -> " + h);
        }
    }

    @Test
    void interleaveThenDeinterleaveIsIdentityAndPadsWithZeros() {
        Random r = new Random(11);
        int bins = 37;
        float[][] s = new float[3][bins];
        for (float[] a : s) for (int i = 0; i < bins; i++) a[i] = r.nextFloat();
        float[] packed = MultiSlicePacker.interleave(s, 0, 4, bins, null);
        assertEquals(4 * bins, packed.length);
        for (int b = 0; b < bins; b++) {
            for (int k = 0; k < 3; k++) assertEquals(s[k][b], packed[b * 4 + k]);
            assertEquals(0f, packed[b * 4 + 3]);
        }
        float[][] back = new float[3][bins];
        MultiSlicePacker.deinterleave(packed, 4, bins, back, 0, 3);
        for (int k = 0; k < 3; k++) assertArrayEquals(s[k], back[k]);
        short[] hp = MultiSlicePacker.interleaveHalf(s, 1, 2, bins, null);
        for (int b = 0; b < bins; b++) assertEquals(Half.fromFloat(s[2][b]), hp[b * 2 + 1]);
    }

    @Test
    void parallelPackingOfLargeSinogramsEqualsTheDefinition() {
        int nproj = 300, width = 2001, bins = nproj * width; // several parallel chunks
        Random r = new Random(4);
        float[][] s = new float[3][bins];
        for (float[] a : s) for (int i = 0; i < bins; i++) a[i] = r.nextFloat() - 0.5f;
        float[] packed = MultiSlicePacker.interleave(s, 0, 4, bins, null);
        short[] half = MultiSlicePacker.interleaveHalf(s, 0, 4, bins, null);
        float[] padded = MultiSlicePacker.interleavePadded(s, 0, 4, nproj, width, 1, 2, null);
        int stride = width + 3;
        for (int p = 0; p < nproj; p++)
            for (int c = -1; c < width + 2; c++)
                for (int k = 0; k < 4; k++) {
                    float v = k < 3 && c >= 0 && c < width ? s[k][p * width + c] : 0f;
                    assertEquals(v, padded[(p * stride + c + 1) * 4 + k]);
                    if (c >= 0 && c < width) {
                        assertEquals(v, packed[(p * width + c) * 4 + k]);
                        assertEquals(Half.fromFloat(v), half[(p * width + c) * 4 + k]);
                    }
                }
        // starting at slice 1 (the second group of a batch): slices 1, 2 and two zero slots, in parallel chunks too
        float[] from1 = MultiSlicePacker.interleavePadded(s, 1, 4, nproj, width, 1, 2, null);
        for (int p = 0; p < nproj; p += 7)
            for (int c = -1; c < width + 2; c++)
                for (int k = 0; k < 4; k++) {
                    float v = k < 2 && c >= 0 && c < width ? s[1 + k][p * width + c] : 0f;
                    assertEquals(v, from1[(p * stride + c + 1) * 4 + k]);
                }
    }
}
