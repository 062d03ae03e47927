package org.tomospark.executor.outputs;

import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.plugins.tiff.BaselineTIFFTagSet;
import javax.imageio.plugins.tiff.TIFFDirectory;
import javax.imageio.plugins.tiff.TIFFField;
import javax.imageio.stream.ImageInputStream;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TiffEncoderTest {
    /** Float bit patterns a slice may hold: quiet and signalling NaNs with payloads, infinities, signed zeros, extremes. */
    static final int[] SPECIAL = {0x7fc00000, 0xffc12345, 0x7fa00001, 0x7f800000, 0xff800000, 0x80000000, 0x00000000,
            0x00000001, 0x7f7fffff, 0xff7fffff, 0x00800000};

    static float[] image(int w, int h, long seed) {
        Random r = new Random(seed);
        float[] px = new float[w * h];
        for (int i = 0; i < px.length; i++) px[i] = (float) (r.nextGaussian() * 1e-3);
        for (int i = 0; i < SPECIAL.length && i < px.length; i++)
            px[(int) ((long) i * 7919 % px.length)] = Float.intBitsToFloat(SPECIAL[i]);
        return px;
    }

    /** One IFD entry as the file holds it: its type, count, and values (read from the entry or from the offset it gives). */
    record Entry(int type, int count, long[] values) {
        long value() {
            return values[0];
        }
    }

    /** The first IFD parsed from the bytes alone, with TIFF 6.0's rules (independent of the encoder and of ImageIO). */
    static Map<Integer, Entry> ifd(byte[] b) {
        assertEquals('I', b[0]);
        assertEquals('I', b[1]);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(42, bb.getShort(2));
        int at = bb.getInt(4), n = bb.getShort(at) & 0xffff;
        Map<Integer, Entry> m = new HashMap<>();
        int previous = -1;
        for (int i = 0; i < n; i++) {
            int e = at + 2 + 12 * i, tag = bb.getShort(e) & 0xffff, type = bb.getShort(e + 2), count = bb.getInt(e + 4);
            assertTrue(tag > previous, "tags must be in ascending order");
            previous = tag;
            int size = switch (type) {
                case 2 -> 1;
                case 3 -> 2;
                case 4 -> 4;
                case 5 -> 8;
                default -> throw new AssertionError("unexpected type " + type + " of tag " + tag);
            };
            int from = (long) size * count <= 4 ? e + 8 : bb.getInt(e + 8);
            long[] v = new long[type == 5 ? 2 * count : count];
            for (int k = 0; k < v.length; k++)
                v[k] = switch (type) {
                    case 2 -> b[from + k] & 0xff;
                    case 3 -> bb.getShort(from + 2 * k) & 0xffff;
                    default -> bb.getInt(from + 4 * k) & 0xffffffffL;
                };
            m.put(tag, new Entry(type, count, v));
        }
        assertEquals(0, bb.getInt(at + 2 + 12 * n), "one image only");
        return m;
    }

    /** The raw float bits as the JDK's TIFF reader decodes them, straight from its raster's data buffer. */
    static int[] imageIoBits(byte[] tiff) throws IOException {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(tiff))) {
            ImageReader r = ImageIO.getImageReaders(in).next();
            try {
                r.setInput(in);
                Raster ras = r.read(0).getRaster();
                DataBuffer db = ras.getDataBuffer();
                assertEquals(DataBuffer.TYPE_FLOAT, db.getDataType());
                assertEquals(1, ras.getNumBands());
                int[] bits = new int[ras.getWidth() * ras.getHeight()];
                for (int y = 0, i = 0; y < ras.getHeight(); y++)
                    for (int x = 0; x < ras.getWidth(); x++, i++)
                        bits[i] = Float.floatToRawIntBits(ras.getSampleFloat(x, y, 0));
                return bits;
            } finally {
                r.dispose();
            }
        }
    }

    static String imageIoDescription(byte[] tiff) throws IOException {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(tiff))) {
            Iterator<ImageReader> it = ImageIO.getImageReaders(in);
            ImageReader r = it.next();
            try {
                r.setInput(in);
                TIFFField f = TIFFDirectory.createFromMetadata(r.getImageMetadata(0))
                        .getTIFFField(BaselineTIFFTagSet.TAG_IMAGE_DESCRIPTION);
                return f == null ? null : f.getAsString(0);
            } finally {
                r.dispose();
            }
        }
    }

    static int[] bits(float[] px) {
        int[] b = new int[px.length];
        for (int i = 0; i < px.length; i++) b[i] = Float.floatToRawIntBits(px[i]);
        return b;
    }

    @Test
    void awkwardSizesReadBackBitExactThroughImageIoAndFloatTiff() throws Exception {
        int[][] sizes = {{1, 1}, {3, 7}, {333, 181}, {17000, 5}, {2048, 2048}};
        for (int[] s : sizes) {
            int w = s[0], h = s[1];
            float[] px = image(w, h, w * 31L + h);
            int[] expected = bits(px);
            byte[] tif = TiffEncoder.encode(px, w, h);
            assertEquals(TiffEncoder.size(w, h, null), tif.length);
            String at = w + "x" + h;
            assertArrayEquals(expected, imageIoBits(tif), at + " through ImageIO's reader");
            FloatTiff.Image img = FloatTiff.decode(tif);
            assertEquals(w, img.width(), at);
            assertEquals(h, img.height(), at);
            assertArrayEquals(expected, bits(img.pixels()), at + " through FloatTiff.decode");
            assertArrayEquals(expected, bits(px), "the encoder must not change its input");
        }
    }

    /**
     * Slices written before this encoder (big-endian, by the JDK's writer) still decode, bit for bit. That writer keeps
     * no NaN payload (every NaN becomes the canonical one), so these pixels hold only canonical NaNs.
     */
    @Test
    void floatTiffStillDecodesFilesOfTheJdkWriter() throws Exception {
        int w = 333, h = 181;
        float[] px = image(w, h, 9);
        for (int i = 0; i < px.length; i++) if (Float.isNaN(px[i])) px[i] = Float.NaN;
        byte[] tif = ImageIoTiff.encode(px, w, h);
        assertEquals('M', tif[0], "big-endian, unlike the encoder's files");
        assertArrayEquals(bits(px), bits(FloatTiff.decode(tif).pixels()));
    }

    @Test
    void writesTheBaselineTagsOfOneFloat32GrayscaleImage() {
        int w = 333, h = 181;
        Map<Integer, Entry> t = ifd(TiffEncoder.encode(image(w, h, 1), w, h));
        assertEquals(Map.of(256, (long) w, 257, (long) h, 258, 32L, 259, 1L, 262, 1L, 277, 1L, 296, 1L, 339, 3L),
                Map.of(256, t.get(256).value(), 257, t.get(257).value(), 258, t.get(258).value(), 259, t.get(259).value(),
                        262, t.get(262).value(), 277, t.get(277).value(), 296, t.get(296).value(), 339, t.get(339).value()));
        assertArrayEquals(new long[]{1, 1}, t.get(282).values(), "XResolution 1/1");
        assertArrayEquals(new long[]{1, 1}, t.get(283).values(), "YResolution 1/1");
        assertFalse(t.containsKey(270), "no description unless one is given");
        assertEquals(13, t.size());
    }

    /** The strips are whole rows of about 64 KiB, in order and back to back, and the pixels start on a 16-byte boundary. */
    @Test
    void stripsCoverThePixelsContiguously() {
        int[][] cases = {{2048, 2048, 8}, {333, 181, 49}, {17000, 5, 1}, {3, 7, 7}, {1, 1, 1}};
        for (int[] c : cases) {
            int w = c[0], h = c[1], rowsPerStrip = c[2];
            byte[] tif = TiffEncoder.encode(image(w, h, 3), w, h);
            Map<Integer, Entry> t = ifd(tif);
            assertEquals(rowsPerStrip, t.get(278).value(), w + "x" + h);
            long[] offsets = t.get(273).values(), counts = t.get(279).values();
            assertEquals((h + rowsPerStrip - 1) / rowsPerStrip, offsets.length);
            assertEquals(offsets.length, counts.length);
            assertEquals(0, offsets[0] % 16);
            long next = offsets[0];
            for (int s = 0; s < offsets.length; s++) {
                assertEquals(next, offsets[s], "strip " + s + " of " + w + "x" + h);
                long rows = Math.min(rowsPerStrip, h - (long) s * rowsPerStrip);
                assertEquals(4 * w * rows, counts[s]);
                next += counts[s];
            }
            assertEquals(tif.length, next, "the pixels end the file");
        }
    }

    @Test
    void descriptionIsAnAsciiImageDescriptionThatImageIoReads() throws Exception {
        int w = 8, h = 5;
        float[] px = image(w, h, 4);
        String text = "ImageJ=1.11a\nunit=micron\nmin=-1.5\n";
        byte[] tif = TiffEncoder.encode(px, w, h, text);
        Entry d = ifd(tif).get(270);
        assertEquals(2, d.type(), "ASCII");
        assertEquals(text.length() + 1, d.count(), "NUL-terminated");
        assertEquals(0, d.values()[text.length()]);
        StringBuilder raw = new StringBuilder();
        for (int k = 0; k < text.length(); k++) raw.append((char) d.values()[k]);
        assertEquals(text, raw.toString());
        assertEquals(text, imageIoDescription(tif));
        assertNull(imageIoDescription(TiffEncoder.encode(px, w, h)));
        assertArrayEquals(bits(px), imageIoBits(tif));
        assertEquals(14, ifd(tif).size());
    }

    /** A buffer reused for slices of other sizes and descriptions yields the same file as a fresh encode. */
    @Test
    void encodeIntoAReusedBufferEqualsAFreshEncode() {
        byte[] buf = new byte[TiffEncoder.size(300, 200, "a long description that fills more of the header")];
        Arrays.fill(buf, (byte) 0x5a);
        TiffEncoder.encodeInto(image(300, 200, 5), 300, 200, "a long description that fills more of the header", buf);
        float[] px = image(13, 11, 6);
        int n = TiffEncoder.encodeInto(px, 13, 11, "x", buf);
        assertArrayEquals(TiffEncoder.encode(px, 13, 11, "x"), Arrays.copyOf(buf, n));
        int m = TiffEncoder.encodeInto(px, 13, 11, null, buf);
        assertArrayEquals(TiffEncoder.encode(px, 13, 11), Arrays.copyOf(buf, m));
    }

    @Test
    void badInputIsRefusedWithItsReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TiffEncoder.encode(new float[5], 2, 3));
        assertTrue(e.getMessage().contains("holds 5 values, expected 2x3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TiffEncoder.encode(new float[0], 0, 4));
        assertTrue(e.getMessage().contains("must be positive: 0x4"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TiffEncoder.encode(new float[1], 1, 1, "µm"));
        assertTrue(e.getMessage().contains("must be ASCII"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TiffEncoder.encode(new float[1], 1, 1, "a\0b"));
        e = assertThrows(IllegalArgumentException.class, () -> TiffEncoder.encodeInto(new float[4], 2, 2, null, new byte[100]));
        assertTrue(e.getMessage().contains("buffer of 100 bytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TiffEncoder.size(40000, 40000, null));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }

    /** Values of up to 4 bytes live in the IFD entry itself; a short description must too, or readers misread it. */
    @Test
    void shortDescriptionsAreHeldInTheirEntry() throws Exception {
        for (String text : new String[]{"", "z", "abc", "abcd"}) {
            byte[] tif = TiffEncoder.encode(new float[]{2.5f, -0f}, 2, 1, text);
            Entry d = ifd(tif).get(270);
            byte[] raw = new byte[d.count() - 1];
            for (int k = 0; k < raw.length; k++) raw[k] = (byte) d.values()[k];
            assertEquals(text, new String(raw, StandardCharsets.US_ASCII));
            assertEquals(text, imageIoDescription(tif));
            assertArrayEquals(bits(new float[]{2.5f, -0f}), imageIoBits(tif));
        }
    }
}
