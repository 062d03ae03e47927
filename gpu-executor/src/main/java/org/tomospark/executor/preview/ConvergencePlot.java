package org.tomospark.executor.preview;

import java.awt.image.BufferedImage;
import java.awt.image.WritableRaster;

/**
 * The convergence plot of an iterative reconstruction: the relative residual after each iteration on a logarithmic
 * axis, as an 8-bit grey PNG drawn straight into the raster (no AWT text, labels in {@link BitmapFont}).
 */
public final class ConvergencePlot {
    private ConvergencePlot() {
    }

    public static final int WIDTH = 480, HEIGHT = 300;
    /** The plot area: left, top, right and bottom edges in pixels. */
    static final int LEFT = 70, TOP = 24, RIGHT = WIDTH - 16, BOTTOM = HEIGHT - 34;

    /** The picture of {@code relative} (one value per iteration, each > 0), titled {@code title}. */
    public static BufferedImage image(double[] relative, String title) {
        if (relative.length == 0) throw new IllegalArgumentException("no iterations to plot");
        double lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
        for (double r : relative) {
            if (!(r > 0) || !Double.isFinite(r)) continue;
            lo = Math.min(lo, Math.log10(r));
            hi = Math.max(hi, Math.log10(r));
        }
        if (lo > hi) throw new IllegalArgumentException("no positive residual to plot");
        double dLo = Math.floor(lo), dHi = Math.max(dLo + 1, Math.ceil(hi));
        BufferedImage img = Annotated.canvas(WIDTH, HEIGHT);
        WritableRaster r = img.getRaster();
        fill(r, 0, 0, WIDTH, HEIGHT, 255);
        fill(r, LEFT, BOTTOM, RIGHT - LEFT + 1, 1, 0);
        fill(r, LEFT, TOP, 1, BOTTOM - TOP + 1, 0);
        for (int d = (int) dLo; d <= dHi; d++) {
            int y = y(d, dLo, dHi);
            for (int x = LEFT + 2; x <= RIGHT; x += 4) r.setSample(x, y, 0, 170);
            text(r, "1e" + d, LEFT - 6 - BitmapFont.width("1e" + d, 1), y - BitmapFont.CAP_HEIGHT / 2);
        }
        int n = relative.length;
        text(r, "1", LEFT, BOTTOM + 6);
        String last = Integer.toString(n);
        text(r, last, RIGHT - BitmapFont.width(last, 1), BOTTOM + 6);
        text(r, "iteration", (LEFT + RIGHT - BitmapFont.width("iteration", 1)) / 2, BOTTOM + 18);
        text(r, title, LEFT, 8);
        int px = -1, py = -1;
        for (int i = 0; i < n; i++) {
            if (!(relative[i] > 0) || !Double.isFinite(relative[i])) continue;
            int x = n == 1 ? (LEFT + RIGHT) / 2 : LEFT + (int) Math.round((RIGHT - LEFT) * i / (double) (n - 1));
            int y = y(Math.log10(relative[i]), dLo, dHi);
            if (px >= 0) line(r, px, py, x, y);
            fill(r, x - 1, y - 1, 3, 3, 0);
            px = x;
            py = y;
        }
        return img;
    }

    public static byte[] png(double[] relative, String title) {
        return PngPreview.encodePng(image(relative, title));
    }

    /** The row of log10 value v between the decades dLo (bottom) and dHi (top). */
    static int y(double v, double dLo, double dHi) {
        return BOTTOM - (int) Math.round((BOTTOM - TOP) * (v - dLo) / (dHi - dLo));
    }

    private static void text(WritableRaster r, String s, int x, int y) {
        BitmapFont.draw(r, s, x, y, 1, 0, 0, 0, WIDTH, HEIGHT);
    }

    private static void fill(WritableRaster r, int x, int y, int w, int h, int v) {
        for (int i = Math.max(0, y); i < Math.min(HEIGHT, y + h); i++)
            for (int j = Math.max(0, x); j < Math.min(WIDTH, x + w); j++) r.setSample(j, i, 0, v);
    }

    private static void line(WritableRaster r, int x0, int y0, int x1, int y1) {
        int steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
        for (int s = 0; s <= steps; s++) {
            int x = x0 + (int) Math.round((x1 - x0) * s / (double) Math.max(1, steps));
            int y = y0 + (int) Math.round((y1 - y0) * s / (double) Math.max(1, steps));
            fill(r, x, y, 1, 1, 0);
        }
    }
}
