package org.tomospark.executor.stripe;

import org.junit.jupiter.api.Test;
import java.util.Arrays;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The computed Daubechies filters against their defining properties and the closed forms of db1 and db2. */
class DaubechiesTest {

    @Test
    void haarAndDb2MatchTheirClosedForms() {
        double r = 1 / Math.sqrt(2);
        assertArrayEquals(new double[]{r, r}, Daubechies.lowpass(1), 1e-15);
        double s3 = Math.sqrt(3), d = 4 * Math.sqrt(2);
        double[] db2 = {(1 + s3) / d, (3 + s3) / d, (3 - s3) / d, (1 - s3) / d};
        double[] got = Daubechies.lowpass(2);
        double[] rev = {got[3], got[2], got[1], got[0]};
        boolean same = true, reversed = true;
        for (int k = 0; k < 4; k++) {
            same &= Math.abs(got[k] - db2[k]) < 1e-13;
            reversed &= Math.abs(rev[k] - db2[k]) < 1e-13;
        }
        assertTrue(same || reversed, Arrays.toString(got));
    }

    @Test
    void everyOrderIsOrthonormalWithNVanishingMoments() {
        for (int n = 1; n <= 10; n++) {
            double[] h = Daubechies.lowpass(n), g = Daubechies.highpass(h);
            assertEquals(2 * n, h.length);
            double sum = 0;
            for (double v : h) sum += v;
            assertEquals(Math.sqrt(2), sum, 1e-12, "db" + n + ": sum");
            for (int m = 0; m < n; m++) { // orthonormal to its even shifts
                double dot = 0;
                for (int k = 0; k + 2 * m < h.length; k++) dot += h[k] * h[k + 2 * m];
                assertEquals(m == 0 ? 1 : 0, dot, 1e-11, "db" + n + ": <h, h shifted by " + 2 * m + ">");
            }
            for (int p = 0; p < n; p++) { // the wavelet annihilates polynomials of degree < N
                double mom = 0, scale = 0;
                for (int k = 0; k < g.length; k++) {
                    mom += Math.pow(k, p) * g[k];
                    scale += Math.abs(Math.pow(k, p) * g[k]);
                }
                assertEquals(0, mom / scale, 1e-9, "db" + n + ": moment " + p);
            }
            double mom = 0;
            for (int k = 0; k < g.length; k++) mom += Math.pow(k, n) * g[k];
            assertTrue(Math.abs(mom) > 1e-3, "db" + n + " has exactly " + n + " vanishing moments");
        }
    }
}
