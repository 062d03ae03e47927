package org.tomospark.executor.filter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RampFilterTest {

    /** Kak & Slaney spatial ramp h(n) with τ = 1. */
    static double h(int n) {
        if (n == 0) return 0.25;
        if ((n & 1) == 0) return 0;
        return -1.0 / (Math.PI * Math.PI * n * (double) n);
    }

    @ParameterizedTest(name = "width {0}")
    @ValueSource(ints = {2, 5, 17, 64, 333, 640, 1001})
    void ramlakEqualsDirectSpatialConvolution(int width) {
        int nproj = 3;
        RampFilter f = new RampFilter(width, nproj, FilterSpec.of(FilterWindow.RAMLAK));
        double scale = Math.PI / (2.0 * nproj);
        Random r = new Random(width);
        float[] row = new float[width];
        for (int i = 0; i < width; i++) row[i] = (float) r.nextGaussian();
        double[] ref = new double[width];
        for (int i = 0; i < width; i++) {
            double s = 0;
            for (int j = 0; j < width; j++) s += h(i - j) * row[j];
            ref[i] = 2 * scale * s;
        }
        float[] got = row.clone();
        f.filterRow(got, 0);
        double num = 0, den = 0;
        for (int i = 0; i < width; i++) {
            num += (got[i] - ref[i]) * (got[i] - ref[i]);
            den += ref[i] * ref[i];
        }
        assertTrue(Math.sqrt(num / den) < 1e-5, "relative L2 " + Math.sqrt(num / den));
    }

    @Test
    void paddedLengthIsPowerOfTwoAtLeastTwiceWidth() {
        assertEquals(4, FilterSpec.paddedLength(2));
        assertEquals(8, FilterSpec.paddedLength(3));
        assertEquals(1024, FilterSpec.paddedLength(512));
        assertEquals(2048, FilterSpec.paddedLength(513));
        assertEquals(2048, FilterSpec.paddedLength(640));
    }

    @Test
    void responseIsARampWithoutDcOffset() {
        int w = 512;
        RampFilter f = new RampFilter(w, FilterSpec.of(FilterWindow.RAMLAK), 1.0);
        float[] r = f.response();
        int n = f.paddedLength();
        // DC: 2·Σh over the padded kernel, which tends to 0 (no DC offset); tiny and positive for finite n
        assertTrue(r[0] > 0 && r[0] < 1e-3, "DC " + r[0]);
        // mid-band it follows 2|f| closely, and it is monotone
        for (int k = n / 16; k <= n / 2; k += n / 16) {
            double f2 = 2.0 * k / n;
            assertEquals(f2, r[k], 0.02 * f2 + 1e-3, "k=" + k);
        }
        for (int k = 1; k <= n / 2; k++) assertTrue(r[k] > r[k - 1]);
    }

    @ParameterizedTest
    @EnumSource(FilterWindow.class)
    void windowsMatchTheirDefinitionsAndCutoff(FilterWindow w) {
        int width = 256;
        RampFilter ramp = new RampFilter(width, FilterSpec.of(FilterWindow.RAMLAK), 1.0);
        RampFilter win = new RampFilter(width, new FilterSpec(w, 0.5, Padding.ZERO), 1.0);
        float[] a = ramp.response(), b = win.response();
        int n = ramp.paddedLength();
        for (int k = 1; k <= n / 2; k++) {
            double u = (double) k / n / 0.25; // cutoff 0.5 → f_cut = 0.25 cycles/pixel
            double expect = u > 1 ? 0 : a[k] * switch (w) {
                case RAMLAK -> 1.0;
                case SHEPP_LOGAN -> Math.sin(Math.PI * u / 2) / (Math.PI * u / 2);
                case COSINE -> Math.cos(Math.PI * u / 2);
                case HAMMING -> 0.54 + 0.46 * Math.cos(Math.PI * u);
                case HANN -> 0.5 + 0.5 * Math.cos(Math.PI * u);
                case PARZEN -> u <= 0.5 ? 1 - 6 * u * u * (1 - u) : 2 * Math.pow(1 - u, 3);
            };
            assertEquals(expect, b[k], 1e-6, w + " k=" + k);
        }
    }

    @Test
    void edgePaddingOfAConstantRowLeavesOnlyTheDcResponse() {
        int width = 100;
        RampFilter f = new RampFilter(width, new FilterSpec(FilterWindow.RAMLAK, 1.0, Padding.EDGE), 1.0);
        float[] row = new float[width];
        Arrays.fill(row, 3f);
        f.filterRow(row, 0);
        float dc = f.response()[0];
        for (float v : row) assertEquals(3f * dc, v, 1e-6);
        // zero padding of the same row gives the familiar negative overshoot at the edges
        RampFilter z = new RampFilter(width, FilterSpec.of(FilterWindow.RAMLAK), 1.0);
        float[] row2 = new float[width];
        Arrays.fill(row2, 3f);
        z.filterRow(row2, 0);
        assertTrue(row2[0] > 0.5 && row2[width / 2] < 0.05, row2[0] + " " + row2[width / 2]);
    }

    @Test
    void filterRowsInParallelEqualsRowByRow() {
        int w = 77, rows = 33;
        RampFilter f = new RampFilter(w, 10, FilterSpec.of(FilterWindow.HANN));
        Random r = new Random(1);
        float[] a = new float[w * rows];
        for (int i = 0; i < a.length; i++) a[i] = r.nextFloat();
        float[] b = a.clone();
        f.filterRows(a, rows, null);
        for (int i = 0; i < rows; i++) f.filterRow(b, i * w);
        assertArrayEquals(b, a);
    }

    @Test
    void invalidSpecsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FilterSpec(FilterWindow.HANN, 0, Padding.ZERO))
                .getMessage().contains("filter.cutoff"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FilterWindow.parse("gauss"))
                .getMessage().contains("unknown filter 'gauss'"));
    }
}
