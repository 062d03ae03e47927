package org.tomospark.executor.iterative;

/**
 * Positions along a projector's line in fixed point: a long with 32 fractional bits. A line's positions are its start
 * plus whole multiples of a step, so they are exact sums of longs; each step costs an add, and its floor and fraction
 * come from shifts and one int-to-float conversion instead of a floor and three conversions in double.
 */
final class Fixed {
    private static final double ONE = 0x1p32;

    private Fixed() {
    }

    /** The fixed-point value nearest x (|x| below 2³¹). */
    static long of(double x) {
        return Math.round(x * ONE);
    }

    /** ⌊x⌋. */
    static int floor(long x) {
        return (int) (x >> 32);
    }

    /** x − ⌊x⌋ to 24 bits, in [0, 1): exact in a float. */
    static float fraction(long x) {
        return (int) ((x >>> 8) & 0xFFFFFF) * 0x1p-24f;
    }
}
