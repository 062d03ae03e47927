package org.tomospark.executor.io;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.plugins.tiff.BaselineTIFFTagSet;
import javax.imageio.plugins.tiff.TIFFDirectory;
import javax.imageio.plugins.tiff.TIFFField;
import javax.imageio.plugins.tiff.TIFFTag;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;
import java.awt.Point;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferFloat;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * 32-bit float grayscale TIFF (SampleFormat IEEEFP) through the JDK's built-in TIFF plugin; Fiji and
 * tifffile read these files. An optional ImageDescription (tag 270) carries text metadata such as the unit of
 * the values.
 */
public final class FloatTiff {
    static {
        ImageIO.setUseCache(false); // encode in memory: no cache files in java.io.tmpdir on executors
    }

    private FloatTiff() {
    }

    public static byte[] encode(float[] pixels, int width, int height) {
        return encode(pixels, width, height, null);
    }

    /** As {@link #encode(float[], int, int)}, with {@code description} (ASCII; null for none) as the ImageDescription. */
    public static byte[] encode(float[] pixels, int width, int height, String description) {
        if (pixels.length != width * height)
            throw new IllegalArgumentException("image holds " + pixels.length + " values, expected " + width + "x" + height);
        ColorSpace gray = ColorSpace.getInstance(ColorSpace.CS_GRAY);
        ComponentColorModel cm = new ComponentColorModel(gray, false, false, Transparency.OPAQUE, DataBuffer.TYPE_FLOAT);
        PixelInterleavedSampleModel sm = new PixelInterleavedSampleModel(DataBuffer.TYPE_FLOAT, width, height, 1, width, new int[]{0});
        WritableRaster r = Raster.createWritableRaster(sm, new DataBufferFloat(pixels.clone(), pixels.length), new Point(0, 0));
        BufferedImage img = new BufferedImage(cm, r, false, null);
        Iterator<ImageWriter> it = ImageIO.getImageWritersByFormatName("tiff");
        if (!it.hasNext()) throw new IllegalStateException("no TIFF writer in this JDK");
        ImageWriter w = it.next();
        ByteArrayOutputStream bos = new ByteArrayOutputStream(pixels.length * 4 + 512);
        try (ImageOutputStream ios = ImageIO.createImageOutputStream(bos)) {
            w.setOutput(ios);
            ImageWriteParam p = w.getDefaultWriteParam();
            IIOMetadata meta = description == null ? null : describe(w, img, p, description);
            w.write(null, new IIOImage(img, null, meta), p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            w.dispose();
        }
        return bos.toByteArray();
    }

    private static IIOMetadata describe(ImageWriter w, BufferedImage img, ImageWriteParam p, String description) throws IOException {
        if (!StandardCharsets.US_ASCII.newEncoder().canEncode(description))
            throw new IllegalArgumentException("TIFF ImageDescription must be ASCII: " + description);
        IIOMetadata base = w.getDefaultImageMetadata(ImageTypeSpecifier.createFromRenderedImage(img), p);
        TIFFDirectory dir = TIFFDirectory.createFromMetadata(base);
        TIFFTag tag = BaselineTIFFTagSet.getInstance().getTag(BaselineTIFFTagSet.TAG_IMAGE_DESCRIPTION);
        dir.addTIFFField(new TIFFField(tag, TIFFTag.TIFF_ASCII, 1, new String[]{description}));
        return dir.getAsMetadata();
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
