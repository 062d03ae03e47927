package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Half precision (rounding ties, subnormals, overflow, every half back to itself) against values worked out from the
 * binary16 format (1 sign, 5 exponent, 10 mantissa bits).
 */
class HalfRoundingTest {
    @Test
    void valuesOfTheFormat() {
        assertEquals(0x3c00, Half.fromFloat(1f) & 0xffff);
        assertEquals(0xc000, Half.fromFloat(-2f) & 0xffff);
        assertEquals(0x7bff, Half.fromFloat(65504f) & 0xffff, "largest finite half");
        assertEquals(0x7c00, Half.fromFloat(65520f) & 0xffff, "rounds up past the largest: infinity");
        assertEquals(0x7bff, Half.fromFloat(65519f) & 0xffff, "rounds down to the largest");
        assertEquals(0x0001, Half.fromFloat(0x1p-24f) & 0xffff, "smallest subnormal");
        assertEquals(0x0000, Half.fromFloat(0x1p-25f) & 0xffff, "half the smallest subnormal: a tie, to even (zero)");
        assertEquals(0x0002, Half.fromFloat(0x1.8p-24f) & 0xffff, "1.5 subnormal steps: a tie, to even (2)");
        assertEquals(0x0002, Half.fromFloat(0x1.4p-23f) & 0xffff, "2.5 subnormal steps: a tie, to even (2)");
        assertEquals(0x0003, Half.fromFloat(0x1.8p-23f) & 0xffff, "3 subnormal steps exactly");
        assertEquals(0x0400, Half.fromFloat(0x1p-14f) & 0xffff, "smallest normal");
        assertEquals(0x3c00, Half.fromFloat(1f + 0x1p-11f) & 0xffff, "a tie between 1 and the next half: to even (1)");
        assertEquals(0x3c02, Half.fromFloat(1f + 3 * 0x1p-11f) & 0xffff, "a tie between odd and even: to even");
        assertEquals(0x8000, Half.fromFloat(-0f) & 0xffff);
        assertEquals(0xfc00, Half.fromFloat(Float.NEGATIVE_INFINITY) & 0xffff);
        assertTrue(Float.isNaN(Half.toFloat(Half.fromFloat(Float.NaN))));
    }

    @Test
    void everyHalfComesBackToItself() {
        for (int h = 0; h < 0x10000; h++) {
            if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) continue; // NaNs: any NaN will do
            float f = Half.toFloat((short) h);
            assertEquals(h, Half.fromFloat(f) & 0xffff, "half 0x" + Integer.toHexString(h) + " = " + f);
        }
        assertEquals(65504f, Half.toFloat((short) 0x7bff));
        assertEquals(0x1p-24f, Half.toFloat((short) 1));
    }
}
