package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ProjectionMatrix;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CUDA FDK kernels against the Java reference ({@link FdkBackprojector}) on white-noise projections: relative L2
 * error of what each adds into a slab (the slices start from random values, so that the sum is checked to be added),
 * at most 1e-5 for the exact kernels and {@link CudaFdk#TEXTURE_TOLERANCE} for the texture ones. Awkward sizes: n not a
 * multiple of the 32-column blocks, odd slab heights, bands not starting at row 0, the top slab whose band reaches the
 * detector's last row, detector widths with and without whole 16-byte words a row. Skipped where no CUDA device is
 * present (CI).
 */
@Tag("gpu")
class CudaFdkGpuTest {
    private static final double EXACT = 1e-5;

    @BeforeAll
    static void needsGpu() {
        assumeTrue(CudaDevice.unavailableReason() == null, "no CUDA device: " + CudaDevice.unavailableReason());
    }

    /** A scan whose volume of n x n x nz voxels fills most of the detector of cols x rows pixels. */
    static ConeGeometry scan(int cols, int rows, int projections) {
        return ConeGeometry.builder().dso(300).dsd(600).pixel(0.8, 0.8).centre((cols - 1) / 2.0 + 0.37, (rows - 1) / 2.0 - 0.21)
                .detector(cols, rows).anglesRange(360, projections).build();
    }

    /**
     * The scan's matrices with the object tilted about x by up to 3 degrees and moved along z by up to 2 mm, varying with
     * the projection: u and w depend on z.
     */
    static ConeGeometry tilted(ConeGeometry g) {
        ProjectionMatrix[] m = new ProjectionMatrix[g.numProjections()];
        for (int p = 0; p < m.length; p++) {
            double t = g.angle(p), a = Math.toRadians(3) * Math.sin(3 * t), c = Math.cos(a), s = Math.sin(a), dz = 2 * Math.cos(2 * t);
            double[][] world = {{1, 0, 0, 0}, {0, c, -s, 0}, {0, s, c, dz}, {0, 0, 0, 1}};
            double[] src = g.circularMatrix(p).m(), dst = new double[12];
            for (int r = 0; r < 3; r++)
                for (int col = 0; col < 4; col++)
                    for (int k = 0; k < 4; k++) dst[r * 4 + col] += src[r * 4 + k] * world[k][col];
            m[p] = new ProjectionMatrix(dst);
        }
        return g.withMatrices(m);
    }

    /** The circular scan's own matrices, given as matrices (u and w still independent of z). */
    static ConeGeometry asMatrices(ConeGeometry g) {
        ProjectionMatrix[] m = new ProjectionMatrix[g.numProjections()];
        for (int p = 0; p < m.length; p++) m[p] = g.circularMatrix(p);
        return g.withMatrices(m);
    }

    /** White-noise projections of the band [first, first + count). */
    static float[][] band(ConeGeometry g, int count, long seed) {
        Random r = new Random(seed);
        float[][] q = new float[g.numProjections()][count * g.cols()];
        for (float[] p : q) for (int i = 0; i < p.length; i++) p[i] = (float) (2 * r.nextDouble() - 1);
        return q;
    }

    /**
     * Projections like an object's line integrals, of band rows [first, first + count): random Gaussian blobs (smooth, as
     * the FDK filter's input is: white noise would weigh its Nyquist band, where a float FFT is least exact, far more than
     * a measurement does) and 1% noise.
     */
    static float[][] lineIntegrals(ConeGeometry g, int first, int count, long seed) {
        Random r = new Random(seed);
        int blobs = 12;
        double[] u = new double[blobs], v = new double[blobs], s = new double[blobs], a = new double[blobs];
        float[][] q = new float[g.numProjections()][count * g.cols()];
        for (float[] p : q) {
            for (int b = 0; b < blobs; b++) {
                u[b] = g.cols() * (0.15 + 0.7 * r.nextDouble());
                v[b] = g.rows() * (0.1 + 0.8 * r.nextDouble());
                s[b] = 3 + 10 * r.nextDouble();
                a[b] = 0.5 + r.nextDouble();
            }
            for (int row = 0; row < count; row++)
                for (int c = 0; c < g.cols(); c++) {
                    double sum = 0.01 * r.nextGaussian();
                    for (int b = 0; b < blobs; b++) {
                        double du = c - u[b], dv = first + row - v[b];
                        sum += a[b] * Math.exp(-(du * du + dv * dv) / (2 * s[b] * s[b]));
                    }
                    p[row * g.cols() + c] = (float) sum;
                }
        }
        return q;
    }

    private static float[][] start(ConeVolume vol, int slices, long seed) {
        Random r = new Random(seed);
        float[][] out = new float[slices][vol.pixels()];
        for (float[] s : out) for (int i = 0; i < s.length; i++) s[i] = (float) r.nextGaussian();
        return out;
    }

    /** ||got − want|| / ||want − start||: the error of what was added, relative to what was added. */
    static double relError(float[][] got, float[][] want, float[][] start) {
        double e = 0, w = 0;
        for (int k = 0; k < got.length; k++)
            for (int i = 0; i < got[k].length; i++) {
                double d = got[k][i] - want[k][i], a = want[k][i] - start[k][i];
                e += d * d;
                w += a * a;
            }
        return Math.sqrt(e / w);
    }

    /** Back-projects slab [k0, k1) with b and with the Java reference, from the same start; returns the error. */
    private static double compare(ConeBackprojector b, ConeGeometry g, ConeVolume vol, int k0, int k1, long seed) {
        int[] band = SlabPlanner.rows(g, vol, k0, k1);
        float[][] q = band(g, band[1], seed);
        float[][] got = start(vol, k1 - k0, seed + 1), want = start(vol, k1 - k0, seed + 1), initial = start(vol, k1 - k0, seed + 1);
        b.backproject(q, band[0], band[1], k0, got);
        new FdkBackprojector(g, vol).backproject(q, band[0], band[1], k0, want);
        double e = relError(got, want, initial);
        System.out.printf(Locale.ROOT, "slices %3d..%3d, band %3d+%3d: rel. error %.2e (%s)%n", k0, k1 - 1, band[0], band[1], e,
                b.description());
        return e;
    }

    @Test
    void circularColumnKernelMatchesJava() {
        ConeGeometry g = scan(131, 97, 60);  // 131 columns: rows are not whole 16-byte words
        ConeVolume vol = new ConeVolume(45, 40, 0.9);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 16, "")) {
            assertEquals(FdkVariant.COLUMNS, fdk.preferred());
            for (int[] slab : new int[][]{{0, 7}, {17, 30}, {33, 40}, {39, 40}})
                assertTrue(compare(fdk, g, vol, slab[0], slab[1], slab[0]) <= EXACT);
            assertTrue(fdk.description().contains(FdkVariant.COLUMNS.name()), fdk.description());
        }
    }

    /**
     * The volume as one slab and as slabs starting at slices that are not multiples of the kernels' 8-slice chunks: the
     * same bits for every voxel, for the exact kernels (the circular column kernel and the general one), filtered on the
     * device or not, so that Spark's tasks, the direct engine and a resume over another range agree. The projections
     * cover the whole detector (the same pixels for every slab), handed over as each slab's own band.
     */
    @Test
    void everySlabPlanGivesTheSameBits() {
        ConeGeometry circular = scan(131, 97, 60);  // 97 rows: the last slab's band ends at an odd row count
        for (ConeGeometry g : List.of(circular, tilted(circular)))
            for (boolean filtering : new boolean[]{false, true}) {
                ConeVolume vol = new ConeVolume(45, 40, 0.9);
                FdkFilter filter = new FdkFilter(g, FilterSpec.of(FilterWindow.RAMLAK), "/exchange/theta");
                float[][] whole = lineIntegrals(g, 0, g.rows(), 11);
                try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), vol.nz(), "")) {
                    float[][] once = new float[vol.nz()][vol.pixels()];
                    run(fdk, filtering ? filter : null, whole, 0, g.rows(), 0, once);
                    for (int[] plan : new int[][]{{0, 3, 11, 19, 40}, {0, 5, 13, 14, 29, 40}}) {
                        for (int s = 0; s + 1 < plan.length; s++) {
                            int k0 = plan[s], k1 = plan[s + 1];
                            int[] rows = SlabPlanner.rows(g, vol, k0, k1);
                            float[][] q = new float[whole.length][];
                            for (int p = 0; p < q.length; p++)
                                q[p] = Arrays.copyOfRange(whole[p], rows[0] * g.cols(), (rows[0] + rows[1]) * g.cols());
                            float[][] slab = new float[k1 - k0][vol.pixels()];
                            run(fdk, filtering ? filter : null, q, rows[0], rows[1], k0, slab);
                            for (int k = k0; k < k1; k++)
                                assertArrayEquals(once[k], slab[k - k0], 0f, "slice " + k + " of slab " + k0 + ".." + (k1 - 1)
                                        + " (" + fdk.description() + ")");
                        }
                    }
                }
            }
    }

    /** The back-projection of q, filtered on the device first when a filter is given. */
    private static void run(CudaFdk fdk, FdkFilter filter, float[][] q, int first, int rows, int k0, float[][] out) {
        if (filter != null) fdk.backprojectFiltering(filter, q, first, rows, k0, out);
        else fdk.backproject(q, first, rows, k0, out);
    }

    /**
     * FDK's weighting and ramp filter on the device (fdk_weight, then kernels/filter.cu) against FdkFilter.apply on the
     * host and the Java back-projector: a full scan and a short scan with Parker's weights, zero and edge padding, a
     * window and a cutoff, a band not starting at row 0. The unfiltered projections are left as they were given.
     */
    @Test
    void weightingAndFilteringOnTheDeviceMatchTheHostFilter() {
        ConeGeometry full = scan(131, 97, 60);
        ConeGeometry shortScan = ConeGeometry.builder().dso(300).dsd(600).pixel(0.8, 0.8).centre(65.37, 47.79).detector(131, 97)
                .anglesRange(180 + Math.toDegrees(2 * full.fanHalfAngle()) + 6, 64).build();
        ConeVolume vol = new ConeVolume(45, 40, 0.9);
        FilterSpec[] specs = {FilterSpec.of(FilterWindow.RAMLAK), new FilterSpec(FilterWindow.HANN, 0.8, Padding.EDGE)};
        for (ConeGeometry g : List.of(full, shortScan))
            for (FilterSpec spec : specs)
                for (CudaFdk.Mode mode : CudaFdk.Mode.values())
                    deviceFilter(g, vol, new FdkFilter(g, spec, "/exchange/theta"), mode);
    }

    /** Slabs back-projected with the filter on the device against the host filter and the Java reference, in mode. */
    private static void deviceFilter(ConeGeometry g, ConeVolume vol, FdkFilter filter, CudaFdk.Mode mode) {
        double limit = mode == CudaFdk.Mode.EXACT ? EXACT : CudaFdk.TEXTURE_TOLERANCE;
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 16, "", mode)) {
            assertTrue(fdk.filtersOnDevice());
            for (int[] slab : new int[][]{{0, 7}, {17, 30}}) {
                int[] rows = SlabPlanner.rows(g, vol, slab[0], slab[1]);
                float[][] raw = lineIntegrals(g, rows[0], rows[1], slab[0] + 3);
                float[][] given = new float[raw.length][];
                for (int p = 0; p < raw.length; p++) given[p] = raw[p].clone();
                float[][] hostFiltered = new float[raw.length][];
                for (int p = 0; p < raw.length; p++) {
                    hostFiltered[p] = raw[p].clone();
                    filter.apply(p, hostFiltered[p], 0, rows[0], rows[1]);
                }
                int slices = slab[1] - slab[0];
                float[][] got = start(vol, slices, 7), want = start(vol, slices, 7), initial = start(vol, slices, 7);
                fdk.backprojectFiltering(filter, raw, rows[0], rows[1], slab[0], got);
                new FdkBackprojector(g, vol).backproject(hostFiltered, rows[0], rows[1], slab[0], want);
                double e = relError(got, want, initial);
                System.out.printf(Locale.ROOT, "device filter, %s scan, %s, %s mode, slices %d..%d: rel. error %.2e%n",
                        g.scanKind("theta"), filter.ramp().spec(), mode, slab[0], slab[1] - 1, e);
                assertTrue(e <= limit, mode + ": relative error " + e);
                for (int p = 0; p < raw.length; p++) assertArrayEquals(given[p], raw[p], 0f, "projection " + p + " was changed");
            }
        }
    }

    @Test
    void circularMatricesTakeTheColumnKernel() {
        ConeGeometry g = asMatrices(scan(128, 90, 48));
        ConeVolume vol = new ConeVolume(70, 33, 0.55);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 33, "0")) {
            assertEquals(FdkVariant.COLUMNS, fdk.preferred());
            assertTrue(compare(fdk, g, vol, 0, 33, 5) <= EXACT);
            assertTrue(compare(fdk, g, vol, 20, 33, 6) <= EXACT);
        }
    }

    @Test
    void generalMatricesMatchJava() {
        ConeGeometry g = tilted(scan(128, 101, 72));
        ConeVolume vol = new ConeVolume(53, 37, 0.8);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 37, "")) {
            assertEquals(FdkVariant.GENERAL, fdk.preferred());
            for (int[] slab : new int[][]{{0, 37}, {5, 16}, {30, 37}})
                assertTrue(compare(fdk, g, vol, slab[0], slab[1], 11 + slab[0]) <= EXACT);
            assertTrue(fdk.description().contains(FdkVariant.GENERAL.name()), fdk.description());
        }
    }

    @Test
    void naiveKernelMatchesJava() {
        for (ConeGeometry g : List.of(scan(131, 97, 40), tilted(scan(128, 97, 40)))) {
            ConeVolume vol = new ConeVolume(45, 30, 0.9);
            int k0 = 9, k1 = 22;
            int[] b = SlabPlanner.rows(g, vol, k0, k1);
            float[][] q = band(g, b[1], 3);
            float[][] got = start(vol, k1 - k0, 4), want = start(vol, k1 - k0, 4), initial = start(vol, k1 - k0, 4);
            try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), k1 - k0, "")) {
                fdk.upload(q, b[0], b[1]);
                fdk.clear(k1 - k0);
                assertEquals(List.of(FdkVariant.NAIVE), fdk.launchAll(FdkVariant.NAIVE, k0, k1 - k0, b[0], b[1]));
                fdk.addInto(got);
            }
            new FdkBackprojector(g, vol).backproject(q, b[0], b[1], k0, want);
            double e = relError(got, want, initial);
            System.out.printf(Locale.ROOT, "fdk_naive, %s: rel. error %.2e%n", g.hasMatrices() ? "tilted matrices" : "circular", e);
            assertTrue(e <= EXACT, "naive kernel: " + e);
        }
    }

    @Test
    void textureModeWithinItsTolerance() {
        ConeGeometry g = scan(128, 97, 60);
        ConeVolume vol = new ConeVolume(45, 40, 0.9);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 16, "", CudaFdk.Mode.TEXTURE)) {
            assertEquals(fdk.tensorCopies() ? FdkVariant.TENSOR_SPLIT : FdkVariant.HYBRID, fdk.preferred());
            for (int[] slab : new int[][]{{0, 13}, {33, 40}}) {
                double e = compare(fdk, g, vol, slab[0], slab[1], 21 + slab[0]);
                assertTrue(e <= CudaFdk.TEXTURE_TOLERANCE, "hybrid: " + e);
            }
            assertTrue(withKernel(fdk, g, vol, FdkVariant.TEXTURE) <= CudaFdk.TEXTURE_TOLERANCE);
            // the larger texture share on the same blocks; 60 projections are no whole number of its batches of 7
            assertTrue(withKernel(fdk, g, vol, FdkVariant.HYBRID_LARGE_TILES) <= CudaFdk.TEXTURE_TOLERANCE);
        }
    }

    /**
     * Voxels of 4 detector pixels: footprints of more than FdkVariant.LARGE_FOOTPRINT pixels, and the texture mode takes
     * its column kernel with the larger texture share.
     */
    @Test
    void textureModeLargeFootprints() {
        ConeGeometry g = ConeGeometry.builder().dso(200).dsd(400).pixel(0.1, 0.1).centre(299.5, 249.5).detector(600, 500)
                .anglesRange(360, 45).build();
        ConeVolume vol = new ConeVolume(64, 24, 0.2);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 24, "", CudaFdk.Mode.TEXTURE)) {
            FdkKernels.Footprint f = fdk.footprint(FdkVariant.HYBRID, 0, 24, true);
            assertTrue(f.pixels() >= FdkVariant.LARGE_FOOTPRINT, "footprint " + f.pixels());
            for (int[] slab : new int[][]{{0, 24}, {5, 19}})
                assertTrue(compare(fdk, g, vol, slab[0], slab[1], 61 + slab[0]) <= CudaFdk.TEXTURE_TOLERANCE);
            FdkVariant taken = fdk.tensorCopies() ? FdkVariant.TENSOR_SPLIT : FdkVariant.HYBRID_LARGE_TILES;
            assertTrue(fdk.description().contains(taken.name()), fdk.description());
            // the split kernel's larger texture share where tensor copies are not taken
            assertTrue(withKernel(fdk, g, vol, FdkVariant.HYBRID_LARGE_TILES) <= CudaFdk.TEXTURE_TOLERANCE);
        }
    }

    /**
     * Detector rows of 126 pixels are not whole 16-byte words, which a tensor map's rows must be: the texture mode's
     * column kernel then copies its tiles itself, within the same tolerance.
     */
    @Test
    void tensorCopiesNeedRowsOfWholeWords() {
        ConeGeometry g = scan(126, 97, 30);
        ConeVolume vol = new ConeVolume(45, 16, 0.9);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 16, "", CudaFdk.Mode.TEXTURE)) {
            assertFalse(fdk.tensorCopies());
            assertEquals(FdkVariant.HYBRID, fdk.preferred());
            assertThrows(IllegalStateException.class, () -> fdk.launchAll(FdkVariant.TENSOR_SPLIT, 0, 16, 0, g.rows()));
            assertTrue(compare(fdk, g, vol, 0, 16, 41) <= CudaFdk.TEXTURE_TOLERANCE);
        }
    }

    /**
     * Where the device, the module and the detector allow tensor copies (sm_90 code, rows of whole 16-byte words), the
     * texture mode's column kernel takes them, and its sums are the split kernel's (one projection in two through the
     * texture) bit for bit: the same arithmetic on the same pixels, whether the tiles come from the copy engine or from
     * the block's own copies. A volume taller and wider than the detector sees, so that footprints leave it at the top,
     * the bottom and the sides (tiles of zeros from the guard rows, columns filled by the copy engine); slabs at the
     * bottom, the middle, the top, and the whole volume; and against the Java reference.
     */
    @Test
    void tensorCopiesGiveTheSplitKernelsBits() {
        ConeGeometry g = scan(128, 97, 90);
        ConeVolume vol = new ConeVolume(72, 48, 1.0);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), vol.nz(), "", CudaFdk.Mode.TEXTURE)) {
            assumeTrue(fdk.tensorCopies(), "no tensor copies here: " + fdk.description());
            assertEquals(FdkVariant.TENSOR_SPLIT, fdk.preferred());
            for (int[] slab : new int[][]{{0, 12}, {17, 31}, {36, 48}, {0, 48}}) {
                int k0 = slab[0], slices = slab[1] - slab[0];
                int[] b = SlabPlanner.rows(g, vol, k0, slab[1]);
                float[][] q = band(g, b[1], 5 + k0);
                fdk.upload(q, b[0], b[1]);
                float[][] tensor = new float[slices][vol.pixels()], split = new float[slices][vol.pixels()];
                fdk.clear(slices);
                assertEquals(List.of(FdkVariant.TENSOR_SPLIT), fdk.launchAll(FdkVariant.TENSOR_SPLIT, k0, slices, b[0], b[1]));
                fdk.addInto(tensor);
                fdk.clear(slices);
                assertEquals(List.of(FdkVariant.HYBRID), fdk.launchAll(FdkVariant.HYBRID, k0, slices, b[0], b[1]));
                fdk.addInto(split);
                for (int k = 0; k < slices; k++)
                    assertArrayEquals(split[k], tensor[k], "slice " + (k0 + k) + " of slab " + k0 + ".." + (slab[1] - 1));
                double e = compare(fdk, g, vol, k0, slab[1], 17 + k0);
                assertTrue(e <= CudaFdk.TEXTURE_TOLERANCE, "tensor copies, slab " + k0 + ": " + e);
                assertTrue(fdk.description().contains(FdkVariant.TENSOR_SPLIT.name()), fdk.description());
            }
        }
    }

    /**
     * 700 projections: two chunks of 350 in constant memory, each back-projected by the texture mode's column kernel in
     * one launch (its blocks hold the views of every projection of the chunk), within the mode's tolerance.
     */
    @Test
    void textureModeLaunchesOfAWholeChunk() {
        ConeGeometry g = scan(128, 97, 700);
        ConeVolume vol = new ConeVolume(45, 40, 0.9);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 16, "", CudaFdk.Mode.TEXTURE)) {
            for (int[] slab : new int[][]{{0, 13}, {20, 36}}) {
                double e = compare(fdk, g, vol, slab[0], slab[1], 81 + slab[0]);
                assertTrue(e <= CudaFdk.TEXTURE_TOLERANCE, "hybrid, 700 projections: " + e);
                assertEquals(List.of(new FdkMatrices.Range(0, 350), new FdkMatrices.Range(350, 350)), fdk.lastLaunches());
            }
        }
    }

    /**
     * The texture mode holds the band in half precision times a power of two: bands of values around 1e-7 (below half's
     * smallest normal number, 6e-5) and 1e5 (beyond its largest, 65504) come out as accurate as values around 1.
     */
    @Test
    void textureModeScalesTinyAndHugeBands() {
        ConeGeometry g = scan(128, 97, 40);
        ConeVolume vol = new ConeVolume(45, 16, 0.9);
        int[] b = SlabPlanner.rows(g, vol, 0, 16);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 16, "", CudaFdk.Mode.TEXTURE)) {
            for (double magnitude : new double[]{1e-7, 1, 1e5}) {
                float[][] q = band(g, b[1], 5);
                for (float[] p : q) for (int i = 0; i < p.length; i++) p[i] *= (float) magnitude;
                float[][] got = new float[16][vol.pixels()], want = new float[16][vol.pixels()];
                fdk.backproject(q, b[0], b[1], 0, got);
                new FdkBackprojector(g, vol).backproject(q, b[0], b[1], 0, want);
                double e = relError(got, want, new float[16][vol.pixels()]);
                System.out.printf(Locale.ROOT, "texture mode, band values of %.0e: rel. error %.2e%n", magnitude, e);
                assertTrue(e <= CudaFdk.TEXTURE_TOLERANCE, magnitude + ": " + e);
            }
        }
    }

    @Test
    void textureModeWithGeneralMatrices() {
        ConeGeometry g = tilted(scan(128, 97, 30));
        ConeVolume vol = new ConeVolume(40, 20, 0.9);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 20, "", CudaFdk.Mode.TEXTURE)) {
            assertEquals(FdkVariant.GENERAL_TEXTURE, fdk.preferred());
            double e = compare(fdk, g, vol, 0, 20, 31);
            assertTrue(e <= CudaFdk.TEXTURE_TOLERANCE, "general texture kernel: " + e);
        }
    }

    /**
     * For z-independent u and w the tiles are sized from the slab's end chunks alone, a row taller: never smaller than
     * the largest footprint of every block, and at most a row of the widest tile larger. Slabs across the central plane,
     * to one side of it, of one chunk and of two; a magnified RabbitCT-like geometry and the small test scan.
     */
    @Test
    void tilesSizedFromTheEndChunksHoldEveryBlock() {
        ConeGeometry rabbit = ConeGeometry.builder().dso(785).dsd(1200).pixel(0.308, 0.308).centre(623.5, 479.5).detector(1248, 960)
                .anglesRange(360, 124).build();
        for (ConeGeometry g : List.of(asMatrices(rabbit), scan(128, 97, 60))) {
            ConeVolume vol = g.cols() > 1000 ? new ConeVolume(256, 256, 1.0) : new ConeVolume(45, 40, 0.9);
            try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), vol.nz(), "")) {
                int nz = vol.nz();
                for (int[] slab : new int[][]{{0, nz}, {0, 8}, {3, 13}, {nz / 2 - 5, 17}, {nz - 11, 11}}) {
                    FdkKernels.Footprint all = fdk.footprint(FdkVariant.COLUMNS, slab[0], slab[1], false);
                    FdkKernels.Footprint ends = fdk.footprint(FdkVariant.COLUMNS, slab[0], slab[1], true);
                    String what = g.cols() + " columns, slices " + slab[0] + "+" + slab[1] + ": " + all + " / " + ends;
                    assertTrue(all.complete() && ends.complete(), what);
                    assertTrue(ends.pixels() >= all.pixels(), what);
                    assertTrue(ends.pixels() <= all.pixels() * 1.25, what);
                }
            }
        }
    }

    /** Slices 3..16 with kernel v (a texture-mode kernel without tiles) against the Java reference. */
    private static double withKernel(CudaFdk fdk, ConeGeometry g, ConeVolume vol, FdkVariant v) {
        int k0 = 3, k1 = 17;
        int[] b = SlabPlanner.rows(g, vol, k0, k1);
        float[][] q = band(g, b[1], 8);
        float[][] got = start(vol, k1 - k0, 9), want = start(vol, k1 - k0, 9), initial = start(vol, k1 - k0, 9);
        fdk.upload(q, b[0], b[1]);
        fdk.clear(k1 - k0);
        assertEquals(List.of(v), fdk.launchAll(v, k0, k1 - k0, b[0], b[1]));
        fdk.addInto(got);
        new FdkBackprojector(g, vol).backproject(q, b[0], b[1], k0, want);
        double e = relError(got, want, initial);
        System.out.printf(Locale.ROOT, "%s: rel. error %.2e%n", v.name(), e);
        return e;
    }

    /** Voxels of 15 detector pixels: a block's footprint exceeds shared memory, and the naive kernel takes over. */
    @Test
    void footprintsTooLargeForSharedMemoryFallBackToTheNaiveKernel() {
        ConeGeometry g = ConeGeometry.builder().dso(200).dsd(400).pixel(0.1, 0.1).centre(299.5, 249.5).detector(600, 500)
                .anglesRange(360, 24).build();
        ConeVolume vol = new ConeVolume(64, 10, 0.75);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 10, "")) {
            assertTrue(compare(fdk, g, vol, 0, 10, 41) <= EXACT);
            assertTrue(fdk.description().contains(FdkVariant.NAIVE.name()), fdk.description());
        }
    }

    @Test
    void aSlabThatSeesNoDetectorRowAddsNothing() {
        ConeGeometry g = scan(128, 97, 20);
        ConeVolume vol = new ConeVolume(40, 20, 0.9);
        float[][] out = start(vol, 4, 1), before = start(vol, 4, 1);
        try (CudaFdk fdk = new CudaFdk(g, vol, g.rows(), 4, "")) {
            fdk.backproject(new float[g.numProjections()][0], 0, 0, 3, out);
        }
        for (int k = 0; k < out.length; k++) assertArrayEquals(before[k], out[k]);
    }
}
