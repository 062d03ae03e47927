package org.tomospark.executor.backends.opencl;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.testing.Phantoms;
import org.tomospark.executor.util.ImageErrors;

import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every kernel variant on the first OpenCL device (PoCL's CPU device in CI) against the Java backend,
 * which computes in double coordinates: float modes within 1e-5 relative L2, half modes within 1e-3
 * (against the Java backend with half storage, so the bound covers kernel error, not half rounding).
 */
class OpenClBackendTest {
    static final int WIDTH = 333, NPROJ = 181;

    @BeforeAll
    static void needOpenCl() {
        assumeTrue(ClRuntime.unavailableReason() == null, () -> "no OpenCL here: " + ClRuntime.unavailableReason());
    }

    static ScanGeometry centred() {
        return ScanGeometry.builder().detectorWidth(WIDTH).anglesRange(180, NPROJ).build();
    }

    /** Off-centre axis and a per-projection axis correction (a wobble of up to ±1.3 px). */
    static ScanGeometry offCentreWobble() {
        double[] corr = new double[NPROJ];
        Random r = new Random(7);
        for (int p = 0; p < NPROJ; p++) corr[p] = 1.3 * Math.sin(p * 0.11) + 0.2 * (r.nextDouble() - 0.5);
        return ScanGeometry.builder().detectorWidth(WIDTH).anglesRange(180, NPROJ).centerOfRotation(171.35).axisCorrection(corr).build();
    }

    static Stream<Arguments> cases() {
        SliceGeometry full = SliceGeometry.full(WIDTH - 100, WIDTH - 110);        // 233 x 223, odd, smaller than the detector
        SliceGeometry roi = SliceGeometry.full(WIDTH, WIDTH).withRoi(41, 67, 150, 97); // off-centre ROI
        Stream.Builder<Arguments> b = Stream.builder();
        for (String v : new String[]{"std", "tex4", "tex4half", "alu", "alu4", "alu4half"})
            for (Interpolation in : Interpolation.values()) {
                b.add(Arguments.of(v, in, "random", centred(), full));
                b.add(Arguments.of(v, in, "phantom", offCentreWobble(), roi));
            }
        // zero-mean white noise: the harshest case for coordinate rounding (no smoothness, no mean to hide behind)
        for (String v : new String[]{"alu", "alu4"})
            for (Interpolation in : Interpolation.values())
                b.add(Arguments.of(v, in, "whitenoise", offCentreWobble(), roi));
        // the float-coordinate path GPUs take under opencl.coords=auto, forced here on any device
        for (String v : new String[]{"alu", "alu4"})
            b.add(Arguments.of(v, Interpolation.LINEAR, "whitenoise-floatcoords", offCentreWobble(), roi));
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1} {2} {4}")
    @MethodSource("cases")
    void matchesJavaBackend(String variant, Interpolation interp, String data, ScanGeometry scan, SliceGeometry slice) {
        boolean half = variant.endsWith("half");
        int k = variant.equals("std") || variant.equals("alu") ? 1 : 4;
        String clVariant = variant.startsWith("alu") ? "alu" : variant;
        BackendOptions o = BackendOptions.defaults().withInterpolation(interp).withSlicesPerPass(k)
                .withFormat(half ? SampleFormat.HALF : SampleFormat.FLOAT32).withVariant(clVariant).withDevice("");
        if (data.endsWith("floatcoords")) o = o.withExtra("opencl.coords", "float");
        int slices = k == 1 ? 3 : 6; // several passes; with k = 4 the second pass is partial
        BackprojectionJob job = new BackprojectionJob(scan, slice, slices);
        float[][] sinos = switch (data) {
            case "random" -> Noise.uniform(slices, NPROJ * WIDTH, 42);
            case "whitenoise", "whitenoise-floatcoords" -> Noise.zeroMean(slices, NPROJ * WIDTH, 43);
            default -> Phantoms.discs(slices, scan, true);
        };
        float[][] ref = TestData.javaReference(o, job, sinos);
        float[][] got;
        boolean floatCoords;
        try (OpenClBackend b = new OpenClBackend()) {
            b.setup(o);
            Requisition req = b.validate(job);
            floatCoords = req.description().contains("float coordinates");
            if (data.endsWith("floatcoords")) assertTrue(floatCoords, req.description());
            assertEquals(k, req.slicesPerPass(), req.description());
            assertEquals(half, req.description().toLowerCase().contains("half"), req.description());
            assertEquals(false, req.filtersOnDevice());
            got = TestData.run(b, job, sinos, true);
            // the same backend, a second batch: the pipeline slots are reused correctly
            float[][] again = TestData.run(b, job, sinos, true);
            assertEquals(0.0, ImageErrors.relL2(again, got), "second batch differs from the first");
            assertEquals(2L * slices * slice.pixels() * NPROJ, b.stats().updates());
        }
        double err = ImageErrors.relL2(got, ref);
        // float32 within 1e-5 with double detector coordinates (auto on CPUs); float coordinates (auto on GPUs, or
        // forced) round t to ~1e-5 px: ~2e-5 relative on white noise on PoCL, 6.0e-5 to 6.8e-5 on NVIDIA's OpenCL on an
        // H200, whose compiler also fuses the coordinate's multiply-adds (-cl-mad-enable) (docs/opencl-backend.md)
        double tol = half ? 1e-3 : floatCoords && interp == Interpolation.LINEAR ? 1e-4 : 1e-5;
        System.out.printf("%s %s %s %s: rel L2 %.3g%n", variant, interp, data, slice, err);
        assertTrue(err < tol, variant + " " + interp + " " + data + ": relative L2 " + err + " exceeds " + tol);
        // not trivially zero: the images carry signal
        double energy = 0;
        for (float v : got[0]) energy += v * v;
        assertTrue(energy > 0, "empty reconstruction");
    }
}
