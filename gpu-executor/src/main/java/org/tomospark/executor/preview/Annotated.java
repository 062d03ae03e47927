package org.tomospark.executor.preview;

import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.util.Locale;

/**
 * Labelled 8-bit grey pictures (previews, contact sheets), drawn straight into the image raster: no Graphics2D and no
 * AWT text, so they need neither a display nor font libraries. Labels use the built-in {@link BitmapFont}.
 */
public final class Annotated {
    private Annotated() {
    }

    /** Height of a label strip in pixels. */
    public static final int LABEL_HEIGHT = 16;

    /** Left margin of a label's text in its strip, and the rows above the top of its capitals. */
    public static final int LABEL_INSET_X = 3, LABEL_INSET_Y = 4;

    /** A black 8-bit grey image. */
    public static BufferedImage canvas(int width, int height) {
        return new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
    }

    /**
     * Draws white text on a black strip {@code LABEL_HEIGHT} high at (x, y) (top-left of the strip); the text is cut
     * at the strip's edges.
     */
    public static void label(BufferedImage img, int x, int y, int width, String text) {
        WritableRaster r = img.getRaster();
        int x0 = Math.max(0, x), y0 = Math.max(0, y);
        int x1 = Math.min(img.getWidth(), x + width), y1 = Math.min(img.getHeight(), y + LABEL_HEIGHT);
        for (int i = y0; i < y1; i++) for (int j = x0; j < x1; j++) r.setSample(j, i, 0, 0);
        BitmapFont.draw(r, text, x + LABEL_INSET_X, y + LABEL_INSET_Y, 1, 255, x, y, width, LABEL_HEIGHT);
    }

    /**
     * Draws a float image windowed to [lo, hi] (non-finite values black) at (x, y), scaled to dw × dh by bilinear
     * interpolation of the grey levels: destination pixel centres map onto the source's, and the image's edge
     * pixels extend outwards.
     */
    public static void draw(BufferedImage dst, float[] px, int w, int h, float lo, float hi, int x, int y, int dw, int dh) {
        Raster src = PngPreview.toImage(px, w, h, lo, hi).getRaster();
        WritableRaster out = dst.getRaster();
        if (dw == w && dh == h) {
            // unscaled: every destination centre falls on a source centre, so the grey levels are copied as they are
            out.setRect(x, y, src);
            return;
        }
        double sx = w / (double) dw, sy = h / (double) dh;
        for (int i = 0; i < dh; i++) {
            int ty = y + i;
            if (ty < 0 || ty >= dst.getHeight()) continue;
            double fy = Math.min(h - 1, Math.max(0, (i + 0.5) * sy - 0.5));
            int y0 = (int) fy, y1 = Math.min(h - 1, y0 + 1);
            double wy = fy - y0;
            for (int j = 0; j < dw; j++) {
                int tx = x + j;
                if (tx < 0 || tx >= dst.getWidth()) continue;
                double fx = Math.min(w - 1, Math.max(0, (j + 0.5) * sx - 0.5));
                int x0 = (int) fx, x1 = Math.min(w - 1, x0 + 1);
                double wx = fx - x0;
                double top = src.getSample(x0, y0, 0) * (1 - wx) + src.getSample(x1, y0, 0) * wx;
                double bottom = src.getSample(x0, y1, 0) * (1 - wx) + src.getSample(x1, y1, 0) * wx;
                out.setSample(tx, ty, 0, (int) Math.round(top * (1 - wy) + bottom * wy));
            }
        }
    }

    public static String fmt(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 || v == 0 ? "%.4g" : "%.3e", v);
    }
}
