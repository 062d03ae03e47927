package org.tomospark.executor.iterative;

import org.tomospark.executor.preview.Annotated;
import org.tomospark.executor.preview.PngPreview;

import java.awt.image.BufferedImage;

/**
 * Central crops of n × n images side by side, enlarged three times, in the grey window of the first (the truth), each
 * labelled: the figure of docs/iterative.md.
 */
final class Crops {
    private Crops() {
    }

    static final int ZOOM = 3;

    static byte[] png(int n, String[] labels, float[][] images) {
        int c = n / 2, c0 = n / 4, tile = c * ZOOM, gap = 4, lh = Annotated.LABEL_HEIGHT;
        float lo = 0, hi = 0;
        for (float v : images[0]) hi = Math.max(hi, v);
        BufferedImage sheet = Annotated.canvas(images.length * (tile + gap) + gap, tile + lh + 2 * gap);
        for (int i = 0; i < images.length; i++) {
            float[] crop = new float[c * c];
            for (int r = 0; r < c; r++) System.arraycopy(images[i], (c0 + r) * n + c0, crop, r * c, c);
            int x = gap + i * (tile + gap);
            Annotated.draw(sheet, crop, c, c, lo, hi, x, gap, tile, tile);
            Annotated.label(sheet, x, gap + tile, tile, labels[i]);
        }
        return PngPreview.encodePng(sheet);
    }
}
