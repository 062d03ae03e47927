package org.tomospark.executor.backend;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;
import org.tomospark.executor.util.ImageErrors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every Java backend configuration equals the double-precision oracle within 1e-5 relative L2. */
class JavaBackendOracleTest {

    record Case(String name, int width, int nproj, double rangeDeg, double centerShift, boolean axisCorr, int[] roi, int slice) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("odd 333x181", 333, 181, 180, 0, false, null, 0),
                new Case("off-centre axis +7.6", 128, 97, 180, 7.6, false, null, 0),
                new Case("off-centre axis -20.3, 360deg", 160, 120, 360, -20.3, false, null, 0),
                new Case("axis correction + ROI", 96, 64, 180, 1.25, true, new int[]{10, 17, 53, 41}, 0),
                new Case("slice larger than detector", 64, 50, 180, 0, false, null, 80));
    }

    static Stream<Arguments> configurations() {
        List<Arguments> l = new ArrayList<>();
        for (Case c : cases())
            for (int k : new int[]{1, 2, 4, 8})
                for (Interpolation in : Interpolation.values())
                    for (String variant : new String[]{"scalar", "auto"})
                        l.add(Arguments.of(c, k, in, variant));
        return l.stream();
    }

    static ScanGeometry scan(Case c, long seed) {
        ScanGeometry.Builder b = ScanGeometry.builder().detectorWidth(c.width).anglesRange(c.rangeDeg, c.nproj)
                .centerOfRotation((c.width - 1) / 2.0 + c.centerShift);
        if (c.axisCorr) {
            Random r = new Random(seed);
            double[] a = new double[c.nproj];
            for (int i = 0; i < a.length; i++) a[i] = r.nextGaussian() * 0.7;
            b.axisCorrection(a);
        }
        return b.build();
    }

    static SliceGeometry slice(Case c) {
        SliceGeometry g = SliceGeometry.square(c.slice == 0 ? c.width : c.slice);
        return c.roi == null ? g : g.withRoi(c.roi[0], c.roi[1], c.roi[2], c.roi[3]);
    }

    /** Gaussian sinograms around 0.3, positive on the whole like real ones. */
    static float[][] randomSinograms(int n, int nproj, int width, long seed) {
        return Noise.gaussian(n, nproj * width, seed, 0.3);
    }

    static float[][] run(ScanGeometry scan, SliceGeometry g, BackendOptions o, float[][] sinos) {
        float[][] out = new float[sinos.length][g.pixels()];
        try (JavaBackend b = new JavaBackend()) {
            b.setup(o);
            Requisition r = b.validate(new BackprojectionJob(scan, g, sinos.length));
            assertFalse(r.filtersOnDevice());
            b.process(new SliceBatch(0, sinos, scan.numProjections(), scan.detectorWidth(), true), out);
            assertEquals((long) g.pixels() * scan.numProjections() * sinos.length, b.stats().updates());
        }
        return out;
    }

    /** Oracle images per (case, interpolation), computed once for the 9 sinograms every configuration draws from. */
    private static final Map<String, double[][]> ORACLE = new ConcurrentHashMap<>();

    static double[][] oracle(Case c, Interpolation interp, float[][] sinos, ScanGeometry scan, SliceGeometry g) {
        return ORACLE.computeIfAbsent(c.name + interp, key -> {
            double[][] r = new double[sinos.length][];
            IntStream.range(0, sinos.length).parallel()
                    .forEach(s -> r[s] = OracleBackprojector.backproject(sinos[s], scan, g, interp == Interpolation.LINEAR));
            return r;
        });
    }

    @ParameterizedTest(name = "{0} k={1} {2} {3}")
    @MethodSource("configurations")
    void matchesOracle(Case c, int k, Interpolation interp, String variant) {
        ScanGeometry scan = scan(c, 7);
        SliceGeometry g = slice(c);
        int n = k + 1; // a full pass and a partial one
        float[][] all = randomSinograms(9, c.nproj, c.width, 1234);
        float[][] sinos = Arrays.copyOf(all, n);
        BackendOptions o = BackendOptions.defaults().withSlicesPerPass(k).withInterpolation(interp).withVariant(variant);
        float[][] out = run(scan, g, o, sinos);
        double[][] refs = oracle(c, interp, all, scan, g);
        for (int s = 0; s < n; s++) {
            double[] ref = refs[s];
            double err = ImageErrors.relL2(out[s], ref);
            assertTrue(err < 1e-5, c + " slice " + s + ": relative L2 " + err);
        }
    }

    @Test
    void multiSlicePassesEqualSingleSlicePassesExactly() {
        Case c = cases().get(0);
        ScanGeometry scan = scan(c, 1);
        SliceGeometry g = slice(c);
        float[][] sinos = randomSinograms(8, c.nproj, c.width, 99);
        float[][] one = run(scan, g, BackendOptions.defaults().withSlicesPerPass(1).withVariant("scalar"), sinos);
        float[][] eight = run(scan, g, BackendOptions.defaults().withSlicesPerPass(8).withVariant("auto"), sinos);
        for (int s = 0; s < 8; s++) assertArrayEquals(one[s], eight[s], "slice " + s);
    }

    @Test
    void halfStorageMatchesOracleOfHalfRoundedInputAndDiffersFromFloat() {
        Case c = cases().get(1);
        ScanGeometry scan = scan(c, 1);
        SliceGeometry g = slice(c);
        float[][] sinos = randomSinograms(4, c.nproj, c.width, 5);
        float[][] out = run(scan, g, BackendOptions.defaults().withSlicesPerPass(4).withFormat(SampleFormat.HALF), sinos);
        for (int s = 0; s < 4; s++) {
            float[] rounded = sinos[s].clone();
            for (int i = 0; i < rounded.length; i++) rounded[i] = Half.round(rounded[i]);
            double[] refHalf = OracleBackprojector.backproject(rounded, scan, g, true);
            double[] refFloat = OracleBackprojector.backproject(sinos[s], scan, g, true);
            assertTrue(ImageErrors.relL2(out[s], refHalf) < 1e-5);
            double vsFloat = ImageErrors.relL2(out[s], refFloat);
            assertTrue(vsFloat > 1e-5 && vsFloat < 1e-3, "half vs float relative L2 " + vsFloat);
        }
    }

    @Test
    void rejectsMismatchedBatch() {
        Case c = cases().get(0);
        ScanGeometry scan = scan(c, 1);
        try (JavaBackend b = new JavaBackend()) {
            b.setup(BackendOptions.defaults());
            b.validate(new BackprojectionJob(scan, slice(c), 4));
            float[][] wrong = randomSinograms(1, c.nproj, c.width - 1, 1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> b.process(new SliceBatch(0, wrong, c.nproj, c.width - 1, true), new float[][]{new float[slice(c).pixels()]}));
            assertTrue(e.getMessage().contains("validated geometry"), e.getMessage());
        }
    }
}
