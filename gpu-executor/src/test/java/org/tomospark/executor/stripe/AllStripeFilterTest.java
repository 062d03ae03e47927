package org.tomospark.executor.stripe;

import org.junit.jupiter.api.Test;

import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vo's combined filter and its stripe detector, on planted defects of known position and size. The scans are 512
 * columns wide: with the default large-stripe window of 61 columns the object's edge must lie well over 30 columns
 * from the detector's (docs/stripes.md).
 */
class AllStripeFilterTest {

    @Test
    void detectorFindsExactlyThePlantedOutliers() {
        Random r = new Random(11);
        float[] profile = new float[400];
        for (int j = 0; j < profile.length; j++) profile[j] = (float) (1 + 0.01 * r.nextGaussian());
        assertEquals(0, count(StripeDetector.detect(profile, 3)), "noise alone is no stripe");
        profile[10] = 1.2f;
        profile[77] = 0.8f;
        profile[300] = 1.15f;
        boolean[] m = StripeDetector.detect(profile, 3);
        assertEquals(3, count(m));
        assertTrue(m[10] && m[77] && m[300]);
        boolean[] d = StripeDetector.dilate(m);
        assertEquals(9, count(d));
        assertTrue(d[9] && d[11] && d[76] && d[78] && d[299] && d[301]);
    }

    @Test
    void deadColumnsAreFoundAndInterpolated() {
        StripeScans sc = new StripeScans(512, 512);
        int[] dead = {120, 121, 280, 400};
        float[] s = sc.withDeadColumns(sc.clean, dead);
        double errBefore = columnError(s, sc.clean, sc, dead);
        boolean[] found = AllStripeFilter.removeDeadColumns(s, sc.nproj, sc.width, 3, 61);
        double errAfter = columnError(s, sc.clean, sc, dead);
        System.out.printf("dead columns: %d replaced; mean error in them %.4f -> %.4f%n", count(found), errBefore, errAfter);
        for (int j : dead) assertTrue(found[j], "column " + j + " found");
        assertTrue(count(found) <= 4 * dead.length, "few columns besides the dead ones and their neighbours: " + count(found));
        assertTrue(errAfter < 0.25 * errBefore, "interpolated columns follow the object: " + errBefore + " -> " + errAfter);
    }

    @Test
    void noFalseDetectionsOnAStripeFreeNoisyScan() {
        StripeScans sc = new StripeScans(512, 512);
        float[] s = sc.clean.clone();
        assertEquals(0, count(AllStripeFilter.removeDeadColumns(s, sc.nproj, sc.width, 3, 61)));
        assertEquals(0, count(AllStripeFilter.removeLargeStripes(s, sc.nproj, sc.width, 3, 61)));
    }

    @Test
    void strongGainStripesAndDeadColumnsAreRemoved() {
        StripeScans sc = new StripeScans(512, 512);
        float[] s = sc.withDeadColumns(sc.withGains(sc.clean, sc.gains(0.05, 0.05, 0.15, 4)), 180, 181, 340);
        float[] f = s.clone();
        AllStripeFilter.apply(f, sc.nproj, sc.width, 3, 61, 11);
        double before = sc.slicePsnr(s), after = sc.slicePsnr(f), clean = sc.slicePsnr(sc.clean);
        System.out.printf("all on gain stripes and dead columns: slice PSNR %.2f -> %.2f dB (no stripes %.2f)%n", before, after, clean);
        assertTrue(after > before + 4, before + " -> " + after);
        assertTrue(after > clean - 3, after + " vs " + clean);
    }

    @Test
    void rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> AllStripeFilter.apply(new float[64], 8, 8, 3, 60, 11));
        assertThrows(IllegalArgumentException.class, () -> AllStripeFilter.apply(new float[64], 8, 8, 0, 61, 11));
        assertThrows(IllegalArgumentException.class, () -> AllStripeFilter.apply(new float[64], 8, 8, 3, 61, 4));
    }

    static int count(boolean[] m) {
        int n = 0;
        for (boolean b : m) if (b) n++;
        return n;
    }

    static double columnError(float[] s, float[] ref, StripeScans sc, int[] cols) {
        double e = 0;
        for (int j : cols) for (int p = 0; p < sc.nproj; p++) e += Math.abs(s[p * sc.width + j] - ref[p * sc.width + j]);
        return e / (cols.length * sc.nproj);
    }
}
