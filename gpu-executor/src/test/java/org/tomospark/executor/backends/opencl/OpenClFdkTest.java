package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ProjectionMatrix;
import org.tomospark.executor.util.ImageErrors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The OpenCL FDK back-projection (kernels/fdk.cl) on the first OpenCL device (PoCL's CPU device in CI) against the
 * Java reference {@link FdkBackprojector}: float32 within 1e-5 relative L2 with the device's default precision, on
 * the circular trajectory (the z-column kernel) and on a tilted, wobbling one given by a matrix per projection (the
 * general kernel). Filtered projections are seeded zero-mean white noise, the harshest case for coordinate rounding.
 * Awkward sizes: 37 voxel columns (not a multiple of the 16 × 8 work-group), 11- and 5-slice slabs, slices per
 * work-item that leave a partial block, a slab whose band reaches the detector's last row, bands that do not start at
 * row 0, projections split over several launches.
 */
class OpenClFdkTest {
    static final int COLS = 60, ROWS = 44, NPROJ = 40;
    static final ConeVolume VOLUME = new ConeVolume(37, 11, 0.7);
    static final double TOL = 1e-5;

    @BeforeAll
    static void needOpenCl() {
        assumeTrue(ClRuntime.unavailableReason() == null, () -> "no OpenCL here: " + ClRuntime.unavailableReason());
    }

    /**
     * 60 × 44 pixels of 0.8 mm at DSD 400, DSO 200 mm; the central ray lands above the detector's middle row, so that
     * the top slices' rays leave the detector (their band ends at its last row) and the bottom slices' band starts well
     * below row 0. The volume's outer columns leave the detector's sides at some angles.
     */
    static ConeGeometry circular() {
        return ConeGeometry.builder().dso(200).dsd(400).pixel(0.8, 0.8).centre(29.8, 33.4).detector(COLS, ROWS)
                .anglesRange(360, NPROJ).build();
    }

    /**
     * The same scan with a rotation axis tilted 4° about x, a detector rolling up to ±2° in its plane and shifting up to
     * ±1.5 pixels along u: pinhole cameras K·[R | −R·S], so u and w change along z and only the general kernel applies.
     */
    static ConeGeometry tilted() {
        ConeGeometry g = circular();
        double tilt = Math.toRadians(4), ct = Math.cos(tilt), st = Math.sin(tilt);
        double[][] t = {{1, 0, 0}, {0, ct, -st}, {0, st, ct}};
        ProjectionMatrix[] m = new ProjectionMatrix[NPROJ];
        for (int p = 0; p < NPROJ; p++) {
            double a = g.angle(p), c = Math.cos(a), s = Math.sin(a);
            double roll = Math.toRadians(2 * Math.sin(3 * a)), cr = Math.cos(roll), sr = Math.sin(roll);
            double[] eu = {-s, c, 0}, ev = {0, 0, 1}, ray = {-c, -s, 0};
            double[][] r = {
                    mul(t, add(scale(cr, eu), scale(sr, ev))),
                    mul(t, add(scale(-sr, eu), scale(cr, ev))),
                    mul(t, ray)};
            double[] source = mul(t, new double[]{g.dso() * c, g.dso() * s, 0});
            double cu = g.cu() + 1.5 * Math.sin(2 * a);
            double[][] k = {{g.dsd() / g.du(), 0, cu}, {0, g.dsd() / g.dv(), g.cv()}, {0, 0, 1}};
            double[] e = new double[12];
            for (int row = 0; row < 3; row++) {
                for (int col = 0; col < 3; col++) for (int l = 0; l < 3; l++) e[row * 4 + col] += k[row][l] * r[l][col];
                for (int l = 0; l < 3; l++) e[row * 4 + 3] -= k[row][l] * dot(r[l], source);
            }
            m[p] = new ProjectionMatrix(e);
        }
        return g.withMatrices(m);
    }

    private static double[] mul(double[][] a, double[] v) {
        return new double[]{dot(a[0], v), dot(a[1], v), dot(a[2], v)};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double[] add(double[] a, double[] b) {
        return new double[]{a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }

    private static double[] scale(double f, double[] a) {
        return new double[]{f * a[0], f * a[1], f * a[2]};
    }

    /** Zero-mean white noise over the whole detector, one array per projection. */
    static float[][] noise(long seed) {
        Random r = new Random(seed);
        float[][] q = new float[NPROJ][COLS * ROWS];
        for (float[] p : q) for (int i = 0; i < p.length; i++) p[i] = r.nextFloat() - 0.5f;
        return q;
    }

    /** Detector rows [first, first + count) of every projection. */
    static float[][] band(float[][] q, int first, int count) {
        float[][] b = new float[q.length][count * COLS];
        for (int p = 0; p < q.length; p++) System.arraycopy(q[p], first * COLS, b[p], 0, count * COLS);
        return b;
    }

    static float[][] slab(int slices) {
        return new float[slices][VOLUME.pixels()];
    }

    /**
     * Slices [k0, k1) from the band SlabPlanner gives them, on the device and by the Java reference; returns the
     * relative L2 after asserting it within tol and the band's place.
     */
    static double compare(OpenClFdk fdk, ConeGeometry g, float[][] q, int k0, int k1, double tol) {
        int[] b = SlabPlanner.rows(g, VOLUME, k0, k1);
        float[][] band = band(q, b[0], b[1]);
        float[][] ref = slab(k1 - k0), got = slab(k1 - k0);
        new FdkBackprojector(g, VOLUME).backproject(band, b[0], b[1], k0, ref);
        fdk.backproject(band, b[0], b[1], k0, got);
        double err = ImageErrors.relL2(got, ref);
        System.out.printf("%s, slices [%d, %d) from rows [%d, %d): rel L2 %.3g%n", fdk.description(), k0, k1, b[0], b[0] + b[1], err);
        assertTrue(err <= tol, fdk.description() + ", slices [" + k0 + ", " + k1 + "): relative L2 " + err + " exceeds " + tol);
        double energy = 0;
        for (float[] s : ref) for (float v : s) energy += v * v;
        assertTrue(energy > 0, "the reference slab is empty");
        return err;
    }

    static OpenClFdk open(ConeGeometry g, OpenClFdk.Tuning t) {
        return new OpenClFdk(g, VOLUME, ROWS, VOLUME.nz(), "", t);
    }

    @Test
    void circularTrajectoryMatchesTheJavaReference() {
        ConeGeometry g = circular();
        float[][] q = noise(11);
        // the top slab's band reaches the detector's last row, the bottom slab's starts above row 0
        int[] top = SlabPlanner.rows(g, VOLUME, 6, 11), bottom = SlabPlanner.rows(g, VOLUME, 0, 5);
        assertEquals(ROWS, top[0] + top[1], "the top slab's band should end at the detector's edge");
        assertTrue(bottom[0] > 0, "the bottom slab's band should start below row 0");
        try (OpenClFdk fdk = open(g, OpenClFdk.Tuning.AUTO)) {
            assertTrue(fdk.description().startsWith("opencl fdk, fdk_columns"), fdk.description());
            compare(fdk, g, q, 0, 11, TOL);
            compare(fdk, g, q, 6, 11, TOL);
            compare(fdk, g, q, 0, 5, TOL);
            compare(fdk, g, q, 4, 7, TOL);
        }
    }

    @Test
    void perProjectionMatricesMatchTheJavaReference() {
        ConeGeometry g = tilted();
        float[][] q = noise(12);
        try (OpenClFdk fdk = open(g, OpenClFdk.Tuning.AUTO)) {
            assertTrue(fdk.description().startsWith("opencl fdk, fdk_general"), fdk.description());
            compare(fdk, g, q, 0, 11, TOL);
            compare(fdk, g, q, 6, 11, TOL);
            compare(fdk, g, q, 1, 4, TOL);
        }
    }

    /** The general kernel on the circular trajectory, where the reference takes its column path. */
    @Test
    void generalKernelOnTheCircularTrajectory() {
        ConeGeometry g = circular();
        try (OpenClFdk fdk = open(g, new OpenClFdk.Tuning(true, false, 0, 0))) {
            assertTrue(fdk.description().startsWith("opencl fdk, fdk_general"), fdk.description());
            compare(fdk, g, noise(13), 0, 11, TOL);
        }
    }

    /** 4 slices per work-item (blocks of 4, 4, 3 and of 4, 1) and 7 projections per launch (the last one 5). */
    @Test
    void partialBlocksAndSeveralLaunches() {
        float[][] q = noise(14);
        for (ConeGeometry g : new ConeGeometry[]{circular(), tilted()})
            try (OpenClFdk fdk = open(g, new OpenClFdk.Tuning(false, false, 4, 7))) {
                assertTrue(fdk.description().contains("4 slices per work-item, 7 projections per launch"), fdk.description());
                compare(fdk, g, q, 0, 11, TOL);
                compare(fdk, g, q, 6, 11, TOL);
            }
    }

    /**
     * The volume as one slab and as slabs starting at slices that are not multiples of a work-item's block: the same bits
     * (blocks are whole chunks of the volume), so that Spark's tasks, the direct engine and a resume over another range
     * agree. Both kernels, blocks of 4 and 8 slices.
     */
    @Test
    void everySlabPlanGivesTheSameBits() {
        float[][] q = noise(16);
        for (ConeGeometry g : new ConeGeometry[]{circular(), tilted()})
            for (OpenClFdk.Tuning t : new OpenClFdk.Tuning[]{new OpenClFdk.Tuning(false, false, 4, 7),
                    new OpenClFdk.Tuning(false, false, 0, 0)})
                try (OpenClFdk fdk = open(g, t)) {
                    float[][] once = slab(VOLUME.nz());
                    fdk.backproject(q, 0, ROWS, 0, once);
                    for (int[] plan : new int[][]{{0, 3, 5, 9, 11}, {0, 1, 6, 7, 11}}) {
                        for (int s = 0; s + 1 < plan.length; s++) {
                            int k0 = plan[s], k1 = plan[s + 1];
                            int[] b = SlabPlanner.rows(g, VOLUME, k0, k1);
                            float[][] got = slab(k1 - k0);
                            fdk.backproject(band(q, b[0], b[1]), b[0], b[1], k0, got);
                            for (int k = k0; k < k1; k++)
                                assertArrayEquals(once[k], got[k - k0], 0f, "slice " + k + " of slab " + k0 + ".." + (k1 - 1) + " ("
                                        + fdk.description() + ")");
                        }
                    }
                }
    }

    /**
     * Float column terms (what a device without cl_khr_fp64 runs): u and v of up to ~60 pixels rounded to float move
     * samples by a few 1e-6 pixel, which on white noise is ~5e-6 relative L2 here (it grows with the detector's size).
     */
    @Test
    void floatColumnTerms() {
        for (ConeGeometry g : new ConeGeometry[]{circular(), tilted()})
            try (OpenClFdk fdk = open(g, new OpenClFdk.Tuning(false, true, 0, 0))) {
                assertTrue(fdk.description().contains("float column terms"), fdk.description());
                compare(fdk, g, noise(15), 0, 11, 2e-5);
            }
    }

    /** Output is added to: twice over a non-zero slab is the slab plus twice the sum; a band wider than planned. */
    @Test
    void accumulatesIntoTheCallersSlices() {
        ConeGeometry g = circular();
        float[][] q = noise(16);
        int first = 3, count = ROWS - first; // more rows than slices [2, 9) need, not from row 0
        float[][] band = band(q, first, count);
        float[][] once = slab(7);
        new FdkBackprojector(g, VOLUME).backproject(band, first, count, 2, once);
        float[][] got = slab(7), expected = slab(7);
        for (int k = 0; k < 7; k++)
            for (int v = 0; v < VOLUME.pixels(); v++) {
                got[k][v] = 0.25f * k;
                expected[k][v] = 0.25f * k + 2 * once[k][v];
            }
        try (OpenClFdk fdk = open(g, OpenClFdk.Tuning.AUTO)) {
            fdk.backproject(band, first, count, 2, got);
            fdk.backproject(band, first, count, 2, got);
        }
        double err = ImageErrors.relL2(got, expected);
        System.out.printf("twice into a non-zero slab: rel L2 %.3g%n", err);
        assertTrue(err <= TOL, "relative L2 " + err);
    }

    @Test
    void refusesBadArgumentsAndUseAfterClose() {
        ConeGeometry g = circular();
        OpenClFdk fdk = new OpenClFdk(g, VOLUME, 20, 5, "");
        float[][] q = band(noise(17), 0, 20);
        assertThrows(IllegalArgumentException.class, () -> fdk.backproject(band(noise(17), 0, 21), 0, 21, 0, slab(5)));
        assertThrows(IllegalArgumentException.class, () -> fdk.backproject(q, 0, 20, 0, slab(6)));
        assertThrows(IllegalArgumentException.class, () -> fdk.backproject(q, 0, 20, 8, slab(5)));
        assertThrows(IllegalArgumentException.class, () -> fdk.backproject(q, 30, 20, 0, slab(5)));
        assertThrows(IllegalArgumentException.class, () -> fdk.backproject(new float[3][], 0, 20, 0, slab(5)));
        fdk.close();
        fdk.close(); // idempotent
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> fdk.backproject(q, 0, 20, 0, slab(5)));
        assertTrue(e.getMessage().contains("close"), e.getMessage());
    }

    /** A slab larger than the device's memory is refused before allocating, with the sizes and the device's limits. */
    @Test
    void refusesASlabBeyondTheDevicesMemory() {
        ClDeviceContext ctx = ClRuntime.context(ClRuntime.select(DeviceSelector.parse("")));
        int n = (int) Math.ceil(Math.sqrt(ctx.globalMem / 4.0)) + 1;
        ConeVolume huge = new ConeVolume(n, 1, 0.001);
        OpenClException e = assertThrows(OpenClException.class, () -> new OpenClFdk(circular(), huge, ROWS, 1, ""));
        assertTrue(e.getMessage().contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE") && e.getMessage().contains("bytes"), e.getMessage());
    }
}
