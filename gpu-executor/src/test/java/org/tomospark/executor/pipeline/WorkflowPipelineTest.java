package org.tomospark.executor.pipeline;

import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.params.ValueUnit;
import org.tomospark.executor.params.WorkflowParams;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.testing.Metrics;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.phantom.Phantom3D;
import org.tomospark.executor.phase.PaganinParams;
import org.tomospark.executor.stripe.StripeRemoval;
import org.tomospark.executor.util.ImageErrors;

import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workflow stages inside the single-machine pipeline (the same SliceGroupProcessor a Spark task runs). */
class WorkflowPipelineTest {

    static float[][] run(DemoDataset d, ReconstructionParams p, int slices, VolumeReconstructor.Summary[] out) {
        float[][] got = new float[slices][];
        VolumeReconstructor.Summary s = VolumeReconstructor.run(d.asSource(), p, (row, px, w, h) -> got[row] = px.toArray(), null, null);
        if (out != null) out[0] = s;
        return got;
    }

    @Test
    void autoCenterIsFoundAndUsed() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(128, 2, 180).withAxisOffset(-20.3));
        ReconstructionParams p = ReconstructionParams.builder().backend("java")
                .workflow(WorkflowParams.NONE.withCenterMethod(CenterFinder.Method.VO)).build();
        VolumeReconstructor.Summary[] s = new VolumeReconstructor.Summary[1];
        float[][] got = run(d, p, 2, s);
        @SuppressWarnings("unchecked") Map<String, Object> c = (Map<String, Object>) s[0].workflow().get("center");
        assertEquals("auto", c.get("source"));
        assertEquals("vo", c.get("method"));
        assertEquals(d.scanGeometry().centerOfRotation(), (double) c.get("value"), 0.5);
        assertEquals(d.scanGeometry().centerOfRotation(), s[0].scan().centerOfRotation(), 0.5);
        // as good as a reconstruction at the true centre
        float[][] ref = run(d, ReconstructionParams.builder().backend("java").center(d.scanGeometry().centerOfRotation()).build(), 2, null);
        SliceGeometry g = SliceGeometry.square(128);
        boolean[] m = Metrics.circleMask(128, 128, 40);
        float[] gt = d.phantom().groundTruth(0, g, 2);
        assertTrue(Metrics.psnr(got[0], gt, m) > Metrics.psnr(ref[0], gt, m) - 0.3,
                Metrics.psnr(got[0], gt, m) + " vs " + Metrics.psnr(ref[0], gt, m));
    }

    @Test
    void halfAcquisitionThroughThePipeline() {
        int w = 160;
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(w, 2, 720).withRange(360).withAxisOffset(-55));
        ReconstructionParams p = ReconstructionParams.builder().backend("java")
                .workflow(WorkflowParams.NONE.withCenterMethod(CenterFinder.Method.CORRELATION).withHalfAcquisition(true)).build();
        VolumeReconstructor.Summary[] s = new VolumeReconstructor.Summary[1];
        float[][] got = run(d, p, 2, s);
        int n = s[0].slice().roiCols();
        assertTrue(n > 1.6 * w, "stitched slice " + n);
        SliceGeometry g = SliceGeometry.square(n);
        double r = Math.min(s[0].scan().centerOfRotation(), n - 1 - s[0].scan().centerOfRotation()) - 1;
        double psnr = Metrics.psnr(got[1], d.phantom().groundTruth(1, g, 2), Metrics.circleMask(n, n, r));
        System.out.printf("pipeline half acquisition: %s, slice %d, PSNR %.2f dB%n", s[0].workflow(), n, psnr);
        assertTrue(psnr >= 30, "PSNR " + psnr);
    }

    /**
     * Half acquisition with the axis at 30.49: the centre given as 30.5 and the one found (just below 30.5, where
     * a width of ⌈width − 1 − 2c⌉ added columns would grow by one) stitch to the same width, so the two volumes have
     * one grid and can be subtracted.
     */
    @Test
    void halfAcquisitionSliceSizeIsTheSameWithTheGivenAndTheFoundCentre() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(120, 2, 720).withRange(360).withAxisOffset(30.49 - 59.5));
        VolumeReconstructor.Summary[] given = new VolumeReconstructor.Summary[1], auto = new VolumeReconstructor.Summary[1];
        WorkflowParams half = WorkflowParams.NONE.withHalfAcquisition(true);
        float[][] a = run(d, ReconstructionParams.builder().backend("java").center(30.5).workflow(half).build(), 2, given);
        float[][] b = run(d, ReconstructionParams.builder().backend("java")
                .workflow(half.withCenterMethod(CenterFinder.Method.CORRELATION)).build(), 2, auto);
        @SuppressWarnings("unchecked") double found = (double) ((Map<String, Object>) auto[0].workflow().get("center")).get("value");
        int n = given[0].slice().roiCols();
        System.out.printf("half acquisition: centre given 30.5 -> %d px slices; found %.4f -> %d px%n", n, found,
                auto[0].slice().roiCols());
        assertTrue(found > 30.4 && found < 30.5, "the centre found: " + found);
        assertEquals(2 * 120 - 1 - 61, n, "round(2d) + 1 with d = 119 - 30.5");
        assertEquals(n, auto[0].slice().roiCols());
        assertEquals(n, auto[0].slice().roiRows());
        double r = Math.min(given[0].scan().centerOfRotation(), n - 1 - given[0].scan().centerOfRotation()) - 1;
        double diff = Metrics.relL2Inside(b[1], a[1], Metrics.circleMask(n, n, r));
        assertTrue(diff < 0.05, "the two volumes can be subtracted: relative L2 " + diff);
    }

    @Test
    void binningCutsTheWork() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(256, 4, 360).withNoise(false));
        VolumeReconstructor.Summary[] full = new VolumeReconstructor.Summary[1], binned = new VolumeReconstructor.Summary[1];
        run(d, ReconstructionParams.builder().backend("java").build(), 4, full);
        float[][] got = run(d, ReconstructionParams.builder().backend("java").workflow(WorkflowParams.NONE.withBinning(2, 2, 2)).build(),
                2, binned);
        assertEquals(2, binned[0].slices());
        assertEquals(128, binned[0].slice().roiCols());
        assertEquals(180, binned[0].scan().numProjections());
        // (2 × 2 fewer pixels) × (2 fewer projections) × (2 fewer slices) = 16 × fewer voxel updates
        assertEquals(16.0, full[0].updates() / (double) binned[0].updates(), 1e-9);
        // binned slice 0 = detector rows 0–1 on a 128 grid of 2-px pixels: compare with the phantom at that scale, in
        // attenuation per original detector pixel (the output unit, whatever the binning)
        SliceGeometry g = SliceGeometry.square(128);
        Phantom3D half = new Phantom3D(Phantom3D.modifiedSheppLogan(), 64.0, 0, 4.0, d.phantom().attenuationScale());
        float[] truth = new float[128 * 128];
        for (double row : new double[]{-1.5, -0.5}) { // rows 0 and 1 of the 4-row scan, relative to its centre 1.5
            float[] t = half.groundTruth(row, g, 2);
            for (int i = 0; i < t.length; i++) truth[i] += t[i] / 2;
        }
        boolean[] fov = Metrics.circleMask(128, 128, 62);
        double psnr = Metrics.psnr(got[0], truth, fov);
        System.out.printf("binning 2x2x2: updates %d -> %d, PSNR %.2f dB, scale %.4f%n", full[0].updates(), binned[0].updates(), psnr,
                Metrics.lsqScale(got[0], truth, fov));
        assertTrue(psnr > 25, "PSNR " + psnr);
        assertEquals(1.0, Metrics.lsqScale(got[0], truth, fov), 0.03);
    }

    /**
     * The output unit does not depend on the binning: a run binned 2×2 (columns, rows) equals the unbinned run of
     * the same scan averaged over 2×2 pixels and pairs of slices, in attenuation per original detector pixel; and
     * output.unit=metre divides that by the pixel size.
     */
    @Test
    void binnedAndUnbinnedRunsAgreeInOneUnit() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(256, 4, 360).withNoise(false));
        float[][] full = run(d, ReconstructionParams.builder().backend("java").build(), 4, null);
        WorkflowParams bin = WorkflowParams.NONE.withBinning(2, 2, 1);
        float[][] binned = run(d, ReconstructionParams.builder().backend("java").workflow(bin).build(), 2, null);
        double pixel = 6.5e-7;
        float[][] metres = run(d, ReconstructionParams.builder().backend("java").workflow(bin.withUnit(ValueUnit.perMetre(pixel))).build(),
                2, null);
        boolean[] fov = Metrics.circleMask(128, 128, 60);
        for (int k = 0; k < 2; k++) {
            float[] down = new float[128 * 128]; // slices 2k, 2k+1 averaged over 2x2 pixel blocks
            for (int r = 0; r < 2; r++)
                for (int i = 0; i < 256; i++)
                    for (int j = 0; j < 256; j++) down[(i / 2) * 128 + j / 2] += full[2 * k + r][i * 256 + j] / 8;
            double scale = Metrics.lsqScale(binned[k], down, fov), rel = Metrics.relL2Inside(binned[k], down, fov);
            System.out.printf("binned slice %d vs downsampled unbinned slices: scale %.4f, relative L2 %.4f%n", k, scale, rel);
            assertEquals(1.0, scale, 0.03, "one unit whatever the binning (binned values in attenuation per binned pixel would give 0.5)");
            assertTrue(rel < 0.08, "binned and downsampled unbinned slices agree: " + rel);
            double max = 0;
            for (float v : binned[k]) max = Math.max(max, Math.abs(v));
            for (int i = 0; i < binned[k].length; i++) // float rounding differs once the sinogram is scaled
                assertEquals(binned[k][i] / pixel, metres[k][i], 1e-4 * max / pixel, "1/m = (1/px) / pixel size");
        }
    }

    @Test
    void phaseRetrievalIsIndependentOfTheGrouping() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(48, 40, 60));
        PaganinParams pg = new PaganinParams(20, 0.001, 1e-6, 50);
        assertTrue(pg.haloRows() < 18, "the halo must not cover the whole detector: " + pg.haloRows());
        WorkflowParams w = WorkflowParams.NONE.withPaganin(pg)
                .withStripe(StripeRemoval.Method.OFFSET, 9);
        float[][] one = run(d, ReconstructionParams.builder().backend("java").groupRows(40).workflow(w).build(), 40, null);
        float[][] many = run(d, ReconstructionParams.builder().backend("java").groupRows(4).workflow(w).build(), 40, null);
        float[][] plain = run(d, ReconstructionParams.builder().backend("java").groupRows(40).build(), 40, null);
        double maxDiff = 0, plainDiff = 0;
        for (int r = 0; r < 40; r++) {
            maxDiff = Math.max(maxDiff, ImageErrors.relL2(many[r], one[r]));
            plainDiff = Math.max(plainDiff, ImageErrors.relL2(plain[r], one[r]));
        }
        System.out.printf("paganin groups of 4 vs 40 rows: rel L2 %.2e (vs no phase retrieval %.2e)%n", maxDiff, plainDiff);
        assertTrue(maxDiff < 2e-4, "halo: groups of 4 rows differ by " + maxDiff);
        assertTrue(plainDiff > 1e-2, "phase retrieval changes the result");
    }

    @Test
    void roiComputesOnlyTheRectangle() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(128, 2, 90).withNoise(false));
        VolumeReconstructor.Summary[] full = new VolumeReconstructor.Summary[1], roi = new VolumeReconstructor.Summary[1];
        float[][] a = run(d, ReconstructionParams.builder().backend("java").build(), 2, full);
        float[][] b = run(d, ReconstructionParams.builder().backend("java").roi(40, 20, 48, 32).build(), 2, roi);
        assertEquals(48 * 32 * 90L * 2, roi[0].updates());
        assertEquals(128 * 128 / (48.0 * 32), full[0].updates() / (double) roi[0].updates(), 1e-9);
        double maxDiff = 0;
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 48; j++) maxDiff = Math.max(maxDiff, Math.abs(b[1][i * 48 + j] - a[1][(i + 20) * 128 + j + 40]));
        assertTrue(maxDiff < 1e-6, "ROI pixels equal the full slice's: " + maxDiff);
    }
}
