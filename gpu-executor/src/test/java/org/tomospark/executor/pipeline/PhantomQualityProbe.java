package org.tomospark.executor.pipeline;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.Metrics;
import org.tomospark.executor.backend.*;
import org.tomospark.executor.backend.java.JavaBackend;
import org.tomospark.executor.filter.*;
import org.tomospark.executor.geometry.*;
import org.tomospark.executor.phantom.Phantom3D;

class PhantomQualityProbe {
    @Test
    void probe() {
        int n = 512;
        for (boolean integ : new boolean[]{true, false})
        for (FilterWindow w : new FilterWindow[]{FilterWindow.RAMLAK, FilterWindow.SHEPP_LOGAN}) {
            ScanGeometry scan = ScanGeometry.builder().detectorWidth(n).anglesRange(180, 720).build();
            SliceGeometry sg = SliceGeometry.square(n);
            Phantom3D ph = Phantom3D.sheppLogan(n / 2.0, 15.5, 1.0);
            float[] sino = ph.sinogram(14, scan, integ);
            new RampFilter(n, 720, FilterSpec.of(w)).filterRows(sino, 720, null);
            float[][] out = {new float[n * n]};
            try (JavaBackend b = new JavaBackend()) {
                b.setup(BackendOptions.defaults().withSlicesPerPass(1));
                b.validate(new BackprojectionJob(scan, sg, 1));
                b.process(new SliceBatch(14, new float[][]{sino}, 720, n, true), out);
            }
            boolean[] mask = Metrics.circleMask(n, n, n / 2.0 - 1);
            for (int ss : new int[]{1, 4}) {
                float[] gt = ph.groundTruth(14, sg, ss);
                System.out.printf("integ=%s %s ss=%d psnr=%.2f scale=%.4f%n", integ, w, ss, Metrics.psnr(out[0], gt, mask), Metrics.lsqScale(out[0], gt, mask));
            }
        }
    }
}
