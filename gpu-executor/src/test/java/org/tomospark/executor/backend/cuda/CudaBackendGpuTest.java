package org.tomospark.executor.backend.cuda;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.util.ImageErrors;

import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * GPU tests: skipped where no CUDA device is present (CI). On the GPU machine the same comparisons, for every
 * variant and mode, run through {@code GpuBench --check}.
 */
@Tag("gpu")
class CudaBackendGpuTest {

    @BeforeAll
    static void needsGpu() {
        assumeTrue(CudaDevice.unavailableReason() == null, "no CUDA device: " + CudaDevice.unavailableReason());
    }

    private static float[][] run(String id, BackendOptions o, BackprojectionJob job, float[][] sino) {
        try (BackprojectionBackend b = Backends.open(id, o)) {
            b.validate(job);
            float[][] out = new float[sino.length][job.slice().pixels()];
            b.process(new SliceBatch(0, sino, job.scan().numProjections(), job.scan().detectorWidth(), true), out);
            return out;
        }
    }

    @Test
    void aluMatchesJavaOnOddSizesWithRoi() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(201).anglesRange(180, 97).centerOfRotation(99.6).build();
        SliceGeometry sg = new SliceGeometry(201, 190, 11, 7, 151, 133);
        Random r = new Random(5);
        float[][] s = new float[5][97 * 201];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = r.nextFloat() - 0.5f;
        for (Interpolation in : Interpolation.values()) {
            BackendOptions o = BackendOptions.defaults().withSlicesPerPass(4).withFormat(SampleFormat.FLOAT32).withInterpolation(in);
            float[][] ref = run("java", o.withVariant("scalar"), new BackprojectionJob(scan, sg, 5), s);
            float[][] got = run("cuda", o.withVariant("alu"), new BackprojectionJob(scan, sg, 5), s);
            double err = ImageErrors.relL2(got, ref);
            assertTrue(err < 1e-5, in + ": relative L2 " + err);
        }
    }

    /**
     * Half storage with the default slices per pass (8) and no auto-tuning: the fallback table's k8 kernel (the
     * register window), and the 256-thread window variant; 17 slices through chunks of 8 (two full groups and a
     * partial one), 181 projections (a partial last cache batch), odd detector width and ROI.
     */
    @Test
    void halfDefaultAndWindowKernelsMatchJava(@TempDir Path tmp) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(211).anglesRange(360, 181).centerOfRotation(104.3).build();
        SliceGeometry sg = new SliceGeometry(211, 205, 9, 13, 177, 151);
        Random r = new Random(9);
        float[][] s = new float[17][181 * 211];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = r.nextFloat() - 0.5f;
        BackendOptions o = BackendOptions.defaults().withSlicesPerPass(0).withFormat(SampleFormat.HALF)
                .withInterpolation(Interpolation.LINEAR).withExtra("cuda.autotune", "false").withExtra("cuda.chunkSlices", "8")
                .withExtra("cuda.tuningCache", tmp.resolve("empty-cache.properties").toString());  // no cached choice
        float[][] ref = run("java", o.withVariant("scalar"), new BackprojectionJob(scan, sg, 17), s);
        for (String v : new String[]{"auto", "alu:t32p4:h8p:win"}) {
            float[][] got = run("cuda", o.withVariant(v), new BackprojectionJob(scan, sg, 17), s);
            double err = ImageErrors.relL2(got, ref);
            assertTrue(err < 1e-3, v + ": relative L2 " + err);
        }
    }
}
