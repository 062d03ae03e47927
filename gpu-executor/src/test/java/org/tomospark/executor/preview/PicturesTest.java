package org.tomospark.executor.preview;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.testing.Metrics;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.pipeline.CenterSearch;
import org.tomospark.executor.sweeps.CenterSweep;
import org.tomospark.executor.params.SweepRanges;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.preprocess.Preprocessor;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contact sheet and the orthogonal preview are real, labelled images of the data. */
class PicturesTest {

    static double[] meanInOut(BufferedImage img, int x0, int y0, int w, int h, boolean[] inside) {
        double si = 0, so = 0;
        int ni = 0, no = 0;
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                int g = img.getRaster().getSample(x0 + j, y0 + i, 0);
                if (inside[i * w + j]) { si += g; ni++; } else { so += g; no++; }
            }
        return new double[]{si / Math.max(1, ni), so / Math.max(1, no)};
    }

    static int litPixels(BufferedImage img, int x0, int y0, int w, int h) {
        int n = 0;
        for (int i = 0; i < h; i++) for (int j = 0; j < w; j++) if (img.getRaster().getSample(x0 + j, y0 + i, 0) > 128) n++;
        return n;
    }

    @Test
    void centerSweepAndContactSheet() throws Exception {
        int n = 128;
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(n, 1, 180).withAxisOffset(7.6).withNoise(true));
        ScanGeometry scan = d.scanGeometry();
        float[] sino;
        try (var src = d.asSource()) {
            sino = CenterSearch.sinograms(src, Preprocessor.defaults(), 0, 1)[0];
        }
        double truth = scan.centerOfRotation();
        double[] centers = SweepRanges.centers(truth - 4, truth + 4, 2);
        SliceGeometry g = SliceGeometry.square(n);
        List<CenterSweep.Image> imgs;
        try (JavaBackend b = new JavaBackend()) {
            b.setup(BackendOptions.defaults().withSlicesPerPass(1));
            imgs = CenterSweep.reconstruct(sino, scan, g, FilterSpec.of(FilterWindow.RAMLAK), centers, b);
        }
        // each image is the slice at its centre: the one at the true centre matches the phantom best
        float[] gt = d.phantom().groundTruth(0, g, 2);
        boolean[] fov = Metrics.circleMask(n, n, n / 2.0 - 2);
        double[] psnr = imgs.stream().mapToDouble(im -> Metrics.psnr(im.pixels(), gt, fov)).toArray();
        System.out.println("sweep PSNR by centre: " + Arrays.toString(psnr));
        for (int i = 0; i < psnr.length; i++) if (i != 2) assertTrue(psnr[2] > psnr[i] + 1, "true centre must be sharpest: "
                + Arrays.toString(psnr));
        assertEquals(String.format(Locale.ROOT, "center_%07.2f.tif", truth), imgs.get(2).fileName());
        assertEquals("center_0067.10.tif", imgs.get(0).fileName());

        BufferedImage sheet = CenterSweep.contactSheet(imgs, 128, "sweep row 0");
        byte[] png = PngPreview.encodePng(sheet);
        Path dir = Files.createDirectories(Path.of("target", "previews"));
        Files.write(dir.resolve("contact-sheet.png"), png);
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(png));
        boolean[] inside = new boolean[n * n];
        for (int i = 0; i < gt.length; i++) inside[i] = gt[i] > 0.1f * max(gt); // the head, skull and brain
        for (int i = 0; i < imgs.size(); i++) {
            CenterSweep.Tile t = CenterSweep.tileOrigin(i, imgs.size(), n, n, 128);
            double[] io = meanInOut(back, t.x(), t.y(), t.width(), t.height(), inside);
            assertTrue(io[0] > io[1] + (i == 2 ? 25 : 12), "tile " + i + ": phantom grey " + io[0] + " vs background " + io[1]);
            int lit = litPixels(back, t.x(), t.y() + t.height(), 96, Annotated.LABEL_HEIGHT);
            assertTrue(lit > 30 && lit < 0.6 * 96 * Annotated.LABEL_HEIGHT, "tile " + i + " label pixels " + lit);
        }
        assertTrue(litPixels(back, 0, 0, back.getWidth(), Annotated.LABEL_HEIGHT) > 60, "title strip");
    }

    static float max(float[] a) {
        float m = -Float.MAX_VALUE;
        for (float v : a) m = Math.max(m, v);
        return m;
    }

    @Test
    void orthogonalPreviewShowsThePhantom() throws Exception {
        int n = 128, rows = 24;
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(n, rows, 180).withNoise(false));
        OrthoPreview prev = new OrthoPreview(0, rows);
        VolumeReconstructor.run(d.asSource(), ReconstructionParams.builder().backend("java").build(),
                (r, px, w, h) -> prev.accept(r, px.floats(), w, h), null, null);
        byte[] png = prev.png("demo");
        // the encoding is kept for the same title while no slice arrives; a new title or a slice renders again
        assertArrayEquals(png, prev.png("demo"));
        byte[] retitled = prev.png("another title");
        assertFalse(Arrays.equals(png, retitled));
        prev.accept((rows - 1) / 2, new float[n * n], n, n);
        assertFalse(Arrays.equals(retitled, prev.png("another title")), "a slice that arrives after the encoding changes it");
        Files.write(Files.createDirectories(Path.of("target", "previews")).resolve("ortho-preview.png"), png);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        int[][] p = prev.panels();
        SliceGeometry g = SliceGeometry.square(n);
        // XY: the middle slice
        float[] gt = d.phantom().groundTruth((rows - 1) / 2, g, 1);
        boolean[] inXY = new boolean[n * n];
        for (int i = 0; i < gt.length; i++) inXY[i] = gt[i] > 0.5f * max(gt);
        double[] xy = meanInOut(img, p[0][0], p[0][1], p[0][2], p[0][3], inXY);
        // XZ: the central image row of every slice, z stretched
        int stretch = p[1][3] / rows;
        boolean[] inXZ = new boolean[p[1][2] * p[1][3]];
        for (int z = 0; z < rows; z++) {
            float[] gz = d.phantom().groundTruth(z, g, 1);
            float mz = max(gt);
            for (int s = 0; s < stretch; s++)
                for (int j = 0; j < n; j++) inXZ[(z * stretch + s) * n + j] = gz[(n / 2) * n + j] > 0.5f * mz;
        }
        double[] xz = meanInOut(img, p[1][0], p[1][1], p[1][2], p[1][3], inXZ);
        System.out.printf("ortho preview: XY grey in/out %.0f/%.0f, XZ %.0f/%.0f, panels %s%n", xy[0], xy[1], xz[0], xz[1],
                Arrays.deepToString(p));
        assertTrue(xy[0] > xy[1] + 60, "XY panel");
        assertTrue(xz[0] > xz[1] + 60, "XZ panel");
        assertTrue(litPixels(img, 0, 0, img.getWidth(), Annotated.LABEL_HEIGHT) > 60, "grey range text");
        assertTrue(litPixels(img, p[1][0], Annotated.LABEL_HEIGHT, p[1][2], Annotated.LABEL_HEIGHT) > 30, "XZ label");
    }
    /** Volumes wider than MAX_PANEL pixels are shown binned: block means, partial blocks at the edges, NaN kept. */
    @Test
    void largePreviewsAreBinned() throws Exception {
        // 5 x 3 image, blocks of 2: [0 1 | 2 3 | 4], [5 6 | 7 8 | 9] / [10 11 | 12 13 | 14]
        float[] px = new float[15];
        for (int i = 0; i < 15; i++) px[i] = i;
        assertArrayEquals(new float[]{3f, 5f, 6.5f, 10.5f, 12.5f, 14f}, OrthoPreview.bin(px, 5, 3, 2));
        px[0] = Float.NaN;
        assertTrue(Float.isNaN(OrthoPreview.bin(px, 5, 3, 2)[0]));
        // 2050 columns: binned 3 x 3 into 684-pixel panels; the left half bright, the right dark
        int w = 2050, h = 20, slices = 6;
        OrthoPreview prev = new OrthoPreview(0, slices);
        float[] img = new float[w * h];
        for (int y = 0; y < h; y++) for (int x = 0; x < w / 2; x++) img[y * w + x] = 1f;
        for (int z = 0; z < slices; z++) prev.accept(z, img, w, h);
        int[][] p = prev.panels();
        assertEquals(684, p[0][2]);
        assertEquals(7, p[0][3]);
        assertEquals(684, p[1][2]);
        BufferedImage png = ImageIO.read(new ByteArrayInputStream(prev.png("binned")));
        assertTrue(png.getRaster().getSample(p[0][0] + 10, p[0][1] + 3, 0) > 200, "bright half");
        assertTrue(png.getRaster().getSample(p[0][0] + 670, p[0][1] + 3, 0) < 50, "dark half");
    }
}
