package org.tomospark.job;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Before the output is touched: MLTR on a scan without flats, and too many subsets for the projections, are refused. */
class IterativePreflightTest {
    static final DemoDataset.Spec BASE = DemoDataset.Spec.demo().withSize(32, 2, 40);

    static ReconstructionParams params(Algorithm a, int subsets) {
        return ReconstructionParams.builder().backend("java").iterative(new IterativeParams(a, 5, subsets, 0)).build();
    }

    static DemoDataset.Spec withoutFlats(DemoDataset.Spec s) {
        return new DemoDataset.Spec(s.width(), s.rows(), s.projections(), s.rangeDeg(), s.axisOffset(), s.maxIntegral(), s.i0(),
                s.darkLevel(), 0, s.darks(), s.poisson(), s.seed());
    }

    @Test
    void mltrNeedsFlats() {
        ProjectionSource none = new DemoDataset(withoutFlats(BASE)).asSource();
        Exception e = assertThrows(IllegalArgumentException.class, () -> Preflight.checkIterative(none, params(Algorithm.MLTR, 1)));
        assertTrue(e.getMessage().contains("algorithm=mltr") && e.getMessage().contains("flats"), e.getMessage());
        assertDoesNotThrow(() -> Preflight.checkIterative(none, params(Algorithm.SIRT, 1)));
        assertDoesNotThrow(() -> Preflight.checkIterative(new DemoDataset(BASE).asSource(), params(Algorithm.MLTR, 10)));
    }

    @Test
    void subsetsMustDivideTheProjectionsSensibly() {
        ProjectionSource src = new DemoDataset(BASE).asSource();
        Exception e = assertThrows(IllegalArgumentException.class, () -> Preflight.checkIterative(src, params(Algorithm.MLTR, 11)));
        assertTrue(e.getMessage().contains("iterative.subsets=11"), e.getMessage());
    }
}
