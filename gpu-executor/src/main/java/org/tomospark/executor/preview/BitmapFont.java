package org.tomospark.executor.preview;

import java.awt.image.WritableRaster;
import java.util.HashMap;
import java.util.Map;

/**
 * A fixed-width bitmap font for the labels of preview pictures, drawn pixel by pixel into an image raster. It needs
 * no font files, no font libraries and no AWT text rendering, so a label can be drawn on any machine that can run the
 * JVM (compute nodes often lack the native libraries AWT's font manager loads).
 * <p>
 * Every printable ASCII character has a glyph of {@value #GLYPH_WIDTH} columns; capitals and digits are
 * {@value #CAP_HEIGHT} rows high above the baseline, and g, j, p, q, y, the comma and the semicolon reach
 * {@value #DESCENT} rows below it. Glyphs sit in cells of {@value #ADVANCE} × {@value #CELL_HEIGHT} pixels (one blank
 * column between characters, one blank row under the descenders). Other characters are drawn as a hollow box.
 * Drawing at scale s makes every glyph pixel an s × s block.
 */
public final class BitmapFont {
    public static final int GLYPH_WIDTH = 5, CAP_HEIGHT = 7, DESCENT = 2;
    public static final int ADVANCE = GLYPH_WIDTH + 1, CELL_HEIGHT = CAP_HEIGHT + DESCENT + 1;

    /**
     * The glyph table: a character, then its rows from the top, '#' lit and '.' unlit, {@value #GLYPH_WIDTH} per row,
     * separated by spaces; 7 rows reach the baseline, more go below it.
     */
    private static final String[] TABLE = {
            " ", "..... ..... ..... ..... ..... ..... .....",
            "!", "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
            "\"", ".#.#. .#.#. .#.#. ..... ..... ..... .....",
            "#", ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
            "$", "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
            "%", "##... ##..# ...#. ..#.. .#... #..## ...##",
            "&", ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
            "'", "..#.. ..#.. .#... ..... ..... ..... .....",
            "(", "...#. ..#.. .#... .#... .#... ..#.. ...#.",
            ")", ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
            "*", "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
            "+", "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
            ",", "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...",
            "-", "..... ..... ..... ##### ..... ..... .....",
            ".", "..... ..... ..... ..... ..... .##.. .##..",
            "/", "..... ....# ...#. ..#.. .#... #.... .....",
            "0", ".###. #...# #..## #.#.# ##..# #...# .###.",
            "1", "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
            "2", ".###. #...# ....# ...#. ..#.. .#... #####",
            "3", "##### ...#. ..#.. ...#. ....# #...# .###.",
            "4", "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
            "5", "##### #.... ####. ....# ....# #...# .###.",
            "6", "..##. .#... #.... ####. #...# #...# .###.",
            "7", "##### ....# ...#. ..#.. .#... .#... .#...",
            "8", ".###. #...# #...# .###. #...# #...# .###.",
            "9", ".###. #...# #...# .#### ....# ...#. .##..",
            ":", "..... .##.. .##.. ..... .##.. .##.. .....",
            ";", "..... .##.. .##.. ..... .##.. .##.. ..#.. .#...",
            "<", "...#. ..#.. .#... #.... .#... ..#.. ...#.",
            "=", "..... ..... ##### ..... ##### ..... .....",
            ">", ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
            "?", ".###. #...# ....# ...#. ..#.. ..... ..#..",
            "@", ".###. #...# ....# .##.# #.#.# #.#.# .###.",
            "A", ".###. #...# #...# #...# ##### #...# #...#",
            "B", "####. #...# #...# ####. #...# #...# ####.",
            "C", ".###. #...# #.... #.... #.... #...# .###.",
            "D", "###.. #..#. #...# #...# #...# #..#. ###..",
            "E", "##### #.... #.... ####. #.... #.... #####",
            "F", "##### #.... #.... ####. #.... #.... #....",
            "G", ".###. #...# #.... #.### #...# #...# .####",
            "H", "#...# #...# #...# ##### #...# #...# #...#",
            "I", ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
            "J", "..### ...#. ...#. ...#. ...#. #..#. .##..",
            "K", "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
            "L", "#.... #.... #.... #.... #.... #.... #####",
            "M", "#...# ##.## #.#.# #.#.# #...# #...# #...#",
            "N", "#...# #...# ##..# #.#.# #..## #...# #...#",
            "O", ".###. #...# #...# #...# #...# #...# .###.",
            "P", "####. #...# #...# ####. #.... #.... #....",
            "Q", ".###. #...# #...# #...# #.#.# #..#. .##.#",
            "R", "####. #...# #...# ####. #.#.. #..#. #...#",
            "S", ".#### #.... #.... .###. ....# ....# ####.",
            "T", "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
            "U", "#...# #...# #...# #...# #...# #...# .###.",
            "V", "#...# #...# #...# #...# #...# .#.#. ..#..",
            "W", "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
            "X", "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
            "Y", "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
            "Z", "##### ....# ...#. ..#.. .#... #.... #####",
            "[", ".###. .#... .#... .#... .#... .#... .###.",
            "\\", "..... #.... .#... ..#.. ...#. ....# .....",
            "]", ".###. ...#. ...#. ...#. ...#. ...#. .###.",
            "^", "..#.. .#.#. #...# ..... ..... ..... .....",
            "_", "..... ..... ..... ..... ..... ..... ..... #####",
            "`", ".#... ..#.. ...#. ..... ..... ..... .....",
            "a", "..... ..... .###. ....# .#### #...# .####",
            "b", "#.... #.... #.##. ##..# #...# #...# ####.",
            "c", "..... ..... .###. #.... #.... #...# .###.",
            "d", "....# ....# .##.# #..## #...# #...# .####",
            "e", "..... ..... .###. #...# ##### #.... .###.",
            "f", "..##. .#..# .#... ###.. .#... .#... .#...",
            "g", "..... ..... .#### #...# #...# #...# .#### ....# .###.",
            "h", "#.... #.... #.##. ##..# #...# #...# #...#",
            "i", "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",
            "j", "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..",
            "k", "#.... #.... #..#. #.#.. ##... #.#.. #..#.",
            "l", ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
            "m", "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#",
            "n", "..... ..... #.##. ##..# #...# #...# #...#",
            "o", "..... ..... .###. #...# #...# #...# .###.",
            "p", "..... ..... ####. #...# #...# #...# ####. #.... #....",
            "q", "..... ..... .#### #...# #...# #...# .#### ....# ....#",
            "r", "..... ..... #.##. ##..# #.... #.... #....",
            "s", "..... ..... .###. #.... .###. ....# ####.",
            "t", ".#... .#... ###.. .#... .#... .#..# ..##.",
            "u", "..... ..... #...# #...# #...# #..## .##.#",
            "v", "..... ..... #...# #...# #...# .#.#. ..#..",
            "w", "..... ..... #...# #...# #.#.# #.#.# .#.#.",
            "x", "..... ..... #...# .#.#. ..#.. .#.#. #...#",
            "y", "..... ..... #...# #...# #...# #...# .#### ....# .###.",
            "z", "..... ..... ##### ...#. ..#.. .#... #####",
            "{", "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.",
            "|", "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
            "}", ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#...",
            "~", "..... ..... .#... #.#.# ...#. ..... .....",
    };

    /** Drawn for characters without a glyph. */
    private static final String MISSING = "##### #...# #...# #...# #...# #...# #####";

    /** Rows of each glyph as bit masks (bit 4 = leftmost column), {@link #CAP_HEIGHT} + {@link #DESCENT} rows. */
    private static final Map<Integer, int[]> GLYPHS = new HashMap<>();
    private static final int[] MISSING_GLYPH = parse("missing", MISSING);

    static {
        for (int i = 0; i < TABLE.length; i += 2) {
            int c = TABLE[i].codePointAt(0);
            if (GLYPHS.put(c, parse(TABLE[i], TABLE[i + 1])) != null) throw new IllegalStateException("glyph '" + TABLE[i] + "' twice");
        }
    }

    private BitmapFont() {
    }

    private static int[] parse(String name, String rows) {
        String[] r = rows.split(" ");
        if (r.length < CAP_HEIGHT || r.length > CAP_HEIGHT + DESCENT)
            throw new IllegalStateException("glyph '" + name + "': " + r.length + " rows");
        int[] bits = new int[CAP_HEIGHT + DESCENT];
        for (int y = 0; y < r.length; y++) {
            if (r[y].length() != GLYPH_WIDTH || !r[y].matches("[#.]+"))
                throw new IllegalStateException("glyph '" + name + "', row " + y + ": '" + r[y] + "'");
            for (int x = 0; x < GLYPH_WIDTH; x++) if (r[y].charAt(x) == '#') bits[y] |= 1 << (GLYPH_WIDTH - 1 - x);
        }
        return bits;
    }

    /** Whether {@code codePoint} has a glyph of its own (else it is drawn as a hollow box). */
    public static boolean hasGlyph(int codePoint) {
        return GLYPHS.containsKey(codePoint);
    }

    /**
     * Whether the glyph of {@code codePoint} lights pixel (x, y) of its cell, y counted from the top of the capitals;
     * false outside the glyph's {@value #GLYPH_WIDTH} × ({@value #CAP_HEIGHT} + {@value #DESCENT}) pixels.
     */
    public static boolean lit(int codePoint, int x, int y) {
        if (x < 0 || x >= GLYPH_WIDTH || y < 0 || y >= CAP_HEIGHT + DESCENT) return false;
        int[] g = GLYPHS.getOrDefault(codePoint, MISSING_GLYPH);
        return (g[y] >> (GLYPH_WIDTH - 1 - x) & 1) != 0;
    }

    /** Width in pixels of {@code text} drawn at {@code scale}: one cell per character, the last one's spacing included. */
    public static int width(String text, int scale) {
        return text.codePointCount(0, text.length()) * ADVANCE * scale;
    }

    /**
     * Draws {@code text} into band 0 of {@code raster} with the top of its capitals at (x, y): each lit glyph pixel
     * is set to {@code value}, unlit ones are left as they are. Nothing is drawn outside the clip rectangle
     * (clipX, clipY, clipW, clipH), nor outside the raster.
     */
    public static void draw(WritableRaster raster, String text, int x, int y, int scale, int value,
                            int clipX, int clipY, int clipW, int clipH) {
        if (scale < 1) throw new IllegalArgumentException("font scale " + scale + " < 1");
        int x0 = Math.max(clipX, raster.getMinX()), y0 = Math.max(clipY, raster.getMinY());
        int x1 = Math.min(clipX + clipW, raster.getMinX() + raster.getWidth());
        int y1 = Math.min(clipY + clipH, raster.getMinY() + raster.getHeight());
        int cx = x;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            for (int gy = 0; gy < CAP_HEIGHT + DESCENT; gy++)
                for (int gx = 0; gx < GLYPH_WIDTH; gx++) {
                    if (!lit(c, gx, gy)) continue;
                    for (int sy = 0; sy < scale; sy++)
                        for (int sx = 0; sx < scale; sx++) {
                            int px = cx + gx * scale + sx, py = y + gy * scale + sy;
                            if (px >= x0 && px < x1 && py >= y0 && py < y1) raster.setSample(px, py, 0, value);
                        }
                }
            cx += ADVANCE * scale;
        }
    }
}
