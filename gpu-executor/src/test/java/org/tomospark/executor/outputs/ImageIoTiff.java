package org.tomospark.executor.outputs;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * A float32 grayscale TIFF written by the JDK's own TIFF plugin (big-endian, its own strip layout): an encoder independent
 * of {@link TiffEncoder}, the baseline of the slice-writing benchmark and a second layout for the readers' tests.
 */
public final class ImageIoTiff {
    private ImageIoTiff() {
    }

    public static byte[] encode(float[] pixels, int width, int height) {
        ColorSpace gray = ColorSpace.getInstance(ColorSpace.CS_GRAY);
        ComponentColorModel cm = new ComponentColorModel(gray, false, false, Transparency.OPAQUE, DataBuffer.TYPE_FLOAT);
        PixelInterleavedSampleModel sm = new PixelInterleavedSampleModel(DataBuffer.TYPE_FLOAT, width, height, 1, width, new int[]{0});
        WritableRaster r = Raster.createWritableRaster(sm, new DataBufferFloat(pixels.clone(), pixels.length), new Point(0, 0));
        BufferedImage img = new BufferedImage(cm, r, false, null);
        Iterator<ImageWriter> it = ImageIO.getImageWritersByFormatName("tiff");
        if (!it.hasNext()) throw new IllegalStateException("no TIFF writer in this JDK");
        ImageWriter w = it.next();
        ByteArrayOutputStream bos = new ByteArrayOutputStream(pixels.length * 4 + 512);
        ImageIO.setUseCache(false);
        try (ImageOutputStream ios = ImageIO.createImageOutputStream(bos)) {
            w.setOutput(ios);
            w.write(null, new IIOImage(img, null, null), w.getDefaultWriteParam());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            w.dispose();
        }
        return bos.toByteArray();
    }
}
