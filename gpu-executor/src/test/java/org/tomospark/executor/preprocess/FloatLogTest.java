package org.tomospark.executor.preprocess;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FloatLogTest {
    /**
     * Every float of a stride through [1e-7, 7e4] (and every float near 1, where the logarithm is small) against
     * fdlibm's {@link StrictMath#log}: relative error within 4e-16, and rounded to float the same but for at most a
     * few values per million, by one unit in the last place.
     */
    @ParameterizedTest
    @ValueSource(ints = {97, 1})
    void matchesStrictMathOverFloats(int stride) {
        int from, to;
        if (stride == 1) { // every float within 2^18 units of 1
            from = Float.floatToRawIntBits(1f) - (1 << 18);
            to = Float.floatToRawIntBits(1f) + (1 << 18);
        } else {
            from = Float.floatToRawIntBits(1e-7f);
            to = Float.floatToRawIntBits(7e4f);
        }
        long n = 0, differ = 0;
        double worst = 0;
        for (int b = from; b <= to; b += stride) {
            float x = Float.intBitsToFloat(b);
            double ref = StrictMath.log(x), got = FloatLog.log(x);
            n++;
            if (ref != 0) worst = Math.max(worst, Math.abs(got - ref) / Math.abs(ref));
            else assertEquals(0.0, got);
            float fr = (float) -ref, fg = (float) -got;
            if (fr != fg) {
                differ++;
                assertEquals(1, Math.abs(Float.floatToRawIntBits(fr) - Float.floatToRawIntBits(fg)), "x=" + x);
            }
        }
        assertTrue(worst < 4e-16, "worst relative error " + worst);
        assertTrue(differ <= Math.max(1, n / 1_000_000), differ + " of " + n + " floats round differently");
    }

    /** A few values against decimal expansions (mpmath, 50 digits), each within 2 units of the double. */
    @Test
    void knownValues() {
        check(0.5f, "-0.69314718055994530941723212145817656807550013436026");
        check(0.1f, "-2.3025850780928846011926365642925471718788656106833"); // the float nearest 0.1
        check(2f, "0.69314718055994530941723212145817656807550013436026");
        check(1f, "0");
        check(1.00000011920928955078125f, "1.1920928244535445708757915706253071606086236514964e-7"); // 1 + 2^-23
    }

    private static void check(float x, String decimal) {
        double exact = new BigDecimal(decimal, MathContext.DECIMAL128).doubleValue();
        double got = FloatLog.log(x);
        assertTrue(Math.abs(got - exact) <= 2 * Math.ulp(exact), "log(" + x + ") = " + got + ", expected " + exact);
    }

    @Test
    void specialValuesFollowMathLog() {
        assertEquals(Double.NEGATIVE_INFINITY, FloatLog.log(0f));
        assertTrue(Double.isNaN(FloatLog.log(-1f)));
        assertTrue(Double.isNaN(FloatLog.log(Float.NaN)));
        assertEquals(Double.POSITIVE_INFINITY, FloatLog.log(Float.POSITIVE_INFINITY));
        assertEquals(Math.log(Float.MIN_VALUE), FloatLog.log(Float.MIN_VALUE));
        assertEquals(Math.log(Float.MAX_VALUE), FloatLog.log(Float.MAX_VALUE), Math.ulp(Math.log(Float.MAX_VALUE)) * 2);
    }
}
