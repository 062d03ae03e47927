package org.tomospark.executor;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Metrics;
import java.util.Arrays;

/** Plain FBP of one −log sinogram with the Java backend, for tests. */
public final class TestRecon {
    private TestRecon() {
    }

    public static float[] fbp(float[] sinogram, ScanGeometry scan, SliceGeometry g) {
        float[] sino = sinogram.clone();
        new RampFilter(scan.detectorWidth(), scan.numProjections(), FilterSpec.of(FilterWindow.RAMLAK))
                .filterRows(sino, scan.numProjections(), null);
        float[][] out = {new float[g.pixels()]};
        try (JavaBackend b = new JavaBackend()) {
            b.setup(BackendOptions.defaults().withSlicesPerPass(1));
            b.validate(new BackprojectionJob(scan, g, 1));
            b.process(new SliceBatch(0, new float[][]{sino}, scan.numProjections(), scan.detectorWidth(), true), out);
        }
        return out[0];
    }

    public static double psnr(float[] a, float[] truth) {
        boolean[] all = new boolean[a.length];
        Arrays.fill(all, true);
        return Metrics.psnr(a, truth, all);
    }
}
