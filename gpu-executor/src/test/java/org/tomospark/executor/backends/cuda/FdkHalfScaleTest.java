package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The texture mode's scale of a band: a power of two that puts its largest |value| in [2^13, 2^14). */
class FdkHalfScaleTest {
    /** Half precision's largest finite value. */
    private static final float HALF_MAX = 65504f;

    @Test
    void theLargestValueLandsWellWithinHalfPrecision() {
        for (float largest : new float[]{1e-30f, 3.7e-7f, 6.1e-5f, 0.5f, 1f, 1.5f, 8191.9f, 8192f, 65504f, 1e9f, 3e38f}) {
            float s = FdkKernels.scaleFor(largest);
            assertEquals(0, Float.floatToIntBits(s) & 0x007FFFFF, largest + ": " + s + " is not a power of two");
            double scaled = (double) largest * s;
            assertTrue(scaled >= 8192 && scaled < 16384, largest + " x " + s + " = " + scaled);
            // the difference of two pixels, the largest intermediate of the interpolation, stays finite too
            assertTrue(2 * scaled < HALF_MAX, largest + ": " + scaled);
        }
    }

    @Test
    void zeroAndNonFiniteBandsAreNotScaled() {
        assertEquals(1f, FdkKernels.scaleFor(0f));
        assertEquals(1f, FdkKernels.scaleFor(Float.NaN));
        assertEquals(1f, FdkKernels.scaleFor(Float.POSITIVE_INFINITY));
    }

    @Test
    void subnormalBandsScaleAsFarAsAFloatReaches() {
        // 2^-140 would need 2^153: the scale stops at 2^127 (the values stay exact in float, and small in half)
        assertEquals(Math.scalb(1f, 127), FdkKernels.scaleFor(Math.scalb(1f, -140)));
    }
}
