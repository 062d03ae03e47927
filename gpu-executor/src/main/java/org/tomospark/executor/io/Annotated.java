package org.tomospark.executor.io;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.Locale;

/** Small java.awt helpers for labelled 8-bit previews (headless). */
public final class Annotated {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Annotated() {
    }

    /** Height of a label strip in pixels. */
    public static final int LABEL_HEIGHT = 16;

    public static BufferedImage canvas(int width, int height) {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.BLACK);
        g.fillRect(0, 0, width, height);
        g.dispose();
        return img;
    }

    /** Draws white text on a black strip {@code LABEL_HEIGHT} high at (x, y) (top-left of the strip). */
    public static void label(BufferedImage img, int x, int y, int width, String text) {
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
        g.setColor(Color.BLACK);
        g.fillRect(x, y, width, LABEL_HEIGHT);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.MONOSPACED, Font.BOLD, 12));
        g.setClip(x, y, width, LABEL_HEIGHT);
        g.drawString(text, x + 3, y + LABEL_HEIGHT - 4);
        g.dispose();
    }

    /** Draws a float image windowed to [lo, hi], scaled by nearest neighbour to dw × dh, at (x, y). */
    public static void draw(BufferedImage dst, float[] px, int w, int h, float lo, float hi, int x, int y, int dw, int dh) {
        BufferedImage src = PngPreview.toImage(px, w, h, lo, hi);
        Graphics2D g = dst.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(src, x, y, dw, dh, null);
        g.dispose();
    }

    public static String fmt(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 || v == 0 ? "%.4g" : "%.3e", v);
    }
}
