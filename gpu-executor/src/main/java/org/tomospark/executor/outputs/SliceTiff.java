package org.tomospark.executor.outputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads a slice back from the TIFF that {@link TiffEncoder} wrote in a known {@link SampleCoding}: float32 through
 * ImageIO ({@link FloatTiff#decode}), the compact types from their strips, which that encoder writes as one block in
 * little-endian order, decoded to values with the coding's scale.
 */
public final class SliceTiff {
    private static final int WIDTH = 256, HEIGHT = 257, BITS = 258, STRIP_OFFSETS = 273, SAMPLE_FORMAT = 339;
    private static final short LONG = 4;

    private SliceTiff() {
    }

    public static FloatTiff.Image decode(byte[] bytes, SampleCoding coding) throws IOException {
        if (coding.type() == OutputType.FLOAT32) return FloatTiff.decode(bytes);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 8 || b.getShort(0) != 0x4949 || b.getShort(2) != 42)
            throw new IOException("not a little-endian TIFF");
        int ifd = b.getInt(4);
        int entries = b.getShort(ifd) & 0xffff;
        int width = -1, height = -1, bits = -1, format = 1;
        long pixelsAt = -1;
        for (int e = 0; e < entries; e++) {
            int at = ifd + 2 + 12 * e;
            int tag = b.getShort(at) & 0xffff;
            short type = b.getShort(at + 2);
            int count = b.getInt(at + 4);
            long value = type == LONG ? b.getInt(at + 8) & 0xffffffffL : b.getShort(at + 8) & 0xffff;
            switch (tag) {
                case WIDTH -> width = (int) value;
                case HEIGHT -> height = (int) value;
                case BITS -> bits = (int) value;
                case SAMPLE_FORMAT -> format = (int) value;
                case STRIP_OFFSETS -> pixelsAt = count == 1 ? value : b.getInt((int) value) & 0xffffffffL;
                default -> {
                }
            }
        }
        if (bits != 8 * coding.type().bytes() || format != coding.type().tiffSampleFormat())
            throw new IOException("the TIFF holds " + bits + "-bit samples of format " + format + ", not "
                    + coding.type().id());
        long n = (long) width * height;
        if (width < 1 || height < 1 || pixelsAt < 0 || pixelsAt + n * coding.type().bytes() > bytes.length)
            throw new IOException("TIFF of " + width + "x" + height + " pixels from byte " + pixelsAt
                    + " does not fit its "
                    + bytes.length + " bytes");
        return new FloatTiff.Image(width, height, coding.get(b.position((int) pixelsAt), (int) n));
    }
}
