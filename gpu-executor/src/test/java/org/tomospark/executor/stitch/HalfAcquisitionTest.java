package org.tomospark.executor.stitch;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.testing.Metrics;
import org.tomospark.executor.TestRecon;
import org.tomospark.executor.pipeline.CenterSearch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preview.PngPreview;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.preprocess.Preprocessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A 360° scan with the axis 55 px left of centre: the object does not fit on the detector in any projection. */
class HalfAcquisitionTest {

    /** The stitched width is round(2d) + 1, d the axis's distance from the far detector edge: not the exact centre. */
    @Test
    void stitchedWidthDependsOnTheCentreRoundedToHalfAPixel() {
        ScanGeometry g = ScanGeometry.builder().detectorWidth(222).anglesRange(360, 720).build();
        assertEquals(382, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(30.5)).detectorWidth());
        assertEquals(382, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(30.494)).detectorWidth(), "a found centre near 30.5");
        assertEquals(382, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(30.72)).detectorWidth());
        assertEquals(383, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(30.2)).detectorWidth());
        assertEquals(381, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(30.8)).detectorWidth());
        // axis right of centre: mirrored, d = c
        assertEquals(2 * 190 + 1, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(190.03)).detectorWidth());
        assertEquals(2 * 190 + 2, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(190.5)).detectorWidth());
        // the axis sits where the stitched detector puts the original columns: c + (width - 1 - round(2c))
        assertEquals(30.494 + 221 - 61, HalfAcquisition.stitchedGeometry(g.withCenterOfRotation(30.494)).centerOfRotation(), 1e-12);
    }

    @Test
    void stitchedScanReconstructsTheFullFieldOfView() {
        int w = 160;
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(w, 1, 720).withRange(360).withAxisOffset(-55).withNoise(true));
        ScanGeometry truthGeo = d.scanGeometry();
        float[][] sinos;
        try (ProjectionSource src = d.asSource()) {
            sinos = CenterSearch.sinograms(src, Preprocessor.defaults(), 0, 1);
        }
        ScanGeometry unknown = truthGeo.withCenterOfRotation((w - 1) / 2.0);
        double axis = HalfAcquisition.findAxis(sinos, unknown);
        ScanGeometry raw = truthGeo.withCenterOfRotation(axis);
        HalfAcquisition.Stitched st = HalfAcquisition.stitch(sinos[0], raw);
        ScanGeometry g = st.geometry();
        int n = g.detectorWidth();
        SliceGeometry slice = SliceGeometry.square(n);
        float[] rec = TestRecon.fbp(st.sinogram(), g, slice);
        float[] gt = d.phantom().groundTruth(0, slice, 2);
        double fovRadius = Math.min(g.centerOfRotation(), n - 1 - g.centerOfRotation()) - 1;
        boolean[] fov = Metrics.circleMask(n, n, fovRadius);
        double psnr = Metrics.psnr(rec, gt, fov);
        double scale = Metrics.lsqScale(rec, gt, fov);
        // the object reaches beyond the detector's left edge: |x| up to 0.46 w from the axis, axis at 24.5
        System.out.printf("half acquisition: axis found %.3f (true %.3f), overlap %.1f px, stitched width %d (detector %d), FOV radius "
                + "%.1f, PSNR %.2f dB, scale %.4f%n",
                axis, truthGeo.centerOfRotation(), 2 * axis + 1, n, w, fovRadius, psnr, scale);
        assertEquals(truthGeo.centerOfRotation(), axis, 0.25, "axis");
        assertTrue(n > 1.6 * w, "stitched width " + n);
        assertTrue(psnr >= 30, "PSNR " + psnr);
        assertEquals(1.0, scale, 0.03);
        try {
            Path dir = Files.createDirectories(Path.of("target", "previews"));
            Files.write(dir.resolve("half-acquisition.png"), PngPreview.encode(rec, n, n));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
