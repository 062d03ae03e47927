package org.tomospark.executor.io;

/** IEEE 754 half-precision (binary16) conversion, as Java 17 lacks {@code Float.floatToFloat16}. */
public final class Half {
    private Half() {
    }

    /** The binary16 bits nearest to {@code f} (ties to even); overflow gives infinity, NaN stays NaN. */
    public static short fromFloat(float f) {
        int bits = Float.floatToRawIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = (bits >>> 23) & 0xff;
        int mant = bits & 0x7fffff;
        if (exp == 0xff) return (short) (sign | 0x7c00 | (mant != 0 ? 0x200 | (mant >>> 13) : 0));
        int e = exp - 127 + 15;
        if (e >= 0x1f) return (short) (sign | 0x7c00);
        if (e <= 0) {
            if (e < -10) return (short) sign;
            // a subnormal half: the implicit leading bit joins the mantissa, shifted into place with rounding
            int m = mant | 0x800000;
            int shift = 14 - e;
            return (short) (sign | roundShift(m, shift));
        }
        // rounding may carry into the exponent, which is then still right (and up to infinity)
        return (short) (sign | ((e << 10) + roundShift(mant, 13)));
    }

    /** {@code m >> shift} rounded to nearest, ties to even. */
    private static int roundShift(int m, int shift) {
        int q = m >>> shift;
        int rest = m & ((1 << shift) - 1);
        int half = 1 << (shift - 1);
        if (rest > half || (rest == half && (q & 1) == 1)) q++;
        return q;
    }

    /** The float value of binary16 bits. */
    public static float toFloat(short h) {
        int sign = (h & 0x8000) << 16;
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        if (exp == 0x1f) return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        if (exp == 0) {
            float v = mant * 0x1p-24f;
            return sign != 0 ? -v : v;
        }
        return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
    }
}
