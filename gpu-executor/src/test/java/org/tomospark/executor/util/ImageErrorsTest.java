package org.tomospark.executor.util;

import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ImageErrorsTest {
    @Test
    void relativeL2AgainstHandComputedValues() {
        // ref norms: sqrt(9 + 16 + 36 + 64) = sqrt(125); differences (0, 1) and (0, -2): sqrt(5)
        float[][] ref = {{3, 4}, {6, 8}};
        float[][] got = {{3, 5}, {6, 6}};
        assertEquals(Math.sqrt(5.0 / 125.0), ImageErrors.relL2(got, ref), 1e-15);
        assertEquals(0.0, ImageErrors.relL2(ref, ref));
        assertEquals(0.2, ImageErrors.relL2(new float[]{3, 5}, new float[]{3, 4}), 1e-15);
    }

    @Test
    void unwrittenPixelsAndZeroReferencesAreNeverAPass() {
        assertEquals(Double.POSITIVE_INFINITY, ImageErrors.relL2(new float[]{3, Float.NaN}, new float[]{3, 4}));
        assertEquals(Double.POSITIVE_INFINITY, ImageErrors.relL2(new float[]{0, 1e-9f}, new float[]{0, 0}));
        assertEquals(0.0, ImageErrors.relL2(new float[]{0, 0}, new float[]{0, 0}));
        assertThrows(IllegalArgumentException.class, () -> ImageErrors.relL2(new float[]{1}, new float[]{1, 2}));
        // the double-reference form follows the same rules
        assertEquals(0.2, ImageErrors.relL2(new float[]{3, 5}, new double[]{3, 4}), 1e-15);
        assertEquals(Double.POSITIVE_INFINITY, ImageErrors.relL2(new float[]{Float.NaN, 4}, new double[]{3, 4}));
        assertThrows(IllegalArgumentException.class, () -> ImageErrors.relL2(new float[]{1}, new double[]{1, 2}));
    }
}
