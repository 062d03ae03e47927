package org.tomospark.executor.backend.cuda;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

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
            double num = 0, den = 0;
            for (int k = 0; k < ref.length; k++)
                for (int i = 0; i < ref[k].length; i++) {
                    num += Math.pow(got[k][i] - ref[k][i], 2);
                    den += Math.pow(ref[k][i], 2);
                }
            assertTrue(Math.sqrt(num / den) < 1e-5, in + ": relative L2 " + Math.sqrt(num / den));
        }
    }
}
