package org.tomospark.executor.outputs;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.plugins.tiff.BaselineTIFFTagSet;
import javax.imageio.plugins.tiff.TIFFDirectory;
import javax.imageio.plugins.tiff.TIFFField;
import javax.imageio.stream.ImageInputStream;
import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;

/**
 * 32-bit float grayscale TIFF (SampleFormat IEEEFP): written by {@link TiffEncoder}, read through the JDK's built-in
 * TIFF plugin (which reads any baseline layout, so files of earlier versions too); Fiji and tifffile read these files.
 * An optional ImageDescription (tag 270) carries text metadata such as the unit of the values.
 */
public final class FloatTiff {
    static {
        ImageIO.setUseCache(false); // encode in memory: no cache files in java.io.tmpdir on executors
    }

    private FloatTiff() {
    }

    /** The TIFF file of a float image ({@link TiffEncoder}: baseline, little-endian, uncompressed). */
    public static byte[] encode(float[] pixels, int width, int height) {
        return TiffEncoder.encode(pixels, width, height, null);
    }

    /** As {@link #encode(float[], int, int)}, with {@code description} (ASCII; null for none) as the ImageDescription. */
    public static byte[] encode(float[] pixels, int width, int height, String description) {
        return TiffEncoder.encode(pixels, width, height, description);
    }

    /** The ImageDescription of a TIFF, or null if it has none. */
    public static String description(byte[] bytes) throws IOException {
        return withReader(bytes, r -> {
            TIFFField f = TIFFDirectory.createFromMetadata(r.getImageMetadata(0)).getTIFFField(BaselineTIFFTagSet.TAG_IMAGE_DESCRIPTION);
            return f == null ? null : f.getAsString(0);
        });
    }

    /** What a reader of the first image yields. */
    @FunctionalInterface
    private interface ReaderTask<T> {
        T apply(ImageReader r) throws IOException;
    }

    private static <T> T withReader(byte[] bytes, ReaderTask<T> task) throws IOException {
        try (ImageInputStream iis = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> it = ImageIO.getImageReaders(iis);
            if (!it.hasNext()) throw new IOException("not a TIFF image");
            ImageReader r = it.next();
            try {
                r.setInput(iis);
                return task.apply(r);
            } finally {
                r.dispose();
            }
        }
    }

    public static void write(OutputStream out, float[] pixels, int width, int height) throws IOException {
        out.write(encode(pixels, width, height));
    }

    /** A decoded float image. */
    public record Image(int width, int height, float[] pixels) {
    }

    public static Image read(InputStream in) throws IOException {
        return decode(in.readAllBytes());
    }

    public static Image decode(byte[] bytes) throws IOException {
        return withReader(bytes, r -> {
            Raster ras = r.read(0).getRaster();
            int w = ras.getWidth(), h = ras.getHeight();
            float[] px = ras.getSamples(0, 0, w, h, 0, new float[w * h]);
            return new Image(w, h, px);
        });
    }
}
