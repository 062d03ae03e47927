package org.tomospark.executor.stripe;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.TestRecon;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.phantom.Ellipsoid;
import org.tomospark.executor.phantom.Phantom3D;
import org.tomospark.executor.util.ImageErrors;

import java.util.List;
import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Münch's Fourier–wavelet filter on stripes of known form and on stripe-free sinograms. */
class FourierWaveletFilterTest {

    /**
     * Offsets that are constant over the angles and independent from column to column: every level removes the
     * detail part of the pattern and leaves the approximation, which after L levels holds 2^−L of a white pattern's
     * energy along the detector.
     */
    @Test
    void aWhiteStripePatternKeepsOnlyItsCoarseApproximation() {
        int nproj = 256, width = 256;
        Random r = new Random(5);
        double[] off = new double[width];
        for (int j = 0; j < width; j++) off[j] = 0.05 * r.nextGaussian();
        for (int levels : new int[]{2, 3, 5}) {
            float[] s = new float[nproj * width];
            for (int p = 0; p < nproj; p++) for (int j = 0; j < width; j++) s[p * width + j] = (float) off[j];
            double before = energy(s);
            FourierWaveletFilter.apply(s, nproj, width, levels, 1);
            double kept = energy(s) / before, expected = Math.pow(2, -levels);
            System.out.printf("fw white stripes, %d levels: energy kept %.4f (2^-L = %.4f)%n", levels, kept, expected);
            assertEquals(expected, kept, 0.5 * expected, levels + " levels");
        }
    }

    @Test
    void gainStripesOnThePhantomAreRemoved() {
        StripeScans sc = new StripeScans(512, 512);
        float[] striped = sc.withGains(sc.clean, sc.gains(0.05, 0.05, 0.15, 7));
        float[] fw = striped.clone();
        FourierWaveletFilter.apply(fw, sc.nproj, sc.width, 3, 1);
        double before = sc.slicePsnr(striped), after = sc.slicePsnr(fw), clean = sc.slicePsnr(sc.clean);
        double sinoBefore = TestRecon.psnr(striped, sc.exact), sinoAfter = TestRecon.psnr(fw, sc.exact);
        System.out.printf("fw on strong gain stripes: slice PSNR %.2f -> %.2f dB (no stripes %.2f); sinogram %.2f -> %.2f dB%n",
                before, after, clean, sinoBefore, sinoAfter);
        assertTrue(after > before + 4, "slice PSNR " + before + " -> " + after);
        assertTrue(sinoAfter > sinoBefore + 2, "sinogram PSNR " + sinoBefore + " -> " + sinoAfter);
        assertTrue(after > clean - 1.5, "close to the stripe-free scan: " + after + " vs " + clean);
    }

    /**
     * Two discs off the axis: their sinogram traces vary over the angles, so little looks like a stripe (only near the
     * turning points of the traces, where an edge stays at one detector column for a while).
     */
    @Test
    void leavesAStripeFreeSinogramOfAnOffAxisObjectNearlyUnchanged() {
        int width = 256, nproj = 360;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(width).anglesRange(180, nproj).build();
        Phantom3D discs = new Phantom3D(List.of(new Ellipsoid(1, 0.12, 0.12, 1, 0.45, 0.2, 0, 0),
                new Ellipsoid(0.5, 0.08, 0.05, 1, -0.3, -0.4, 0, 30)), width / 2.0, 0, 0.01);
        float[] s = discs.sinogram(0, scan, true);
        float[] f = s.clone();
        FourierWaveletFilter.apply(f, nproj, width, 3, 1);
        double rel = ImageErrors.relL2(f, s);
        System.out.printf("fw on a stripe-free off-axis sinogram: relative change %.2e%n", rel);
        assertTrue(rel < 0.03, "relative change " + rel);
    }

    @Test
    void rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> FourierWaveletFilter.apply(new float[64], 8, 8, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> FourierWaveletFilter.apply(new float[64], 8, 8, 2, 0));
    }

    static double energy(float[] s) {
        double e = 0;
        for (float v : s) e += (double) v * v;
        return e;
    }
}
