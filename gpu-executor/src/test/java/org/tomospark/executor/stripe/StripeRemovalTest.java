package org.tomospark.executor.stripe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tomospark.executor.testing.Metrics;
import org.tomospark.executor.TestRecon;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.util.ImageErrors;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stripes from detector columns with a gain error, injected into an exact phantom sinogram, are removed. */
class StripeRemovalTest {
    static final int N = 256, NPROJ = 240;

    @ParameterizedTest
    @EnumSource(value = StripeRemoval.Method.class, names = {"SORTING", "OFFSET"})
    void sortingFilterRemovesGainStripes(StripeRemoval.Method method) {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(N, 1, NPROJ).withNoise(false));
        ScanGeometry scan = d.scanGeometry();
        float[] truth = d.phantom().sinogram(0, scan, true);
        float[] striped = truth.clone();
        int[] cols = {40, 41, 97, 128, 150, 151, 152, 200};
        double[] gain = {0.92, 1.06, 0.90, 1.04, 0.95, 0.95, 1.07, 0.93};
        for (int k = 0; k < cols.length; k++)
            for (int p = 0; p < NPROJ; p++) striped[p * N + cols[k]] += (float) -Math.log(gain[k]); // −log(g·I/I0)
        float[] cleaned = striped.clone();
        StripeRemoval.apply(StripeParams.of(method, 11), cleaned, NPROJ, N);

        double before = TestRecon.psnr(striped, truth), after = TestRecon.psnr(cleaned, truth);
        // stripe columns themselves: mean absolute offset left
        double resid = 0, orig = 0;
        for (int k = 0; k < cols.length; k++)
            for (int p = 0; p < NPROJ; p++) {
                resid += Math.abs(cleaned[p * N + cols[k]] - truth[p * N + cols[k]]);
                orig += Math.abs(striped[p * N + cols[k]] - truth[p * N + cols[k]]);
            }
        // and in the reconstruction (rings)
        SliceGeometry g = SliceGeometry.square(N);
        float[] gt = d.phantom().groundTruth(0, g, 2);
        boolean[] fov = Metrics.circleMask(N, N, N / 2.0 - 2);
        double recBefore = Metrics.psnr(TestRecon.fbp(striped, scan, g), gt, fov);
        double recAfter = Metrics.psnr(TestRecon.fbp(cleaned, scan, g), gt, fov);
        double recClean = Metrics.psnr(TestRecon.fbp(truth, scan, g), gt, fov);
        System.out.printf(method
                + " stripes: sinogram PSNR %.1f -> %.1f dB; stripe-column error %.4f -> %.4f; reconstruction PSNR %.1f -> %.1f dB (no "
                + "stripes %.1f)%n",
                before, after, orig / (cols.length * NPROJ), resid / (cols.length * NPROJ), recBefore, recAfter, recClean);
        assertTrue(resid < 0.25 * orig, "stripe columns keep " + resid / orig + " of their error");
        if (method == StripeRemoval.Method.OFFSET) {
            assertTrue(after > before + 10, "sinogram PSNR " + before + " -> " + after);
            assertTrue(recAfter > recBefore + 2, "reconstruction PSNR " + recBefore + " -> " + recAfter);
            assertTrue(recAfter > recClean - 0.5, "the filter must not damage the image: " + recAfter + " vs " + recClean);
        } else {
            // per-value filtering: the stripes go, at the price of slight smoothing of the sorted image
            assertTrue(recAfter > recBefore, "reconstruction PSNR " + recBefore + " -> " + recAfter);
        }
    }

    /**
     * On a sinogram without stripes, offset's per-column medians are ≈ 0 and it changes next to nothing; sorting
     * replaces every value by a median of its neighbours in the sorted image, which flattens each peak and valley.
     */
    @Test
    void offsetLeavesAStripeFreeSinogramNearlyUnchangedAndSortingDoesNot() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(N, 1, NPROJ).withNoise(false));
        float[] truth = d.phantom().sinogram(0, d.scanGeometry(), true);
        float[] offset = truth.clone(), sorting = truth.clone();
        StripeRemoval.apply(StripeParams.of(StripeRemoval.Method.OFFSET, 11), offset, NPROJ, N);
        StripeRemoval.apply(StripeParams.of(StripeRemoval.Method.SORTING, 11), sorting, NPROJ, N);
        double o = ImageErrors.relL2(offset, truth), s = ImageErrors.relL2(sorting, truth);
        System.out.printf("stripe-free sinogram: relative change %.2e (offset), %.2e (sorting)%n", o, s);
        assertTrue(o < 2e-3, "offset changed a stripe-free sinogram by " + o);
        assertTrue(s > 5 * o, "sorting changes it more: " + s + " vs " + o);
    }

    @Test
    void rejectsEvenWindow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SortingFilter.sorting(new float[64], 8, 8, 4));
        assertTrue(e.getMessage().contains("stripe.size"));
    }
}
