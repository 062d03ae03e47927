package org.tomospark.executor.preview;

import org.slf4j.LoggerFactory;

import java.awt.image.BufferedImage;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Collects, as slices stream past, what an orthogonal-views preview needs (the middle slice, and the central
 * image row and column of every slice) and renders one PNG: the central XY slice, the XZ plane through the
 * central image row and the YZ plane through the central image column, side by side with one grey window
 * (percentiles 0.5–99.5 of the three), the grey range printed at the top. Planes with fewer than 48 slices are
 * stretched along z (factor printed); volumes larger than {@value #MAX_PANEL} pixels along a side are shown binned
 * (means of f × f pixels, factor printed), which keeps a 2048³ preview's rendering and PNG to a quarter. Memory: one
 * slice plus (width + height) values per slice.
 */
public final class OrthoPreview {
    private final int firstSlice, lastSlice, middle;
    private final TreeMap<Integer, float[]> xz = new TreeMap<>(), yz = new TreeMap<>();
    private float[] xy;
    private int width, height;
    /** Bumped by every slice or profile that arrives; the last PNG encoding holds for its version and title only. */
    private long version;
    private byte[] png;
    private String pngTitle;
    private long pngVersion = -1;

    /** Slices [firstSlice, endSlice) will arrive (any order; missing ones stay black). */
    public OrthoPreview(int firstSlice, int endSlice) {
        this.firstSlice = firstSlice;
        this.lastSlice = endSlice - 1;
        this.middle = (firstSlice + endSlice - 1) / 2;
    }

    /** A whole slice ({@code w × h}): its profiles, and all of it when it is the middle slice (the XY panel). */
    public void accept(int slice, float[] px, int w, int h) {
        accept(slice, FloatBuffer.wrap(px), w, h);
    }

    /** As above, the slice's pixels read from {@code px} (position 0 to limit; a direct frame's, say). */
    public synchronized void accept(int slice, FloatBuffer px, int w, int h) {
        if (slice == middle) {
            xy = new float[w * h];
            px.get(0, xy);
        }
        version++;
        acceptProfiles(slice, centralRow(px, w, h), centralColumn(px, w, h));
    }

    /** Image row {@code h/2} of a {@code w × h} slice read from {@code px}. */
    public static float[] centralRow(FloatBuffer px, int w, int h) {
        float[] row = new float[w];
        px.get((h / 2) * w, row);
        return row;
    }

    /** Image column {@code w/2} of a {@code w × h} slice read from {@code px}. */
    public static float[] centralColumn(FloatBuffer px, int w, int h) {
        float[] col = new float[h];
        for (int i = 0; i < h; i++) col[i] = px.get(i * w + w / 2);
        return col;
    }

    /** Image row {@code h/2} of a {@code w × h} slice: the slice's line of the XZ plane. */
    public static float[] centralRow(float[] px, int w, int h) {
        return centralRow(FloatBuffer.wrap(px), w, h);
    }

    /** Image column {@code w/2} of a {@code w × h} slice: the slice's line of the YZ plane. */
    public static float[] centralColumn(float[] px, int w, int h) {
        return centralColumn(FloatBuffer.wrap(px), w, h);
    }

    /**
     * Only a slice's {@link #centralRow} and {@link #centralColumn} (e.g. sent by the task that computed it),
     * for the XZ and YZ planes; the middle slice itself must still come through {@link #accept}.
     */
    public synchronized void acceptProfiles(int slice, float[] row, float[] column) {
        if (slice < firstSlice || slice > lastSlice)
            throw new IllegalArgumentException("preview: slice " + slice + " outside " + firstSlice + ".." + lastSlice);
        if (!xz.isEmpty() && (row.length != width || column.length != height))
            throw new IllegalArgumentException("preview: slice " + slice + " is " + row.length + "x" + column.length
                    + ", the others " + width + "x" + height);
        width = row.length;
        height = column.length;
        xz.put(slice, row.clone());
        yz.put(slice, column.clone());
        version++;
    }

    public synchronized boolean hasData() {
        return xy != null;
    }

    /** Panels larger than this, in pixels along any side, are shown binned (means of f × f pixels): a preview is a glance. */
    static final int MAX_PANEL = 1024;

    /** The binning of the panels: the smallest factor that brings the largest of width, height and slices to MAX_PANEL. */
    private int binning() {
        int nz = lastSlice - firstSlice + 1;
        return Math.max(1, (Math.max(Math.max(width, height), nz) + MAX_PANEL - 1) / MAX_PANEL);
    }

    /** Pixel layout of the rendered preview: {x, y, w, h} of the XY, XZ and YZ panels. */
    public synchronized int[][] panels() {
        int f = binning();
        int nz = ceilDiv(lastSlice - firstSlice + 1, f), w = ceilDiv(width, f), h = ceilDiv(height, f);
        int stretch = Math.max(1, (int) Math.ceil(48.0 / nz));
        int zh = nz * stretch;
        int lh = Annotated.LABEL_HEIGHT, gap = 4;
        int[] a = {gap, 2 * lh + gap, w, h};
        int[] b = {gap + w + gap, 2 * lh + gap, w, zh};
        int[] c = {gap + 2 * (w + gap), 2 * lh + gap, h, zh};
        return new int[][]{a, b, c};
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** Means of f × f blocks of a w × h image (partial blocks at the edges over the pixels they hold; NaN stays NaN). */
    static float[] bin(float[] px, int w, int h, int f) {
        if (f == 1) return px;
        int bw = ceilDiv(w, f), bh = ceilDiv(h, f);
        float[] out = new float[bw * bh];
        for (int by = 0; by < bh; by++)
            for (int bx = 0; bx < bw; bx++) {
                double sum = 0;
                int n = 0;
                for (int y = by * f; y < Math.min(h, by * f + f); y++)
                    for (int x = bx * f; x < Math.min(w, bx * f + f); x++) {
                        sum += px[y * w + x];
                        n++;
                    }
                out[by * bw + bx] = (float) (sum / n);
            }
        return out;
    }

    public synchronized BufferedImage render(String title) {
        if (xy == null) throw new IllegalStateException("preview: the middle slice " + middle + " was never produced");
        int nz = lastSlice - firstSlice + 1;
        float[] pxz = new float[nz * width], pyz = new float[nz * height];
        Arrays.fill(pxz, Float.NaN);
        Arrays.fill(pyz, Float.NaN);
        for (var e : xz.entrySet()) System.arraycopy(e.getValue(), 0, pxz, (e.getKey() - firstSlice) * width, width);
        for (var e : yz.entrySet()) System.arraycopy(e.getValue(), 0, pyz, (e.getKey() - firstSlice) * height, height);
        int f = binning();
        int w = ceilDiv(width, f), h = ceilDiv(height, f), bz = ceilDiv(nz, f);
        float[] bxy = bin(xy, width, height, f);
        pxz = bin(pxz, width, nz, f);
        pyz = bin(pyz, height, nz, f);
        float[] all = new float[bxy.length + pxz.length + pyz.length];
        System.arraycopy(bxy, 0, all, 0, bxy.length);
        System.arraycopy(pxz, 0, all, bxy.length, pxz.length);
        System.arraycopy(pyz, 0, all, bxy.length + pxz.length, pyz.length);
        float[] win = PngPreview.window(all, 0.5, 99.5);
        int[][] p = panels();
        int stretch = p[1][3] / bz;
        int lh = Annotated.LABEL_HEIGHT, gap = 4;
        int totalW = p[2][0] + p[2][2] + gap, totalH = Math.max(p[0][1] + p[0][3], p[1][1] + p[1][3]) + gap;
        totalW = Math.max(totalW, 420);
        BufferedImage img = Annotated.canvas(totalW, totalH);
        Annotated.label(img, 0, 0, totalW, String.format(Locale.ROOT, "%s  grey [%s, %s]%s", title, Annotated.fmt(win[0]),
                Annotated.fmt(win[1]), f > 1 ? "  binned " + f + "x" + f : ""));
        Annotated.label(img, p[0][0], lh, p[0][2], "XY z=" + middle);
        Annotated.label(img, p[1][0], lh, p[1][2], "XZ y=" + height / 2 + (stretch > 1 ? " z x" + stretch : ""));
        Annotated.label(img, p[2][0], lh, p[2][2], "YZ x=" + width / 2 + (stretch > 1 ? " z x" + stretch : ""));
        Annotated.draw(img, bxy, w, h, win[0], win[1], p[0][0], p[0][1], p[0][2], p[0][3]);
        Annotated.draw(img, pxz, w, bz, win[0], win[1], p[1][0], p[1][1], p[1][2], p[1][3]);
        Annotated.draw(img, pyz, h, bz, win[0], win[1], p[2][0], p[2][1], p[2][2], p[2][3]);
        return img;
    }

    /**
     * The rendered preview as PNG bytes. The last encoding is kept while no slice arrives and the title is the same, so
     * a preview rendered ahead (while a run's last writes drain) is not rendered again by the run's finish.
     */
    public byte[] png(String title) {
        long v;
        BufferedImage img;
        synchronized (this) {
            if (png != null && version == pngVersion && title.equals(pngTitle)) return png.clone();
            v = version;
            img = render(title);
        }
        byte[] bytes = PngPreview.encodePng(img);
        synchronized (this) {
            png = bytes;
            pngTitle = title;
            pngVersion = v;
        }
        return bytes.clone();
    }

    /**
     * Renders and encodes a preview of a 512² × 64 volume, for a process to do while its run computes: the first preview of
     * a JVM loads and initialises Java 2D and the PNG encoder, and a preview of that size also gets the rendering's loops
     * compiled, which a run's finish otherwise waits for (a 2048² preview in 0.11 s after it on two cores, 0.23 s after
     * an 8² one, 0.52 s cold). Only a warm-up: whatever fails here is left to the run's own preview, which reports it as a
     * cosmetic failure.
     */
    public static void warmUp() {
        try {
            int n = 512, slices = 64;
            OrthoPreview p = new OrthoPreview(0, slices);
            float[] px = new float[n * n];
            for (int i = 0; i < px.length; i++) px[i] = (i % n) * (i / n);
            for (int k = 0; k < slices; k++) p.accept(k, px, n, n);
            p.png("warm-up");
        } catch (RuntimeException | LinkageError e) {
            // the run's preview meets the same failure and reports it
            LoggerFactory.getLogger(OrthoPreview.class).debug("preview warm-up: {}", e.toString());
        }
    }
}
