package org.tomospark.executor.center;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ToothScan;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.pipeline.CenterSearch;
import org.tomospark.executor.params.ReconstructionParams;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Centre finding: phantom scans with known axis offsets (with noise) and the real tooth scan. */
class CenterFinderTest {

    static DemoDataset phantom(double offset, double range, int projections) {
        return new DemoDataset(DemoDataset.Spec.demo().withSize(256, 2, projections).withRange(range).withAxisOffset(offset)
                .withNoise(true));
    }

    @Test
    void everyMethodWithinHalfPixelOnPhantoms() {
        StringBuilder report = new StringBuilder();
        for (double range : new double[]{180, 360}) {
            for (double off : new double[]{-20.3, 0.0, 7.6}) {
                long t0 = System.nanoTime();
                DemoDataset d = phantom(off, range, range == 180 ? 180 : 360);
                d.counts();
                report.append(String.format("phantom %.2f s%n", (System.nanoTime() - t0) / 1e9));
                double truth = d.scanGeometry().centerOfRotation();
                try (ProjectionSource src = d.asSource()) {
                    for (CenterFinder.Method m : CenterFinder.Method.values()) {
                        long t1 = System.nanoTime();
                        CenterFinder.Result r = CenterSearch.find(src, ReconstructionParams.builder().build(), m, 2, 0);
                        report.append(String.format("range %3.0f offset %6.1f %-11s found %8.3f truth %8.3f err %+.3f (%.2f s)%n",
                                range, off, m.id(), r.center(), truth, r.center() - truth, (System.nanoTime() - t1) / 1e9));
                        assertEquals(truth, r.center(), 0.5, m + " range " + range + " offset " + off);
                    }
                }
            }
        }
        System.out.print(report);
    }

    @Test
    void methodsAgreeOnTheToothScan() {
        try (ProjectionSource src = DataExchangeSource.open(ToothScan.path())) {
            ReconstructionParams p = ReconstructionParams.builder().build();
            double vo = CenterSearch.find(src, p, CenterFinder.Method.VO, 2, 0).center();
            double corr = CenterSearch.find(src, p, CenterFinder.Method.CORRELATION, 2, 0).center();
            System.out.printf("tooth: vo %.3f correlation %.3f%n", vo, corr);
            assertEquals(vo, corr, 1.0, "methods disagree");
            assertEquals(296.0, vo, 1.0, "vo");
            assertEquals(296.0, corr, 1.0, "correlation");
        }
    }
}
