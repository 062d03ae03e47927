package org.tomospark.executor.fourier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.phantom.Phantom3D;
import org.tomospark.executor.testing.Metrics;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.util.ImageErrors;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gridrec against the analytic Shepp–Logan phantom's ground truth and against the image-space FBP (RampFilter, then
 * the Java back-projector) on awkward geometries: the same quality (PSNR within 0.3 dB of FBP's), the same scale
 * (means inside the field of view within 1%) and a small difference; pairs of slices equal single slices; linearity
 * and the centre-of-rotation shift invariance; every filter window; input checks.
 */
class GridrecTest {

    /**
     * A geometry: detector width, projections over {@code rangeDeg}, the centre's offset from the middle, random axis
     * corrections (σ 0.5 px) or not, the slice (width, height, grid) and its ROI (col, row, cols, rows; null: full).
     */
    record Case(String name, int width, int nproj, double rangeDeg, double centreShift, boolean axisCorr, int sliceW, int sliceH,
                SliceGrid grid, int[] roi) {
        @Override
        public String toString() {
            return name;
        }

        ScanGeometry scan() {
            ScanGeometry.Builder b = ScanGeometry.builder().detectorWidth(width).anglesRange(rangeDeg, nproj)
                    .centerOfRotation((width - 1) / 2.0 + centreShift);
            if (axisCorr) {
                Random r = new Random(11);
                double[] c = new double[nproj];
                for (int i = 0; i < nproj; i++) c[i] = 0.5 * r.nextGaussian();
                b.axisCorrection(c);
            }
            return b.build();
        }

        SliceGeometry slice() {
            SliceGeometry g = new SliceGeometry(sliceW, sliceH, 0, 0, sliceW, sliceH, grid);
            return roi == null ? g : g.withRoi(roi[0], roi[1], roi[2], roi[3]);
        }

        /** Shepp–Logan centred on the axis, inside the field of view and the slice, 0.02 per pixel at most. */
        Phantom3D phantom() {
            double fov = Math.min(Math.min(width, sliceW), sliceH) / 2.0 - Math.abs(centreShift) - 3;
            return Phantom3D.sheppLogan(fov / 0.95, 0.25 * fov / 0.95, 0.02);
        }
    }

    static List<Case> cases() {
        SliceGrid a = SliceGrid.ASTRA;
        return List.of(
                new Case("odd width 97, 90 angles", 97, 90, 180, 0, false, 97, 97, a, null),
                new Case("width 250, 360 deg", 250, 300, 360, 0, false, 250, 250, a, null),
                new Case("centre +7.3", 200, 180, 180, 7.3, false, 200, 200, a, null),
                new Case("centre -7.3, axis corrections", 201, 160, 180, -7.3, true, 201, 201, a, null),
                new Case("ROI of 160", 160, 160, 180, 0, false, 160, 160, a, new int[]{20, 37, 71, 53}),
                new Case("skimage grid, even 128", 128, 128, 180, 0.5, false, 128, 128, SliceGrid.SKIMAGE, null),
                new Case("non-square slice 150x110", 150, 150, 180, 0, false, 150, 110, a, null),
                new Case("few angles (24)", 128, 24, 180, 0, false, 128, 128, a, null),
                new Case("width 513, 360 deg, off-centre", 513, 400, 360, 4.6, false, 513, 513, a, null));
    }

    static float[] fbp(float[] sino, ScanGeometry scan, SliceGeometry g, FilterSpec spec) {
        float[] s = sino.clone();
        new RampFilter(scan.detectorWidth(), scan.numProjections(), spec).filterRows(s, scan.numProjections(), null);
        float[][] out = {new float[g.pixels()]};
        try (JavaBackend b = new JavaBackend()) {
            b.setup(BackendOptions.defaults().withSlicesPerPass(1));
            b.validate(new BackprojectionJob(scan, g, 1));
            b.process(new SliceBatch(0, new float[][]{s}, scan.numProjections(), scan.detectorWidth(), true), out);
        }
        return out[0];
    }

    static float[][] gridrec(float[][] sinos, ScanGeometry scan, SliceGeometry g, FilterSpec spec, ForkJoinPool pool) {
        float[][] out = new float[sinos.length][g.pixels()];
        new Gridrec(scan, g, spec).reconstruct(sinos, out, pool);
        return out;
    }

    static float[] gridrec(float[] sino, ScanGeometry scan, SliceGeometry g, FilterSpec spec) {
        return gridrec(new float[][]{sino}, scan, g, spec, null)[0];
    }

    static float[] sharp(float[] sino, ScanGeometry scan, SliceGeometry g, FilterSpec spec) {
        float[][] out = {new float[g.pixels()]};
        new Gridrec(scan, g, spec, Gridrec.DetectorResponse.BAND_LIMITED).reconstruct(new float[][]{sino}, out, null);
        return out[0];
    }

    /** ROI pixels whose centre lies 2 px inside the field of view (the circle the detector sees at every angle). */
    static boolean[] fieldOfView(ScanGeometry scan, SliceGeometry g) {
        double maxCorr = 0;
        for (double c : scan.axisCorrections()) maxCorr = Math.max(maxCorr, Math.abs(c));
        double cor = scan.centerOfRotation();
        double r = Math.min(cor, scan.detectorWidth() - 1 - cor) - maxCorr - 2;
        boolean[] m = new boolean[g.pixels()];
        for (int i = 0; i < g.roiRows(); i++)
            for (int j = 0; j < g.roiCols(); j++) {
                double x = g.roiCol() + j - g.centerX(), y = g.centerY() - g.roiRow() - i;
                m[i * g.roiCols() + j] = x * x + y * y <= r * r;
            }
        return m;
    }

    static double meanRatio(float[] a, float[] b, boolean[] mask) {
        double sa = 0, sb = 0;
        for (int i = 0; i < a.length; i++)
            if (mask[i]) {
                sa += a[i];
                sb += b[i];
            }
        return sa / sb;
    }

    /**
     * PSNRs of gridrec and FBP against the truth, their mean ratio and relative L2 difference, in the field of view;
     * and the PSNR of the band-limited (sharp) gridrec, for information.
     */
    record Quality(double gridrec, double fbp, double scale, double diff, double sharp) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "PSNR gridrec %.2f dB, FBP %.2f dB (band-limited gridrec %.2f dB); mean ratio %.5f; "
                    + "rel. L2 to FBP %.4f", gridrec, fbp, sharp, scale, diff);
        }
    }

    static Quality quality(Case c, FilterSpec spec) {
        ScanGeometry scan = c.scan();
        SliceGeometry g = c.slice();
        Phantom3D ph = c.phantom();
        float[] sino = ph.sinogram(0, scan, true);
        float[] truth = ph.groundTruth(0, g, 4);
        float[] rec = gridrec(sino, scan, g, spec);
        float[] ref = fbp(sino, scan, g, spec);
        boolean[] m = fieldOfView(scan, g);
        return new Quality(Metrics.psnr(rec, truth, m), Metrics.psnr(ref, truth, m), meanRatio(rec, ref, m),
                Metrics.relL2Inside(rec, ref, m), Metrics.psnr(sharp(sino, scan, g, spec), truth, m));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesFbpQualityAndScale(Case c) {
        Quality q = quality(c, FilterSpec.of(FilterWindow.RAMLAK));
        System.out.println("gridrec " + c + ": " + q);
        assertTrue(q.gridrec >= q.fbp - 0.3, c + ": " + q);
        assertEquals(1, q.scale, 0.01, c + ": " + q);
        assertTrue(q.diff < 0.1, c + ": " + q);
    }

    @ParameterizedTest
    @EnumSource(FilterWindow.class)
    void everyWindowMatchesFbp(FilterWindow w) {
        Case c = cases().get(5);
        for (double cutoff : new double[]{1.0, 0.7}) {
            Quality q = quality(c, new FilterSpec(w, cutoff, Padding.ZERO));
            String what = w + " cutoff " + cutoff + ": " + q;
            System.out.println("gridrec " + what);
            assertTrue(q.gridrec >= q.fbp - 0.3, what);
            assertEquals(1, q.scale, 0.01, what);
            assertTrue(q.diff < 0.1, what);
        }
    }

    @Test
    void edgePaddingMatchesFbp() {
        Case c = cases().get(2);
        ScanGeometry scan = c.scan();
        SliceGeometry g = c.slice();
        float[] sino = c.phantom().sinogram(0, scan, true);
        for (int i = 0; i < sino.length; i++) sino[i] += 0.3f; // a background that edge padding carries beyond the detector
        FilterSpec edge = new FilterSpec(FilterWindow.HANN, 1, Padding.EDGE), zero = new FilterSpec(FilterWindow.HANN, 1, Padding.ZERO);
        boolean[] m = fieldOfView(scan, g);
        float[] rec = gridrec(sino, scan, g, edge), ref = fbp(sino, scan, g, edge);
        double diff = Metrics.relL2Inside(rec, ref, m), scale = meanRatio(rec, ref, m);
        double zeroVsEdge = Metrics.relL2Inside(gridrec(sino, scan, g, zero), ref, m);
        String what = String.format(Locale.ROOT, "edge padding: rel. L2 to FBP %.4f, mean ratio %.5f; zero padding to edge FBP %.4f",
                diff, scale, zeroVsEdge);
        System.out.println("gridrec " + what);
        assertTrue(diff < 0.05 && diff < zeroVsEdge / 2, what);
        assertEquals(1, scale, 0.01, what);
    }

    @Test
    void pairsEqualSingleSlicesForOddCounts() {
        Case c = cases().get(3);
        ScanGeometry scan = c.scan();
        SliceGeometry g = c.slice();
        Phantom3D ph = c.phantom();
        float[][] sinos = {ph.sinogram(0, scan, true), ph.sinogram(-8, scan, true), ph.sinogram(12, scan, true)};
        FilterSpec spec = FilterSpec.of(FilterWindow.SHEPP_LOGAN);
        float[][] together = gridrec(sinos, scan, g, spec, null);
        for (int s = 0; s < 3; s++) {
            float[] alone = gridrec(sinos[s], scan, g, spec);
            double e = ImageErrors.relL2(together[s], alone);
            System.out.println("gridrec pair against alone, slice " + s + ": relative L2 " + e);
            // float rounding of the partner's share (FFTs, grid sums), raised where the deapodisation is largest
            assertTrue(e < 2e-5, "slice " + s + " of 3 against alone: relative L2 " + e);
        }
    }

    @Test
    void sameImagesOnAnyNumberOfThreads() {
        Case c = cases().get(4);
        ScanGeometry scan = c.scan();
        SliceGeometry g = c.slice();
        float[][] sinos = Noise.gaussian(5, scan.numProjections() * scan.detectorWidth(), 9, 0.3);
        FilterSpec spec = FilterSpec.of(FilterWindow.HAMMING);
        ForkJoinPool one = new ForkJoinPool(1), two = new ForkJoinPool(2);
        try {
            Gridrec gr = new Gridrec(scan, g, spec);
            float[][] a = new float[5][g.pixels()], b = new float[5][g.pixels()], single = new float[1][g.pixels()];
            gr.reconstruct(sinos, a, one);
            gr.reconstruct(sinos, b, two);
            gr.reconstruct(new float[][]{sinos[4]}, single, two); // one pair, its stages in parallel
            for (int s = 0; s < 5; s++) assertArrayEquals(a[s], b[s], "slice " + s);
            assertArrayEquals(a[4], single[0], "last slice alone");
        } finally {
            one.shutdown();
            two.shutdown();
        }
    }

    /** A warm-up running beside the first slices (its workspace then reused by them) changes no value. */
    @Test
    void theWarmUpChangesNothing() throws InterruptedException {
        Case c = cases().get(4);
        ScanGeometry scan = c.scan();
        SliceGeometry g = c.slice();
        float[][] sinos = Noise.gaussian(4, scan.numProjections() * scan.detectorWidth(), 11, 0.3);
        FilterSpec spec = FilterSpec.of(FilterWindow.SHEPP_LOGAN);
        ForkJoinPool two = new ForkJoinPool(2);
        try {
            float[][] cold = new float[4][g.pixels()], warmed = new float[4][g.pixels()];
            new Gridrec(scan, g, spec).reconstruct(sinos, cold, two);
            Gridrec gr = new Gridrec(scan, g, spec);
            Thread warmUp = gr.warmUp();
            gr.reconstruct(sinos, warmed, two); // beside the warm-up
            for (int s = 0; s < 4; s++) assertArrayEquals(cold[s], warmed[s], "slice " + s + " beside the warm-up");
            warmUp.join();
            gr.reconstruct(sinos, warmed, two); // again, on the workspaces the warm-up left
            for (int s = 0; s < 4; s++) assertArrayEquals(cold[s], warmed[s], "slice " + s);
        } finally {
            two.shutdown();
        }
    }

    @Test
    void linearInTheSinogram() {
        Case c = cases().get(0);
        ScanGeometry scan = c.scan();
        SliceGeometry g = c.slice();
        float[] s = c.phantom().sinogram(0, scan, true);
        float[] s3 = s.clone();
        for (int i = 0; i < s3.length; i++) s3[i] *= 3.5f;
        FilterSpec spec = FilterSpec.of(FilterWindow.COSINE);
        float[] r = gridrec(s, scan, g, spec), r3 = gridrec(s3, scan, g, spec);
        for (int i = 0; i < r.length; i++) r[i] *= 3.5f;
        double e = ImageErrors.relL2(r3, r);
        assertTrue(e < 1e-6, "reconstruct(3.5 s) against 3.5 reconstruct(s): relative L2 " + e);
    }

    @Test
    void shiftingCentreAndRowsTogetherKeepsTheImage() {
        int w = 140, np = 120, d = 6;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(180, np).centerOfRotation(63.3).build();
        ScanGeometry shifted = scan.withCenterOfRotation(63.3 + d);
        SliceGeometry g = SliceGeometry.full(120, 110);
        float[] sino = Phantom3D.sheppLogan(55, 10, 0.02).sinogram(0, scan, true);
        float[] moved = new float[sino.length];
        for (int p = 0; p < np; p++) System.arraycopy(sino, p * w, moved, p * w + d, w - d);
        FilterSpec spec = FilterSpec.of(FilterWindow.RAMLAK);
        float[] a = gridrec(sino, scan, g, spec), b = gridrec(moved, shifted, g, spec);
        double e = ImageErrors.relL2(b, a);
        assertTrue(e < 1e-5, "centre and rows shifted by " + d + ": relative L2 " + e);
    }

    @Test
    void rejectsBadInputNamingIt() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(50).anglesRange(180, 40).build();
        SliceGeometry g = SliceGeometry.full(50, 40);
        FilterSpec spec = FilterSpec.of(FilterWindow.RAMLAK);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Gridrec(null, g, spec)).getMessage().contains("scan"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Gridrec(scan, null, spec)).getMessage().contains("slice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Gridrec(scan, g, null)).getMessage().contains("filter"));
        Gridrec gr = new Gridrec(scan, g, spec);
        float[][] ok = {new float[40 * 50], new float[40 * 50]};
        String m1 = assertThrows(IllegalArgumentException.class,
                () -> gr.reconstruct(new float[][]{ok[0], new float[40 * 49]}, new float[2][2000], null)).getMessage();
        assertTrue(m1.contains("sinogram 1") && m1.contains("40 projections x 50 columns"), m1);
        String m2 = assertThrows(IllegalArgumentException.class,
                () -> gr.reconstruct(ok, new float[][]{new float[2000], new float[1999]}, null)).getMessage();
        assertTrue(m2.contains("output slice 1") && m2.contains("40 rows x 50 columns"), m2);
        String m3 = assertThrows(IllegalArgumentException.class, () -> gr.reconstruct(ok, new float[1][2000], null)).getMessage();
        assertTrue(m3.contains("2 sinograms but 1 output"), m3);
        assertThrows(IllegalArgumentException.class, () -> gr.reconstruct(null, new float[0][], null));
    }

    @Test
    void stopsWhenCancelled() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(40).anglesRange(180, 30).build();
        SliceGeometry g = SliceGeometry.square(40);
        Gridrec gr = new Gridrec(scan, g, FilterSpec.of(FilterWindow.RAMLAK));
        float[][] s = new float[4][30 * 40];
        assertThrows(CancellationException.class, () -> gr.reconstruct(s, new float[4][1600], null, () -> true));
    }

    @Test
    void describesItself() {
        assertTrue(Gridrec.description().startsWith("gridrec: Kaiser-Bessel W=4"), Gridrec.description());
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(1024).anglesRange(180, 8).build();
        Gridrec gr = new Gridrec(scan, SliceGeometry.square(1024), FilterSpec.of(FilterWindow.RAMLAK));
        assertEquals(2048, gr.rowLength());
        assertEquals(2048, gr.gridSize());
    }
}
