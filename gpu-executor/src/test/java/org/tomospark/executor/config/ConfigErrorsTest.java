package org.tomospark.executor.config;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.params.CoreKeys;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A refused value reads one way, whatever refused it: {@code config key KEY: invalid value 'VALUE': REASON}, the reason
 * said once; a mistyped key is answered with the nearest key; settings print what was set.
 */
class ConfigErrorsTest {
    static String refused(ConfigKey<?> key, String value) {
        return assertThrows(IllegalArgumentException.class, () -> key.parse(value)).getMessage();
    }

    @Test
    void aRefusedValueNamesTheKeyTheValueAndTheReasonOnce() {
        assertEquals("config key center: invalid value '-5': expected number in [0, 1e6], auto, or empty",
                refused(CoreKeys.CENTER, "-5"));
        assertEquals("config key center: invalid value 'NaN': NaN is not a number here; leave the key empty for its default",
                refused(CoreKeys.CENTER, "NaN"));
        assertEquals("config key center: invalid value 'Infinity': not a finite number", refused(CoreKeys.CENTER, "Infinity"));
        assertEquals("config key center: invalid value 'middle': expected number in [0, 1e6], auto, or empty",
                refused(CoreKeys.CENTER, "middle"));
        assertEquals("config key filter: invalid value 'shep-logan': expected one of ramlak, shepp-logan, cosine, hamming, "
                + "hann, parzen (did you mean 'shepp-logan'?)", refused(CoreKeys.FILTER, "shep-logan"));
        assertEquals("config key filter: invalid value 'gauss': expected one of ramlak, shepp-logan, cosine, hamming, hann, "
                + "parzen", refused(CoreKeys.FILTER, "gauss"));
        assertEquals("config key filter.cutoff: invalid value '2': expected number in [0.001, 1.0]",
                refused(CoreKeys.FILTER_CUTOFF, "2"));
        assertEquals("config key iterative.iterations: invalid value 'ten': expected integer in [0, 100000]",
                refused(CoreKeys.ITERATIONS, "ten"));
        String installed = String.join(", ", Backends.providers().stream().map(BackendProvider::id).toList());
        assertEquals("config key backend: invalid value 'cude': expected auto or an installed backend: " + installed
                + " (did you mean 'cuda'?)", refused(CoreKeys.BACKEND, "cude"));
        assertTrue(installed.contains("java") && installed.contains("cuda") && installed.contains("opencl"), installed);
    }

    @Test
    void anUnknownKeyIsAnsweredWithTheNearestOne() {
        CoreKeys.CENTER.name();
        assertEquals("unknown config key 'centre' (did you mean 'center'?; see conf/CONFIG.md for the keys)",
                ConfigRegistry.unknown("centre"));
        assertEquals("unknown config key 'tvWeight' (did you mean 'iterative.tvWeight'?; see conf/CONFIG.md for the keys)",
                ConfigRegistry.unknown("tvWeight"));
        assertEquals("unknown config key 'Filter.Cutoff' (did you mean 'filter.cutoff'?; see conf/CONFIG.md for the keys)",
                ConfigRegistry.unknown("Filter.Cutoff"));
        assertEquals("unknown config key 'zzzz' (see conf/CONFIG.md for the keys)", ConfigRegistry.unknown("zzzz"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Settings.empty().with("centre", "3"));
        assertEquals("--conf: unknown config key 'centre' (did you mean 'center'?; see conf/CONFIG.md for the keys)", e.getMessage());
    }

    @Test
    void suggestionsAreCloseOrNone() {
        List<String> keys = List.of("center", "center.method", "filter", "filter.cutoff");
        assertEquals("center.method", Suggest.closest("center.metod", keys));
        assertEquals("center.method", Suggest.closest("method", keys));
        assertEquals("filter.cutoff", Suggest.closest("filter.cut", keys));
        assertNull(Suggest.closest("backend", keys));
        assertNull(Suggest.closest("c", keys), "a one-letter name is no word to correct");
        assertEquals(2, Suggest.distance("shep-logan", "shepp-logn"));
    }

    @Test
    void settingsPrintWhatWasSetInTheOrderSet() {
        Settings s = Settings.empty().with("filter", "shepp-logan").with("center", "296");
        assertEquals("Settings(filter=shepp-logan, center=296)", s.toString());
        assertEquals("Settings(filter=hann, center=296)", s.with("filter", "hann").toString());
        assertEquals("Settings()", Settings.empty().toString());
    }
}
