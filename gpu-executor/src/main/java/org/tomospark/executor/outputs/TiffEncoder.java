package org.tomospark.executor.outputs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Encodes one grayscale image as a baseline little-endian TIFF, uncompressed, of float32 samples or of the compact
 * {@link SampleCoding}s (float16, uint16), straight into one byte array: the
 * pixels are copied once, in bulk, into their place in the file.
 *
 * <p>Layout: the 8-byte header, the image file directory (IFD) right after it, the values that do not fit in an IFD
 * entry (strip offsets and byte counts, the resolutions, the description), then the pixels, rows top to bottom, as one
 * contiguous block that starts on a 16-byte boundary (so readers can map it directly). The pixels are cut into strips of
 * whole rows of about {@value #STRIP_BYTES} bytes (one strip for small images), as TIFF 6.0 recommends for readers that
 * buffer a strip at a time.
 *
 * <p>Tags, in the order written: ImageWidth (256), ImageLength (257), BitsPerSample (258) = 32, Compression (259) = 1
 * (none), PhotometricInterpretation (262) = 1 (BlackIsZero), ImageDescription (270, ASCII, NUL-terminated, only when given),
 * StripOffsets (273), SamplesPerPixel (277) = 1, RowsPerStrip (278), StripByteCounts (279), XResolution (282) and
 * YResolution (283) = 1/1, ResolutionUnit (296) = 1 (none), SampleFormat (339) = 3 (IEEE floating point; 1 for uint16).
 * BitsPerSample is 16 for the compact types. Float32 bits are written as they are: NaN payloads, infinities and −0.0
 * survive.
 */
public final class TiffEncoder {
    /** Target size of one strip of pixels. */
    public static final int STRIP_BYTES = 1 << 16;

    private static final short ASCII = 2, SHORT = 3, LONG = 4, RATIONAL = 5;
    private static final int HEADER = 8, ENTRY = 12, PIXEL_ALIGN = 16;

    private TiffEncoder() {
    }

    /** Bytes of the file {@link #encodeInto} writes for this image. */
    public static int size(int width, int height, String description) {
        return size(width, height, description, SampleCoding.FLOAT32);
    }

    /** Bytes of the file {@link #encodeInto} writes for this image in {@code coding}. */
    public static int size(int width, int height, String description, SampleCoding coding) {
        return Layout.of(width, height, description, coding).size;
    }

    public static byte[] encode(float[] pixels, int width, int height) {
        return encode(pixels, width, height, null);
    }

    /** The TIFF file of {@code pixels} (row-major, {@code width × height}), with {@code description} (ASCII; null for none). */
    public static byte[] encode(float[] pixels, int width, int height, String description) {
        return encode(pixels, width, height, description, SampleCoding.FLOAT32);
    }

    /** The TIFF file of {@code pixels} stored in {@code coding}. */
    public static byte[] encode(float[] pixels, int width, int height, String description, SampleCoding coding) {
        Layout l = Layout.of(width, height, description, coding);
        checkPixels(pixels, width, height);
        byte[] dst = new byte[l.size];
        l.write(pixels, dst);
        return dst;
    }

    /**
     * Writes the TIFF file of {@code pixels} to the start of {@code dst}, which must hold at least {@link #size} bytes
     * (so a caller can reuse one buffer for many slices of one size); returns the file's length.
     */
    public static int encodeInto(float[] pixels, int width, int height, String description, byte[] dst) {
        return encodeInto(pixels, width, height, description, SampleCoding.FLOAT32, dst);
    }

    /** As {@link #encodeInto(float[], int, int, String, byte[])}, the samples stored in {@code coding}. */
    public static int encodeInto(float[] pixels, int width, int height, String description, SampleCoding coding,
                                 byte[] dst) {
        Layout l = Layout.of(width, height, description, coding);
        checkPixels(pixels, width, height);
        if (dst.length < l.size)
            throw new IllegalArgumentException("buffer of " + dst.length + " bytes cannot hold a " + width + "x" + height
                    + " TIFF of " + l.size + " bytes");
        l.write(pixels, dst);
        return l.size;
    }

    /**
     * Writes the TIFF file of {@code pixels} stored in {@code coding} into {@code dst} (a direct buffer, say, which a
     * file channel writes without a copy), from its start; returns the file's length and leaves {@code dst} holding
     * exactly the file (position 0, limit its length).
     */
    public static int encodeInto(float[] pixels, int width, int height, String description, SampleCoding coding,
                                 ByteBuffer dst) {
        return encodeInto(FloatBuffer.wrap(pixels), width, height, description, coding, dst);
    }

    /** As above, the pixels read from {@code pixels} (its position 0 to its limit). */
    public static int encodeInto(FloatBuffer pixels, int width, int height, String description, SampleCoding coding,
                                 ByteBuffer dst) {
        Layout l = Layout.of(width, height, description, coding);
        if (pixels.limit() != (long) width * height)
            throw new IllegalArgumentException("image holds " + pixels.limit() + " values, expected " + width + "x" + height);
        if (dst.capacity() < l.size)
            throw new IllegalArgumentException("buffer of " + dst.capacity() + " bytes cannot hold a " + width + "x" + height
                    + " TIFF of " + l.size + " bytes");
        dst.clear();
        l.writeHeader(dst);
        coding.put(pixels, dst);
        dst.position(0).limit(l.size);
        return l.size;
    }

    /**
     * Where the pixels begin in the file of this image: the bytes of its header (with the directory, the strip tables
     * and the description), a multiple of 16.
     */
    public static int pixelOffset(int width, int height, String description, SampleCoding coding) {
        return Layout.of(width, height, description, coding).pixelsAt;
    }

    /**
     * Writes the header of this image's file, {@link #pixelOffset} bytes, into {@code dst} from its position 0: the
     * pixels that follow in {@code dst} are then the file's (little-endian samples of {@code coding}).
     */
    public static void writeHeader(int width, int height, String description, SampleCoding coding, ByteBuffer dst) {
        Layout l = Layout.of(width, height, description, coding);
        if (dst.capacity() < l.size)
            throw new IllegalArgumentException("buffer of " + dst.capacity() + " bytes cannot hold a " + width + "x" + height
                    + " TIFF of " + l.size + " bytes");
        l.writeHeader(dst);
    }

    private static void checkPixels(float[] pixels, int width, int height) {
        if (pixels.length != (long) width * height)
            throw new IllegalArgumentException("image holds " + pixels.length + " values, expected " + width + "x" + height);
    }

    /** Where each part of the file goes, for one image size and description. */
    private static final class Layout {
        final int width, height, rowsPerStrip, strips, entries;
        final byte[] description; // NUL-terminated, or null
        final SampleCoding coding;
        final int sampleBytes;
        final int stripOffsetsAt, byteCountsAt, resolutionAt, descriptionAt, pixelsAt, size;

        private Layout(int width, int height, byte[] description, SampleCoding coding) {
            this.width = width;
            this.height = height;
            this.description = description;
            this.coding = coding;
            this.sampleBytes = coding.type().bytes();
            long rowBytes = (long) sampleBytes * width;
            this.rowsPerStrip = (int) Math.max(1, Math.min(height, STRIP_BYTES / rowBytes));
            this.strips = (height + rowsPerStrip - 1) / rowsPerStrip;
            this.entries = description == null ? 13 : 14;
            long at = HEADER + 2L + (long) ENTRY * entries + 4;
            // arrays of one LONG fit in their IFD entry
            this.stripOffsetsAt = (int) at;
            if (strips > 1) at += 4L * strips;
            this.byteCountsAt = (int) at;
            if (strips > 1) at += 4L * strips;
            this.resolutionAt = (int) at;
            at += 16;
            this.descriptionAt = (int) at;
            if (description != null && description.length > 4) at += description.length;
            at = (at + PIXEL_ALIGN - 1) / PIXEL_ALIGN * PIXEL_ALIGN;
            this.pixelsAt = (int) at;
            long total = at + rowBytes * height;
            if (total > Integer.MAX_VALUE - 8)
                throw new IllegalArgumentException("a " + width + "x" + height + " " + coding.type().id()
                        + " image is too large for one TIFF in memory");
            this.size = (int) total;
        }

        static Layout of(int width, int height, String description, SampleCoding coding) {
            if (width <= 0 || height <= 0) throw new IllegalArgumentException("image size must be positive: " + width + "x" + height);
            return new Layout(width, height, description == null ? null : asciiz(description), coding);
        }

        private static byte[] asciiz(String s) {
            if (!StandardCharsets.US_ASCII.newEncoder().canEncode(s) || s.indexOf('\0') >= 0)
                throw new IllegalArgumentException("TIFF ImageDescription must be ASCII without NUL characters: " + s);
            byte[] b = new byte[s.length() + 1];
            System.arraycopy(s.getBytes(StandardCharsets.US_ASCII), 0, b, 0, s.length());
            return b;
        }

        void write(float[] pixels, byte[] dst) {
            write(pixels, ByteBuffer.wrap(dst));
        }

        /** Writes the file into {@code b} from its position 0 (the file's start), in bulk where the samples go. */
        void write(float[] pixels, ByteBuffer b) {
            writeHeader(b);
            // the samples into the byte array, in little-endian order (float32: one bulk copy of the bits)
            coding.put(pixels, b);
        }

        /** Writes everything before the pixels into {@code b} from its position 0; leaves its position at the pixels. */
        void writeHeader(ByteBuffer b) {
            b.order(ByteOrder.LITTLE_ENDIAN).position(0);
            b.put((byte) 'I').put((byte) 'I').putShort((short) 42).putInt(HEADER);
            b.putShort((short) entries);
            long stripBytes = (long) sampleBytes * width * rowsPerStrip;
            long lastStripBytes = (long) sampleBytes * width * (height - (long) (strips - 1) * rowsPerStrip);
            entry(b, 256, LONG, 1, width);
            entry(b, 257, LONG, 1, height);
            entry(b, 258, SHORT, 1, 8 * sampleBytes);
            entry(b, 259, SHORT, 1, 1);
            entry(b, 262, SHORT, 1, 1);
            if (description != null) description(b);
            entry(b, 273, LONG, strips, strips == 1 ? pixelsAt : stripOffsetsAt);
            entry(b, 277, SHORT, 1, 1);
            entry(b, 278, LONG, 1, rowsPerStrip);
            entry(b, 279, LONG, strips, strips == 1 ? (int) lastStripBytes : byteCountsAt);
            entry(b, 282, RATIONAL, 1, resolutionAt);
            entry(b, 283, RATIONAL, 1, resolutionAt + 8);
            entry(b, 296, SHORT, 1, 1);
            entry(b, 339, SHORT, 1, coding.type().tiffSampleFormat());
            b.putInt(0); // no further IFD
            if (strips > 1) {
                for (int s = 0; s < strips; s++) b.putInt(stripOffsetsAt + 4 * s, (int) (pixelsAt + s * stripBytes));
                for (int s = 0; s < strips; s++) b.putInt(byteCountsAt + 4 * s, (int) (s < strips - 1 ? stripBytes : lastStripBytes));
            }
            b.position(resolutionAt);
            b.putInt(1).putInt(1).putInt(1).putInt(1);
            if (description != null && description.length > 4) b.put(description);
            // the gap up to the pixels is zeroed (a reused buffer holds an earlier file there)
            while (b.position() < pixelsAt) b.put((byte) 0);
        }

        /** The ImageDescription entry: up to 4 bytes (NUL included) are held in the entry itself, as TIFF requires. */
        private void description(ByteBuffer b) {
            if (description.length > 4) {
                entry(b, 270, ASCII, description.length, descriptionAt);
                return;
            }
            b.putShort((short) 270).putShort(ASCII).putInt(description.length);
            for (int k = 0; k < 4; k++) b.put(k < description.length ? description[k] : 0);
        }

        /** One IFD entry; a SHORT value goes in the first two bytes of the value field, the rest zero. */
        private static void entry(ByteBuffer b, int tag, short type, int count, int value) {
            b.putShort((short) tag).putShort(type).putInt(count);
            if (type == SHORT && count == 1) b.putShort((short) value).putShort((short) 0);
            else b.putInt(value);
        }
    }
}
