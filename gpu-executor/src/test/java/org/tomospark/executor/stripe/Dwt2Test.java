package org.tomospark.executor.stripe;

import org.junit.jupiter.api.Test;

import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The periodised 2-D wavelet transform: exact inverse, energy kept, and vertical stripes in the LH quadrant. */
class Dwt2Test {

    @Test
    void threeLevelsAreInvertedExactlyAndKeepTheEnergy() {
        int rows = 48, cols = 64;
        double[] a = new double[rows * cols];
        Random r = new Random(3);
        for (int i = 0; i < a.length; i++) a[i] = r.nextGaussian();
        double[] orig = a.clone();
        Dwt2 dwt = new Dwt2(Daubechies.lowpass(5));
        for (int l = 0; l < 3; l++) dwt.forward(a, cols, rows >> l, cols >> l);
        assertEquals(energy(orig), energy(a), 1e-9 * energy(orig), "orthogonal: energy kept");
        double diff = 0;
        for (int i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i] - orig[i]));
        assertTrue(diff > 0.1, "the transform changed the array");
        for (int l = 2; l >= 0; l--) dwt.inverse(a, cols, rows >> l, cols >> l);
        for (int i = 0; i < a.length; i++) assertEquals(orig[i], a[i], 1e-12);
    }

    @Test
    void aVerticalStripeLandsInTheVerticalDetailOnly() {
        int rows = 32, cols = 32;
        double[] a = new double[rows * cols];
        for (int i = 0; i < rows; i++) a[i * cols + 13] = 1; // one column raised at every angle
        new Dwt2(Daubechies.lowpass(3)).forward(a, cols, rows, cols);
        int h = rows / 2, w = cols / 2;
        double lh = 0, hl = 0, hh = 0;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                double v = a[i * cols + j] * a[i * cols + j];
                if (i < h && j >= w) lh += v;
                else if (i >= h && j < w) hl += v;
                else if (i >= h) hh += v;
            }
        assertTrue(lh > 0.3 * rows, "vertical detail holds the stripe's high-pass part: " + lh);
        assertEquals(0, hl, 1e-20);
        assertEquals(0, hh, 1e-20);
    }

    static double energy(double[] a) {
        double e = 0;
        for (double v : a) e += v * v;
        return e;
    }
}
