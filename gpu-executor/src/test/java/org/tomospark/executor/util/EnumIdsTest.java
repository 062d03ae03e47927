package org.tomospark.executor.util;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.outputs.OutputType;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EnumIdsTest {
    @Test
    void idsParseInAnyCaseAndAliasesReachTheirConstants() {
        assertEquals(OutputType.FLOAT16, OutputType.parse("  Float16 "));
        assertEquals(FilterWindow.RAMLAK, FilterWindow.parse("Ram_Lak"));
        assertEquals(FilterWindow.RAMLAK, FilterWindow.parse("ramp"));
        assertEquals(FilterWindow.HANN, FilterWindow.parse("hanning"));
        assertEquals(FilterWindow.SHEPP_LOGAN, FilterWindow.parse("shepp_logan"));
        assertEquals(SliceGrid.SKIMAGE, SliceGrid.parse("scikit-image"));
        assertEquals(SliceGrid.ASTRA, SliceGrid.parse("ASTRA"));
    }

    @Test
    void anUnknownIdIsRefusedQuotingItAndListingEveryId() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputType.parse("int8"));
        assertEquals("unknown output type 'int8': expected float32, float16, uint16", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FilterWindow.parse("Gauss"));
        assertEquals("unknown filter 'Gauss': expected ramlak, shepp-logan, cosine, hamming, hann, parzen", e.getMessage());
    }
}
