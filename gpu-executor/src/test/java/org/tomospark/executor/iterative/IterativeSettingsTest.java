package org.tomospark.executor.iterative;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.params.ReconstructionParams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The iterative keys become parameters, and bad combinations are refused naming the key. */
class IterativeSettingsTest {
    static {
        // declaring the keys registers them: settings naming them are accepted from then on
        CoreKeys.ALGORITHM.name();
    }

    static ReconstructionParams params(String... kv) {
        Settings s = Settings.empty();
        for (int i = 0; i < kv.length; i += 2) s = s.with(kv[i], kv[i + 1]);
        return CoreKeys.params(s);
    }

    static void refused(String key, String... kv) {
        Exception e = assertThrows(IllegalArgumentException.class, () -> params(kv));
        assertTrue(e.getMessage().contains(key), "the error names " + key + ": " + e.getMessage());
    }

    @Test
    void defaultsToFilteredBackProjection() {
        assertEquals(Algorithm.FBP, params().algorithm().iterative().algorithm());
        IterativeParams p = params("algorithm", "MLTR", "iterative.iterations", "7", "iterative.subsets", "5",
                "iterative.tolerance", "0.02").algorithm().iterative();
        assertEquals(new IterativeParams(Algorithm.MLTR, 7, 5, 0.02), p);
    }

    @Test
    void badValuesAndCombinationsNameTheirKey() {
        refused("iterative.iterations", "algorithm", "sirt", "iterative.iterations", "-1");
        refused("iterative.relaxation", "algorithm", "os-sart", "iterative.relaxation", "2.5");
        refused("iterative.tvWeight", "algorithm", "tv", "iterative.tvWeight", "-0.1");
        refused("iterative.stop", "algorithm", "sirt", "iterative.stop", "sometimes");
        refused("iterative.stop=residual", "algorithm", "sirt", "iterative.stop", "residual");
        refused("iterative.stop=discrepancy", "algorithm", "tv", "iterative.stop", "discrepancy");
        refused("iterative.stop=discrepancy", "algorithm", "os-sart", "iterative.stop", "discrepancy", "bin.columns", "2");
        refused("iterative.subsets", "algorithm", "tv", "iterative.subsets", "4");
        refused("iterative.start", "algorithm", "sirt", "iterative.start", "random");
        Exception sweep = assertThrows(IllegalArgumentException.class, () -> CoreKeys.TV_WEIGHT_SWEEP.parse("1,-2"));
        assertTrue(sweep.getMessage().contains("iterative.tvWeightSweep"), sweep.getMessage());
        refused("iterative.subsets", "algorithm", "sirt", "iterative.subsets", "4");
        refused("iterative.tolerance", "algorithm", "cgls", "iterative.tolerance", "1.5");
        refused("algorithm", "algorithm", "art");
        // every backend has its projector pair
        for (String backend : new String[]{"java", "cuda", "opencl", "auto"})
            assertEquals(Algorithm.CGLS, params("algorithm", "cgls", "backend", backend).algorithm().iterative().algorithm(), backend);
        refused("algorithm=mltr", "algorithm", "mltr", "bin.columns", "2");
        refused("algorithm=mltr", "algorithm", "mltr", "halfAcquisition", "true");
    }

    @Test
    void subsetsMustLeaveEnoughProjectionsEach() {
        IterativeParams p = new IterativeParams(Algorithm.MLTR, 3, 30, 0);
        p.checkProjections(120);
        Exception e = assertThrows(IllegalArgumentException.class, () -> p.checkProjections(100));
        assertTrue(e.getMessage().contains("iterative.subsets=30") && e.getMessage().contains("at most 25 subsets"), e.getMessage());
    }
}
