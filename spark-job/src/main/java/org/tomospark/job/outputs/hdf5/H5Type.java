package org.tomospark.job.outputs.hdf5;

import java.nio.ByteBuffer;

/**
 * The numeric element types the writer stores, little-endian, and their datatype message (version 1): class and
 * version, the class's bit field, the size, and the class's properties (for floats: bit offset and precision, the
 * exponent's and mantissa's places and sizes, the exponent bias; for integers: bit offset and precision).
 */
public enum H5Type {
    FLOAT16(2, true, 15, 10, 5, 10, 15),
    FLOAT32(4, true, 31, 23, 8, 23, 127),
    FLOAT64(8, true, 63, 52, 11, 52, 1023),
    UINT8(1, false, 0, 0, 0, 0, 0),
    UINT16(2, false, 0, 0, 0, 0, 0),
    INT64(8, false, 1, 0, 0, 0, 0);

    private static final int FIXED_POINT = 0;
    private static final int FLOATING_POINT = 1;
    private static final int VERSION = 1;

    private final int bytes;
    private final boolean floating;
    /** floats: the sign bit's position; integers: 1 when signed. */
    private final int sign;
    private final int exponentAt;
    private final int exponentBits;
    private final int mantissaBits;
    private final int bias;

    H5Type(int bytes, boolean floating, int sign, int exponentAt, int exponentBits, int mantissaBits, int bias) {
        this.bytes = bytes;
        this.floating = floating;
        this.sign = sign;
        this.exponentAt = exponentAt;
        this.exponentBits = exponentBits;
        this.mantissaBits = mantissaBits;
        this.bias = bias;
    }

    /** Bytes of one element. */
    public int bytes() {
        return bytes;
    }

    /** Bytes of the datatype message. */
    int messageBytes() {
        return floating ? 20 : 12;
    }

    void encode(ByteBuffer b) {
        if (floating) {
            b.put((byte) (VERSION << 4 | FLOATING_POINT));
            b.put((byte) 0x20); // little-endian, no padding bits, mantissa normalised with its leading 1 implied
            b.put((byte) sign);
            b.put((byte) 0);
            b.putInt(bytes);
            b.putShort((short) 0);
            b.putShort((short) (bytes * 8));
            b.put((byte) exponentAt).put((byte) exponentBits).put((byte) 0).put((byte) mantissaBits);
            b.putInt(bias);
        } else {
            b.put((byte) (VERSION << 4 | FIXED_POINT));
            b.put((byte) (sign == 1 ? 0x08 : 0)); // little-endian, signed or not
            b.put((byte) 0).put((byte) 0);
            b.putInt(bytes);
            b.putShort((short) 0);
            b.putShort((short) (bytes * 8));
        }
    }
}
