package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.phantom.Phantom3D;
import org.tomospark.executor.testing.SinogramSet;
import org.tomospark.executor.util.ImageErrors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every compiled variant of every (slices, storage, interpolation) mode against the Java backend's scalar kernel, on
 * awkward sizes: 2K+1 slices (a partial group), 181 projections (partial cache batches), an odd detector width with
 * per-projection axis correction, and a region of interest. Each variant runs twice: random data in one chunk (every
 * group of it in one launch where the variant batches groups) and a filtered phantom through chunks of K slices
 * (three chunks, the double buffers reused, tensor-core blocks part empty). Limits: 1e-5 relative L2 for float32,
 * 1e-3 for half storage; variants interpolated with the texture unit's 8-bit weights 5e-3 on white noise and 1e-3
 * on the smooth phantom. Skipped without a CUDA device.
 */
@Tag("gpu")
class VariantMatrixGpuTest {
    private static final int[] SLICES = {1, 2, 4, 8};
    /** Java references per mode and case, computed once. */
    private static final Map<String, float[][]> REFERENCES = new ConcurrentHashMap<>();

    @BeforeAll
    static void needsGpu() {
        assumeTrue(CudaDevice.unavailableReason() == null, "no CUDA device: " + CudaDevice.unavailableReason());
    }

    /** A mode: slices per pass, storage, interpolation. */
    private record Mode(int k, SampleFormat format, Interpolation interpolation) {
        String key() {
            return KernelVariant.modeKey(k, format, interpolation);
        }

        BackendOptions options() {
            return BackendOptions.defaults().withSlicesPerPass(k).withFormat(format).withInterpolation(interpolation)
                    .withExtra("cuda.autotune", "false");
        }
    }

    /** A check's geometry and (filtered) sinograms. */
    private record Case(String name, ScanGeometry scan, SliceGeometry slice, float[][] sinograms) {
        BackprojectionJob job() {
            return new BackprojectionJob(scan, slice, sinograms.length);
        }

        /** A copy of the sinograms: a backend may use its input as scratch. */
        SliceBatch batch() {
            float[][] c = new float[sinograms.length][];
            for (int i = 0; i < c.length; i++) c[i] = sinograms[i].clone();
            return new SliceBatch(0, c, scan.numProjections(), scan.detectorWidth(), true);
        }
    }

    static Stream<Arguments> variants() {
        KernelCatalog catalog = KernelBuild.packaged().catalog();
        List<Arguments> l = new ArrayList<>();
        for (int k : SLICES)
            for (SampleFormat f : SampleFormat.values())
                for (Interpolation in : Interpolation.values())
                    for (KernelVariant v : catalog.forMode(k, f, in)) l.add(Arguments.of(KernelVariant.modeKey(k, f, in), v.id()));
        return l.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variants")
    void matchesTheJavaBackend(String modeKey, String variant) {
        Mode m = mode(modeKey);
        KernelVariant v = KernelBuild.packaged().catalog().parse(variant, m.k(), m.format(), m.interpolation());
        double exact = m.format() == SampleFormat.HALF ? 1e-3 : 1e-5;
        int count = 2 * m.k() + 1;
        Case random = randomCase(count, 1234 + m.k());
        check(m, variant, random, m.options().withVariant(variant), v.textureWeights() ? 5e-3 : exact);
        Case phantom = phantomCase(count);
        check(m, variant + " in chunks of " + m.k(), phantom,
                m.options().withVariant(variant).withExtra("cuda.chunkSlices", Integer.toString(m.k())), v.textureWeights() ? 1e-3 : exact);
    }

    private static void check(Mode m, String what, Case c, BackendOptions cuda, double limit) {
        float[][] ref = REFERENCES.computeIfAbsent(m.key() + "/" + c.name(),
                x -> reconstruct("java", m.options().withVariant("scalar"), c));
        double err = ImageErrors.relL2(reconstruct("cuda", cuda, c), ref);
        assertTrue(err <= limit, m.key() + " " + what + ", " + c.name() + ": relative L2 " + err + " against the Java backend (limit "
                + limit + ")");
    }

    private static float[][] reconstruct(String backend, BackendOptions o, Case c) {
        try (BackprojectionBackend b = Backends.open(backend, o)) {
            b.validate(c.job());
            float[][] out = new float[c.sinograms().length][c.slice().pixels()];
            for (float[] a : out) Arrays.fill(a, Float.NaN);  // every pixel must be written
            b.process(c.batch(), out);
            return out;
        }
    }

    private static Mode mode(String key) {
        String[] p = key.split("\\.");
        return new Mode(Integer.parseInt(p[0].substring(1)), SampleFormat.parse(p[1]), Interpolation.parse(p[2]));
    }

    /** White noise on an awkward geometry ({@link SinogramSet#offCentreNoise}). */
    private static Case randomCase(int count, long seed) {
        SinogramSet set = SinogramSet.offCentreNoise(count, seed);
        return new Case("random 333x181", set.scan(), set.slice(), set.sinograms());
    }

    /**
     * The modified Shepp-Logan phantom, one detector row per slice (rows far enough apart that the slices differ),
     * 256 columns, 180 projections over 360°, ramp-filtered; a 181x199 region of interest.
     */
    private static Case phantomCase(int count) {
        int w = 256, np = 180;
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(360, np).centerOfRotation(127.8).build();
        Phantom3D phantom = new Phantom3D(Phantom3D.modifiedSheppLogan(), 110, count / 2.0, 16, 1.0);
        RampFilter filter = new RampFilter(w, np, FilterSpec.of(FilterWindow.SHEPP_LOGAN));
        float[][] s = new float[count][];
        for (int i = 0; i < count; i++) {
            s[i] = phantom.sinogram(i, scan, false);
            filter.filterRows(s[i], np, null);
        }
        return new Case("phantom ROI", scan, new SliceGeometry(w, w, 37, 21, 181, 199), s);
    }
}
