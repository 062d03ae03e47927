package org.tomospark.executor.util;

import org.junit.jupiter.api.Test;

import java.io.InvalidObjectException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Floats as little-endian float32 bytes: IEEE 754 bit patterns as the spec writes them, every value back bit for bit. */
class FloatBytesTest {
    @Test
    void theBytesAreLittleEndianFloat32() {
        // 1.0f = 0x3F800000, -2.5f = 0xC0200000: least significant byte first
        assertArrayEquals(new byte[]{0, 0, (byte) 0x80, 0x3F, 0, 0, 0x20, (byte) 0xC0}, FloatBytes.toBytes(new float[]{1f, -2.5f}));
        assertEquals(0, FloatBytes.toBytes(new float[0]).length);
    }

    @Test
    void everyBitPatternComesBack() throws Exception {
        int[] bits = {0, 0x80000000, 0x7fc01234, 0xffc00001, 0x7f800000, 0xff800000, 1, 0x807fffff, 0x3f800000, 0x7f7fffff};
        float[] v = new float[bits.length];
        for (int i = 0; i < v.length; i++) v[i] = Float.intBitsToFloat(bits[i]);
        float[] back = FloatBytes.toFloats(FloatBytes.toBytes(v), "test");
        for (int i = 0; i < v.length; i++) assertEquals(bits[i], Float.floatToRawIntBits(back[i]), "value " + i);
    }

    @Test
    void bytesThatAreNotWholeFloatsAreACorruptStream() {
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> FloatBytes.toFloats(new byte[7], "dark field"));
        assertTrue(e.getMessage().equals("dark field: 7 bytes are not whole float32 values"), e.getMessage());
    }
}
