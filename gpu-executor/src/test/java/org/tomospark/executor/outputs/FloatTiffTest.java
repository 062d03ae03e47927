package org.tomospark.executor.outputs;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FloatTiffTest {
    /** Reads the first IFD's tags directly from the bytes (independent of ImageIO). */
    static Map<Integer, Long> tags(byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b);
        bb.order(b[0] == 'I' ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        assertEquals(42, bb.getShort(2));
        int ifd = bb.getInt(4);
        int n = bb.getShort(ifd) & 0xffff;
        Map<Integer, Long> m = new HashMap<>();
        for (int i = 0; i < n; i++) {
            int e = ifd + 2 + 12 * i;
            int tag = bb.getShort(e) & 0xffff, type = bb.getShort(e + 2);
            long v = type == 3 ? bb.getShort(e + 8) & 0xffff : bb.getInt(e + 8) & 0xffffffffL;
            m.put(tag, v);
        }
        return m;
    }

    @Test
    void roundTripIsExactAndTagsSayFloat32Grayscale() throws Exception {
        int w = 37, h = 23;
        float[] px = new float[w * h];
        Random r = new Random(2);
        for (int i = 0; i < px.length; i++) px[i] = (float) r.nextGaussian() * 1e-3f;
        px[5] = Float.MIN_VALUE;
        px[6] = -0f;
        byte[] tif = FloatTiff.encode(px, w, h);
        Map<Integer, Long> t = tags(tif);
        assertEquals(w, t.get(256));      // ImageWidth
        assertEquals(h, t.get(257));      // ImageLength
        assertEquals(32, t.get(258));     // BitsPerSample
        assertEquals(1, t.get(259));      // no compression
        assertEquals(1, t.get(277));      // SamplesPerPixel
        assertEquals(3, t.get(339));      // SampleFormat = IEEE floating point
        FloatTiff.Image img = FloatTiff.decode(tif);
        assertEquals(w, img.width());
        assertEquals(h, img.height());
        for (int i = 0; i < px.length; i++) assertEquals(Float.floatToRawIntBits(px[i]), Float.floatToRawIntBits(img.pixels()[i]));
    }

    /** The ImageDescription (tag 270, ASCII) as the bytes hold it, and the image still plain float32 grayscale. */
    @Test
    void descriptionIsWrittenAsImageDescriptionTag() throws Exception {
        int w = 8, h = 5;
        float[] px = new float[w * h];
        for (int i = 0; i < px.length; i++) px[i] = i * 0.25f;
        String text = "ImageJ=1.11a\nvunit=1/px\ntomospark.unit=1/px\n";
        byte[] tif = FloatTiff.encode(px, w, h, text);
        ByteBuffer bb = ByteBuffer.wrap(tif).order(tif[0] == 'I' ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        int ifd = bb.getInt(4), n = bb.getShort(ifd) & 0xffff;
        String found = null;
        for (int i = 0; i < n; i++) {
            int e = ifd + 2 + 12 * i;
            if ((bb.getShort(e) & 0xffff) != 270) continue;
            assertEquals(2, bb.getShort(e + 2), "ASCII");
            int count = bb.getInt(e + 4), off = bb.getInt(e + 8);
            assertEquals(text.length() + 1, count, "NUL-terminated");
            found = new String(tif, off, count - 1, StandardCharsets.US_ASCII);
        }
        assertEquals(text, found);
        assertEquals(text, FloatTiff.description(tif));
        Map<Integer, Long> t = tags(tif);
        assertEquals(32, t.get(258));
        assertEquals(3, t.get(339));
        assertArrayEquals(px, FloatTiff.decode(tif).pixels());
        assertNull(FloatTiff.description(FloatTiff.encode(px, w, h)));
    }

    @Test
    void rejectsWrongSize() {
        assertThrows(IllegalArgumentException.class, () -> FloatTiff.encode(new float[5], 2, 3));
    }
}
