package org.tomospark.executor.preview;

import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.awt.image.WritableRaster;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built-in font draws its glyph table, pixel for pixel, one fixed-width cell per character. */
class BitmapFontTest {

    static BufferedImage black(int w, int h) {
        return new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
    }

    static int at(BufferedImage img, int x, int y) {
        return img.getRaster().getSample(x, y, 0);
    }

    /** {x0, y0, x1, y1} of the lit pixels (inclusive), or null when none is lit. */
    static int[] litBox(BufferedImage img) {
        int[] b = null;
        for (int y = 0; y < img.getHeight(); y++)
            for (int x = 0; x < img.getWidth(); x++)
                if (at(img, x, y) != 0) {
                    if (b == null) b = new int[]{x, y, x, y};
                    b[0] = Math.min(b[0], x);
                    b[1] = Math.min(b[1], y);
                    b[2] = Math.max(b[2], x);
                    b[3] = Math.max(b[3], y);
                }
        return b;
    }

    static void draw(BufferedImage img, String text, int x, int y, int scale) {
        BitmapFont.draw(img.getRaster(), text, x, y, scale, 255, 0, 0, img.getWidth(), img.getHeight());
    }

    @Test
    void renderedStringIsItsGlyphsCellByCell() {
        String text = "c=295.85";
        BufferedImage img = black(80, 24);
        int x0 = 7, y0 = 5;
        draw(img, text, x0, y0, 1);
        for (int k = 0; k < text.length(); k++)
            for (int gy = 0; gy < BitmapFont.CELL_HEIGHT; gy++)
                for (int gx = 0; gx < BitmapFont.ADVANCE; gx++) {
                    int expected = BitmapFont.lit(text.charAt(k), gx, gy) ? 255 : 0;
                    assertEquals(expected, at(img, x0 + k * BitmapFont.ADVANCE + gx, y0 + gy),
                            "'" + text.charAt(k) + "' at glyph pixel (" + gx + ", " + gy + ")");
                }
        // nothing outside the cells
        int inside = 0, all = 0;
        for (int y = 0; y < img.getHeight(); y++)
            for (int x = 0; x < img.getWidth(); x++) {
                if (at(img, x, y) == 0) continue;
                all++;
                if (x >= x0 && x < x0 + text.length() * BitmapFont.ADVANCE && y >= y0 && y < y0 + BitmapFont.CELL_HEIGHT) inside++;
            }
        assertEquals(all, inside);
        assertTrue(all > 8 * 6, "lit pixels " + all);
    }

    @Test
    void widthIsSixPixelsPerCharacter() {
        String text = "c=295.85";
        assertEquals(48, BitmapFont.width(text, 1));
        assertEquals(96, BitmapFont.width(text, 2));
        BufferedImage img = black(80, 24);
        draw(img, text, 10, 3, 1);
        // ink from the left column of 'c' to the right column of the last '5', no descenders: 8 cells less the
        // blank column after the last glyph, 7 rows from the top of the digits to the baseline
        assertArrayEquals(new int[]{10, 3, 10 + 47 - 1, 3 + 7 - 1}, litBox(img));
        // a glyph that descends below the baseline
        BufferedImage g = black(20, 20);
        draw(g, "g", 2, 2, 1);
        assertEquals(2 + 7 + 2 - 1, litBox(g)[3]);
    }

    @Test
    void glyphsHaveTheirExpectedShapes() {
        // written out here independently of the table: '=' two bars, '1' a stem, '.' a 2x2 dot at the baseline
        String[] eq = {".....", ".....", "#####", ".....", "#####", ".....", "....."};
        String[] dot = {".....", ".....", ".....", ".....", ".....", ".##..", ".##.."};
        String[] minus = {".....", ".....", ".....", "#####", ".....", ".....", "....."};
        Map<Character, String[]> shapes = Map.of('=', eq, '.', dot, '-', minus);
        for (var e : shapes.entrySet())
            for (int y = 0; y < 7; y++)
                for (int x = 0; x < 5; x++)
                    assertEquals(e.getValue()[y].charAt(x) == '#', BitmapFont.lit(e.getKey(), x, y),
                            "'" + e.getKey() + "' (" + x + ", " + y + ")");
        for (int y = 1; y < 7; y++) assertTrue(BitmapFont.lit('1', 2, y), "stem of '1', row " + y);
    }

    @Test
    void everyPrintableAsciiCharacterHasItsOwnGlyph() {
        Map<String, Character> seen = new HashMap<>();
        for (char c = '!'; c <= '~'; c++) {
            assertTrue(BitmapFont.hasGlyph(c), "no glyph for '" + c + "'");
            StringBuilder bits = new StringBuilder();
            for (int y = 0; y < BitmapFont.CELL_HEIGHT; y++)
                for (int x = 0; x < BitmapFont.ADVANCE; x++) bits.append(BitmapFont.lit(c, x, y) ? '#' : '.');
            assertTrue(bits.indexOf("#") >= 0, "'" + c + "' draws nothing");
            Character twin = seen.put(bits.toString(), c);
            assertNull(twin, "'" + c + "' looks like '" + twin + "'");
            // one blank column between characters and one blank row under the descenders
            for (int y = 0; y < BitmapFont.CELL_HEIGHT; y++) assertFalse(BitmapFont.lit(c, BitmapFont.ADVANCE - 1, y));
            for (int x = 0; x < BitmapFont.ADVANCE; x++) assertFalse(BitmapFont.lit(c, x, BitmapFont.CELL_HEIGHT - 1));
        }
        assertTrue(BitmapFont.hasGlyph(' '));
        for (int y = 0; y < BitmapFont.CELL_HEIGHT; y++)
            for (int x = 0; x < BitmapFont.ADVANCE; x++) assertFalse(BitmapFont.lit(' ', x, y));
    }

    @Test
    void otherCharactersAreHollowBoxes() {
        int mu = '\u00b5', emoji = "\uD83D\uDE00".codePointAt(0);
        for (int c : new int[]{mu, emoji}) {
            assertFalse(BitmapFont.hasGlyph(c));
            assertTrue(BitmapFont.lit(c, 0, 0) && BitmapFont.lit(c, 4, 6) && BitmapFont.lit(c, 0, 6) && BitmapFont.lit(c, 4, 0));
            assertFalse(BitmapFont.lit(c, 2, 3));
        }
        // a character outside the basic plane takes one cell, not two
        assertEquals(3 * BitmapFont.ADVANCE, BitmapFont.width("a\uD83D\uDE00b", 1));
        BufferedImage img = black(40, 12);
        draw(img, "a\uD83D\uDE00b", 0, 0, 1);
        for (int y = 0; y < BitmapFont.CELL_HEIGHT; y++)
            for (int x = 0; x < BitmapFont.ADVANCE; x++)
                assertEquals(BitmapFont.lit('b', x, y) ? 255 : 0, at(img, 2 * BitmapFont.ADVANCE + x, y));
    }

    @Test
    void scaleMakesBlocksAndTheClipCutsTheText() {
        BufferedImage img = black(30, 30);
        draw(img, "4", 1, 2, 3);
        for (int y = 0; y < 30; y++)
            for (int x = 0; x < 30; x++) {
                int gx = Math.floorDiv(x - 1, 3), gy = Math.floorDiv(y - 2, 3);
                assertEquals(BitmapFont.lit('4', gx, gy) ? 255 : 0, at(img, x, y), "(" + x + ", " + y + ")");
            }
        // clipped to 8 columns and 5 rows from (2, 1): only that part of "888" is drawn, the rest untouched
        BufferedImage c = black(40, 20);
        WritableRaster r = c.getRaster();
        for (int y = 0; y < 20; y++) for (int x = 0; x < 40; x++) r.setSample(x, y, 0, 7);
        BitmapFont.draw(r, "888", 2, 1, 1, 200, 2, 1, 8, 5);
        for (int y = 0; y < 20; y++)
            for (int x = 0; x < 40; x++) {
                boolean inClip = x >= 2 && x < 10 && y >= 1 && y < 6;
                int cell = (x - 2) / BitmapFont.ADVANCE, gx = (x - 2) % BitmapFont.ADVANCE;
                boolean ink = inClip && BitmapFont.lit('8', gx, y - 1) && cell < 3;
                assertEquals(ink ? 200 : 7, at(c, x, y), "(" + x + ", " + y + ")");
            }
        assertThrows(IllegalArgumentException.class, () -> draw(black(4, 4), "x", 0, 0, 0));
        // drawing past the raster's edges is cut, not an error
        BufferedImage small = black(4, 4);
        draw(small, "WW", -1, -2, 2);
        assertTrue(Arrays.stream(small.getRaster().getPixels(0, 0, 4, 4, (int[]) null)).anyMatch(v -> v == 255));
    }
}
