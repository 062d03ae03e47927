package org.tomospark.executor.preview;

import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.awt.image.WritableRaster;
import java.io.ByteArrayInputStream;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Labels and scaled images drawn straight into the raster, and the PNG they are encoded to. */
class AnnotatedTest {

    static int at(BufferedImage img, int x, int y) {
        return img.getRaster().getSample(x, y, 0);
    }

    @Test
    void labelIsWhiteTextOnABlackStripCutAtItsEdge() {
        BufferedImage img = Annotated.canvas(100, 40);
        WritableRaster r = img.getRaster();
        for (int y = 0; y < 40; y++) for (int x = 0; x < 100; x++) r.setSample(x, y, 0, 100);
        String text = "XY z=7 and a long tail";
        int sx = 10, sy = 5, sw = 60;
        Annotated.label(img, sx, sy, sw, text);
        int tx = sx + Annotated.LABEL_INSET_X, ty = sy + Annotated.LABEL_INSET_Y;
        for (int y = 0; y < 40; y++)
            for (int x = 0; x < 100; x++) {
                boolean inStrip = x >= sx && x < sx + sw && y >= sy && y < sy + Annotated.LABEL_HEIGHT;
                int expected = 100;
                if (inStrip) {
                    int k = Math.floorDiv(x - tx, BitmapFont.ADVANCE), gx = Math.floorMod(x - tx, BitmapFont.ADVANCE);
                    boolean ink = k >= 0 && k < text.length() && BitmapFont.lit(text.charAt(k), gx, y - ty);
                    expected = ink ? 255 : 0;
                }
                assertEquals(expected, at(img, x, y), "(" + x + ", " + y + ")");
            }
    }

    @Test
    void drawScalesBilinearlyBetweenPixelCentres() {
        // a 2x2 image windowed to [0, 3]: greys 0, 85 / 170, 255; drawn 4x4 at (1, 1) on a 6x6 canvas
        float[] px = {0, 1, 2, 3};
        BufferedImage img = Annotated.canvas(6, 6);
        Annotated.draw(img, px, 2, 2, 0, 3, 1, 1, 4, 4);
        // along a row: destination centres at source x = -0.25 (edge), 0.25, 0.75, 1.25 (edge)
        int[] top = {0, 21, 64, 85}, bottom = {170, 191, 234, 255};
        int[] mid1 = {43, 64, 106, 128}, mid2 = {128, 149, 191, 213};
        int[][] expected = {top, mid1, mid2, bottom};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) assertEquals(expected[i][j], at(img, 1 + j, 1 + i), 1, "(" + j + ", " + i + ")");
        for (int k = 0; k < 6; k++) { // the border is untouched
            assertEquals(0, at(img, k, 0));
            assertEquals(0, at(img, 0, k));
            assertEquals(0, at(img, k, 5));
            assertEquals(0, at(img, 5, k));
        }
        // same size: exactly the windowed grey levels; non-finite values black
        float[] q = {0, 1, Float.NaN, 3};
        BufferedImage same = Annotated.canvas(2, 2);
        Annotated.draw(same, q, 2, 2, 0, 3, 0, 0, 2, 2);
        assertArrayEquals(new int[]{0, 85, 0, 255}, same.getRaster().getPixels(0, 0, 2, 2, (int[]) null));
        // partly outside the canvas: cut, not an error
        Annotated.draw(Annotated.canvas(3, 3), px, 2, 2, 0, 3, -2, 1, 8, 8);
        // unscaled and partly outside: the part inside holds the windowed grey levels, the rest is untouched
        BufferedImage cut = Annotated.canvas(3, 3);
        Annotated.draw(cut, q, 2, 2, 0, 3, -1, 2, 2, 2);
        assertArrayEquals(new int[]{0, 0, 0, 0, 0, 0, 85, 0, 0}, cut.getRaster().getPixels(0, 0, 3, 3, (int[]) null));
    }

    @Test
    void labelledImageSurvivesPngEncoding() throws Exception {
        BufferedImage img = Annotated.canvas(120, 40);
        Annotated.label(img, 0, 0, 120, "grey [-0.01, 1.5e+03]");
        Annotated.draw(img, new float[]{0, 1, 2, 3}, 2, 2, 0, 3, 10, 20, 8, 8);
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(PngPreview.encodePng(img)));
        assertEquals(120, back.getWidth());
        for (int y = 0; y < 40; y++) for (int x = 0; x < 120; x++) assertEquals(at(img, x, y), at(back, x, y), "(" + x + ", " + y + ")");
    }
}
