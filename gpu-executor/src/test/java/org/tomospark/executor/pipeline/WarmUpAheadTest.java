package org.tomospark.executor.pipeline;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ReconstructionParams;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver whose tasks run in its own JVM starts the processors' warm-up ahead: gridrec's, for a parallel-beam run that
 * reconstructs by gridrec, and none for the other algorithms (FBP, the iterative methods, cone beam, an algorithm not yet
 * resolved), whose processors have nothing of the kind to start.
 */
class WarmUpAheadTest {
    private static final ScanGeometry SCAN = ScanGeometry.builder().detectorWidth(96).anglesRange(180, 60).build();
    private static final SliceGeometry SLICE = SliceGeometry.square(96);

    private static ReconstructionParams with(IterativeParams algorithm) {
        return ReconstructionParams.builder().backend("java").iterative(algorithm).build();
    }

    @Test
    void gridrecIsWarmedUpAhead() {
        assertTrue(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, with(IterativeParams.GRIDREC)));
    }

    @Test
    void autoResolvedToGridrecOnTheHostIsWarmedUpAhead() {
        ReconstructionParams auto = with(new IterativeParams(Algorithm.AUTO, 0, 0, Double.NaN)).resolveAlgorithm("java", 60, 96);
        assertTrue(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, auto));
    }

    @Test
    void otherAlgorithmsHaveNoWarmUpAhead() {
        assertFalse(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, with(IterativeParams.FBP)));
        assertFalse(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, with(new IterativeParams(Algorithm.SIRT, 10, 0, Double.NaN))));
        assertFalse(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, with(new IterativeParams(Algorithm.AUTO, 0, 0, Double.NaN))),
                "auto before the driver resolves it");
        ReconstructionParams autoOnGpu = with(new IterativeParams(Algorithm.AUTO, 0, 0, Double.NaN)).resolveAlgorithm("cuda", 60, 96);
        assertFalse(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, autoOnGpu), "auto resolved for a GPU: FBP");
    }

    @Test
    void coneBeamHasNoWarmUpAhead() {
        ConeGeometry g = ConeGeometry.builder().dso(500).dsd(1000).pixel(0.2, 0.2).centre(47.5, 15.5).detector(96, 32)
                .anglesRange(360, 60).build();
        ConeParams cone = ConeParams.of(true, Map.of(), 64, 16, 0.1, false).resolve(g);
        ReconstructionParams p = ReconstructionParams.builder().backend("java").iterative(IterativeParams.GRIDREC).cone(cone).build();
        assertFalse(SliceGroupProcessor.warmUpAhead(SCAN, SLICE, p));
    }
}
