package org.tomospark.executor.preprocess;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.testing.JavaSerialization;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fields survive Java serialization (how the Spark driver sends them to executors) bit for bit, and compactly. */
class FlatDarkSerializationTest {

    @Test
    void fieldsComeBackBitForBitWithTheirBand() throws Exception {
        int rows = 7, width = 33;
        Random r = new Random(3);
        float[] flat = new float[rows * width], dark = new float[rows * width];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = 1000 + (float) r.nextGaussian() * 50;
            dark[i] = i % 5 == 0 ? -0f : Float.intBitsToFloat(r.nextInt(0x7f000000)); // signed zeros and every exponent
        }
        FlatDark fd = new FlatDark(12, rows, width, flat, dark);
        byte[] bytes = JavaSerialization.write(fd);
        FlatDark back = (FlatDark) JavaSerialization.read(bytes);
        assertEquals(12, back.rowStart());
        assertEquals(rows, back.rows());
        assertEquals(width, back.width());
        for (int i = 0; i < flat.length; i++) {
            assertEquals(Float.floatToRawIntBits(flat[i]), Float.floatToRawIntBits(back.flat(i / width, i % width)), "flat " + i);
            assertEquals(Float.floatToRawIntBits(dark[i]), Float.floatToRawIntBits(back.dark(i / width, i % width)), "dark " + i);
        }
        // what travels is the byte form (two byte arrays), not the object's float arrays written value by value
        String stream = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(stream.contains(FlatDark.class.getName() + "$Bytes"), "the serialized form");
        assertTrue(!stream.contains("[F"), "no float array in the stream");
        assertTrue(bytes.length < 2 * flat.length * Float.BYTES + 400, bytes.length + " bytes");
    }

    @Test
    void aSubBandOfTheReadFieldsIsTheSubBandOfTheOriginal() throws Exception {
        float[] flat = new float[4 * 3], dark = new float[4 * 3];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = i + 1;
            dark[i] = i / 10f;
        }
        FlatDark back = (FlatDark) JavaSerialization.read(JavaSerialization.write(new FlatDark(0, 4, 3, flat, dark)));
        FlatDark sub = back.subBand(1, 2);
        assertEquals(2, sub.rows());
        for (int row = 0; row < 2; row++)
            for (int c = 0; c < 3; c++) {
                assertEquals(flat[(row + 1) * 3 + c], sub.flat(row, c));
                assertEquals(dark[(row + 1) * 3 + c], sub.dark(row, c));
            }
    }
}
