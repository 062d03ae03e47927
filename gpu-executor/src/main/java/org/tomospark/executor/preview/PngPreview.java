package org.tomospark.executor.preview;

import org.tomospark.executor.util.OrderStatistics;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/** 8-bit grayscale PNG previews of float images, windowed between two percentiles. */
public final class PngPreview {
    static {
        ImageIO.setUseCache(false);
    }

    private PngPreview() {
    }

    /**
     * Grey window [lo, hi] from the given percentiles (0..100) of the finite values: the values a sort of them would put
     * at those ranks, found by ranking ({@link OrderStatistics#kth}: a preview of a 2048² slice and two planes takes
     * tens of milliseconds, not a sort's second).
     */
    public static float[] window(float[] px, double loPct, double hiPct) {
        float[] f = new float[px.length];
        int n = 0;
        for (float v : px) if (Float.isFinite(v)) f[n++] = v;
        if (n == 0) return new float[]{0, 1};
        int kLo = (int) Math.min(n - 1, Math.floor(loPct / 100 * (n - 1)));
        int kHi = (int) Math.min(n - 1, Math.floor(hiPct / 100 * (n - 1)));
        float lo = OrderStatistics.kth(f, n, kLo), hi = kHi == kLo ? lo : OrderStatistics.kth(f, n, kHi);
        if (hi <= lo) hi = lo + 1e-6f;
        return new float[]{lo, hi};
    }

    public static BufferedImage toImage(float[] px, int width, int height, float lo, float hi) {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
        byte[] dst = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        float scale = 255f / (hi - lo);
        for (int i = 0; i < width * height; i++) {
            float v = px[i];
            int g = Float.isFinite(v) ? Math.round((v - lo) * scale) : 0;
            dst[i] = (byte) Math.max(0, Math.min(255, g));
        }
        return img;
    }

    /**
     * PNG bytes of the image, deflated at the fastest level (ImageIO's PNG writer maps quality q to level 9 − round(9q)):
     * a preview of a 2048-pixel volume's three panels is written in a fraction of the default level's time, a little
     * larger.
     */
    public static byte[] encodePng(BufferedImage img) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("png");
        if (!writers.hasNext()) throw new IllegalStateException("no PNG writer");
        ImageWriter w = writers.next();
        try (ImageOutputStream ios = ImageIO.createImageOutputStream(bos)) {
            w.setOutput(ios);
            ImageWriteParam param = w.getDefaultWriteParam();
            if (param.canWriteCompressed()) {
                param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                param.setCompressionQuality(FASTEST_DEFLATE);
            }
            w.write(null, new IIOImage(img, null, null), param);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            w.dispose();
        }
        return bos.toByteArray();
    }

    /** The compression quality that ImageIO's PNG writer turns into deflate level 1. */
    private static final float FASTEST_DEFLATE = 8f / 9f;

    /** PNG bytes of a float image windowed at the 0.5 and 99.5 percentiles. */
    public static byte[] encode(float[] px, int width, int height) {
        float[] w = window(px, 0.5, 99.5);
        return encodePng(toImage(px, width, height, w[0], w[1]));
    }
}
