package org.tomospark.executor.io;

import org.tomospark.executor.util.OrderStatistics;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** 8-bit grayscale PNG previews of float images, windowed between two percentiles. */
public final class PngPreview {
    static {
        ImageIO.setUseCache(false);
    }

    private PngPreview() {
    }

    /**
     * Grey window [lo, hi] from the given percentiles (0..100) of the finite values: the values a sort of them would put
     * at those ranks, found by selection (a preview of a 2048² slice and two planes takes milliseconds, not a sort's
     * second).
     */
    public static float[] window(float[] px, double loPct, double hiPct) {
        float[] f = new float[px.length];
        int n = 0;
        for (float v : px) if (Float.isFinite(v)) f[n++] = v;
        if (n == 0) return new float[]{0, 1};
        int kLo = (int) Math.min(n - 1, Math.floor(loPct / 100 * (n - 1)));
        int kHi = (int) Math.min(n - 1, Math.floor(hiPct / 100 * (n - 1)));
        int first = Math.min(kLo, kHi), second = Math.max(kLo, kHi);
        float a = OrderStatistics.select(f, 0, n, first);
        // the selection leaves nothing smaller than a[first] after it: the second rank is among the values from there on
        float b = second == first ? a : OrderStatistics.select(f, first, n, second);
        float lo = kLo <= kHi ? a : b, hi = kLo <= kHi ? b : a;
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

    public static byte[] encodePng(BufferedImage img) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(img, "png", bos)) throw new IllegalStateException("no PNG writer");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    /** PNG bytes of a float image windowed at the 0.5 and 99.5 percentiles. */
    public static byte[] encode(float[] px, int width, int height) {
        float[] w = window(px, 0.5, 99.5);
        return encodePng(toImage(px, width, height, w[0], w[1]));
    }
}
