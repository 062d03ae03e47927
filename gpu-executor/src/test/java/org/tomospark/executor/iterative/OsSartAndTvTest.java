package org.tomospark.executor.iterative;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OS-SART against SIRT and the exact solution, TV against the least-squares solution and its own optimality, and the
 * stop rules: each against what it should have found, computed another way.
 */
class OsSartAndTvTest {
    static final int N = SolversTest.N, K = SolversTest.K;
    static final ScanGeometry SCAN = SolversTest.SCAN;
    static final SliceGeometry SLICE = SolversTest.SLICE;

    @Test
    void oneSubsetIsSirtBitForBit() {
        float[] b = SolversTest.data(new JosephOracle(SCAN, SLICE), 3);
        JosephProjector a = new JosephProjector(SCAN, SLICE, K);
        float[] sirt = new float[N * N * K], os = new float[N * N * K];
        new Sirt(true).solve(a, new Measurements(b, null), sirt, StopRule.after(25));
        new OsSart(1, 1.0).solve(a, new Measurements(b, null), os, StopRule.after(25));
        assertArrayEquals(sirt, os);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void subsetsReachTheExactSolutionOfConsistentData(int subsets) {
        JosephOracle oracle = new JosephOracle(SCAN, SLICE);
        Random rnd = new Random(subsets);
        double[] truth = new double[N * N];
        for (int i = 0; i < truth.length; i++) truth[i] = 0.2 + rnd.nextDouble();
        double[] ax = oracle.forward(truth);
        float[] b = new float[ax.length];
        for (int i = 0; i < b.length; i++) b[i] = (float) ax[i];
        float[] x = new float[N * N];
        Convergence c = new OsSart(subsets, 1.0).solve(new JosephProjector(SCAN, SLICE, 1), new Measurements(b, null), x,
                StopRule.after(20000));
        assertTrue(relativeDistance(x, truth) < 1e-3, "relative distance to the phantom " + relativeDistance(x, truth));
        double[] r = c.relative();
        assertTrue(r[r.length - 1] < 1e-4 * r[0], "the residual vanishes: " + r[r.length - 1] + " after " + r[0]);
    }

    @Test
    void tvWithoutWeightReachesTheExactSolutionOfConsistentData() {
        // without a weight, TV is non-negative least squares: on consistent data of a positive image, that image
        JosephOracle oracle = new JosephOracle(SCAN, SLICE);
        Random rnd = new Random(12);
        int rays = SCAN.numProjections() * SCAN.detectorWidth();
        float[] b = new float[rays * K];
        double[][] truth = new double[K][N * N];
        for (int s = 0; s < K; s++) {
            for (int i = 0; i < N * N; i++) truth[s][i] = 0.2 + rnd.nextDouble() + s;
            double[] ax = oracle.forward(truth[s]);
            for (int r = 0; r < rays; r++) b[r * K + s] = (float) ax[r];
        }
        float[] x = new float[N * N * K];
        new TvPrimalDual(TvWeight.of(0)).solve(new JosephProjector(SCAN, SLICE, K), new Measurements(b, null), x, StopRule.after(20000));
        for (int s = 0; s < K; s++) {
            float[] mine = JosephProjectorTest.sliceF(x, s, K);
            assertTrue(relativeDistance(mine, truth[s]) < 1e-3, "slice " + s + ": " + relativeDistance(mine, truth[s]));
        }
    }

    @Test
    void tvFindsTheMinimumOfItsObjective() {
        JosephOracle oracle = new JosephOracle(SCAN, SLICE);
        float[] b = SolversTest.data(oracle, 5);
        JosephProjector a = new JosephProjector(SCAN, SLICE, K);
        double lambda = 2.0;
        float[] x = new float[N * N * K];
        new TvPrimalDual(TvWeight.of(lambda)).solve(a, new Measurements(b, null), x, StopRule.after(20000));
        double best = objective(a, b, x, lambda);
        Random rnd = new Random(1);
        for (int trial = 0; trial < 200; trial++) {
            float[] y = x.clone();
            double eps = trial < 100 ? 1e-2 : 1e-3;
            for (int i = 0; i < y.length; i++) y[i] = (float) Math.max(0, y[i] + eps * rnd.nextGaussian());
            assertTrue(objective(a, b, y, lambda) >= best - 1e-6 * Math.abs(best), "a perturbation lowers the objective: "
                    + objective(a, b, y, lambda) + " < " + best);
        }
        float[] sirt = new float[N * N * K];
        new Sirt(true).solve(a, new Measurements(b, null), sirt, StopRule.after(2000));
        assertTrue(objective(a, b, sirt, lambda) > best, "SIRT's least-squares image pays for its variation");
        double[] tvX = TotalVariation.of(x, N, N, K), tvSirt = TotalVariation.of(sirt, N, N, K);
        for (int s = 0; s < K; s++) assertTrue(tvX[s] < tvSirt[s], "slice " + s + ": TV " + tvX[s] + " against SIRT's " + tvSirt[s]);
    }

    /** ½‖A·x − p‖² + λ·TV(x), summed over the slices. */
    static double objective(JosephProjector a, float[] p, float[] x, double lambda) {
        float[] ax = new float[p.length];
        a.forward(x, ax, a.allAngles());
        double d = 0;
        for (int i = 0; i < p.length; i++) d += Math.pow((double) ax[i] - p[i], 2);
        double tv = 0;
        for (double t : TotalVariation.of(x, N, N, K)) tv += t;
        return 0.5 * d + lambda * tv;
    }

    @Test
    void theDiscrepancyRuleStopsAtTheFirstIterationWithinTheNoise() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(24).anglesRange(180, 30).build();
        SliceGeometry slice = SliceGeometry.square(24);
        Poisson data = Poisson.discs(scan, slice, 1, 200, 7);
        JosephProjector a = new JosephProjector(scan, slice, 1);
        Measurements m = data.measurements();
        double noise = expectedNoise(m);
        assertEquals(noise, m.noiseSquares(1)[0], 1e-9 * noise);
        Convergence all = new Sirt(true).solve(a, m, new float[slice.pixels()], StopRule.after(200));
        int first = -1;
        for (int i = 0; i < all.iterations() && first < 0; i++) if (all.residualSquares()[i] <= noise) first = i + 1;
        assertTrue(first > 1, "the test needs an iteration that reaches the noise: " + all);
        Convergence stopped = new Sirt(true).solve(a, m, new float[slice.pixels()],
                new StopRule(200, StopRule.Rule.DISCREPANCY, 0, 1));
        assertEquals(first, stopped.iterations());
        assertEquals(1, stopped.stops()[StopReason.DISCREPANCY.ordinal()]);
        assertEquals(noise, stopped.noiseSquares(), 1e-9 * noise);
        assertTrue(stopped.discrepancy() <= 1, "residual over noise " + stopped.discrepancy());
    }

    @Test
    void theChangeRuleStopsOnceTheResidualSettlesAndALimitIsSaidSo() {
        float[] b = JosephProjectorTest.sliceF(SolversTest.data(new JosephOracle(SCAN, SLICE), 9), 1, K);
        JosephProjector a = new JosephProjector(SCAN, SLICE, 1);
        Convergence all = new OsSart(4, 1.0).solve(a, new Measurements(b, null), new float[N * N], StopRule.after(100));
        double tol = 1e-3;
        int first = -1;
        double[] r = all.residualSquares();
        for (int i = 1; i < r.length && first < 0; i++)
            if (Math.abs(Math.sqrt(r[i - 1]) - Math.sqrt(r[i])) / Math.sqrt(r[i - 1]) <= tol) first = i + 1;
        assertTrue(first > 2, "the test needs the residual to settle: " + all);
        Convergence stopped = new OsSart(4, 1.0).solve(a, new Measurements(b, null), new float[N * N],
                new StopRule(100, StopRule.Rule.CHANGE, tol, 1));
        assertEquals(first, stopped.iterations());
        assertEquals(1, stopped.stops()[StopReason.CHANGE.ordinal()]);
        Convergence capped = new OsSart(4, 1.0).solve(a, new Measurements(b, null), new float[N * N],
                new StopRule(first - 1, StopRule.Rule.CHANGE, tol, 1));
        assertEquals(first - 1, capped.iterations());
        assertEquals(1, capped.stops()[StopReason.LIMIT.ordinal()], "stopped by the limit, not by the rule: " + capped);
    }

    /**
     * Slices stop one by one and keep the image they had then: a pass of k slices gives each slice, bit for bit, what it
     * gets alone, whichever rule stops it (so the engines, which group slices differently, write the same slices).
     */
    @ParameterizedTest
    @ValueSource(strings = {"os-sart", "tv", "sirt", "cgls"})
    void aSliceStopsAsItWouldAlone(String method) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(24).anglesRange(180, 32).build();
        SliceGeometry slice = SliceGeometry.square(24);
        // three slices of different doses, so that they stop at different iterations
        double[] doses = {100, 1000, 10000};
        int k = doses.length, rays = scan.numProjections() * scan.detectorWidth();
        float[] p = new float[rays * k], blank = new float[scan.detectorWidth() * k];
        for (int s = 0; s < k; s++) {
            Measurements one = Poisson.discs(scan, slice, 1, doses[s], 4 + s).measurements();
            for (int i = 0; i < rays; i++) p[i * k + s] = one.lineIntegrals()[i];
            for (int u = 0; u < scan.detectorWidth(); u++) blank[u * k + s] = one.blank()[u];
        }
        Measurements data = new Measurements(p, blank);
        Algorithm algorithm = Algorithm.parse(method);
        IterativeParams params = new IterativeParams(algorithm, 0, 0, Double.NaN);
        StopRule stop = params.stopRule(true);
        Solver solver = params.solver(scan.numProjections());
        float[] together = new float[slice.pixels() * k];
        Convergence all = solver.solve(new JosephProjector(scan, slice, k), data, together, stop);
        Set<Integer> iterations = new HashSet<>();
        for (int s = 0; s < k; s++) {
            float[] alone = new float[slice.pixels()];
            Measurements m = new Measurements(JosephProjectorTest.sliceF(p, s, k), JosephProjectorTest.sliceF(blank, s, k));
            Convergence one = solver.solve(new JosephProjector(scan, slice, 1), m, alone, stop);
            iterations.add(one.iterations());
            assertArrayEquals(alone, JosephProjectorTest.sliceF(together, s, k), method + ": slice " + s + " alone and in a pass");
        }
        assertTrue(iterations.size() > 1 || method.equals("cgls"), method + ": the slices stop at different iterations " + iterations
                + ", so the test sees one keep its image while the others go on");
        assertEquals(k, Arrays.stream(all.stops()).sum(), "every slice's stop is counted: " + all);
    }

    @Test
    void discrepancyWithoutFlatsIsRefused() {
        float[] b = SolversTest.data(new JosephOracle(SCAN, SLICE), 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Sirt(true).solve(
                new JosephProjector(SCAN, SLICE, K), new Measurements(b, null), new float[N * N * K],
                new StopRule(10, StopRule.Rule.DISCREPANCY, 0, 1)));
        assertTrue(e.getMessage().contains("iterative.stop=discrepancy"), e.getMessage());
    }

    @Test
    void theAutomaticRuleFollowsWhatTheUserGave() {
        IterativeParams none = new IterativeParams(Algorithm.OS_SART, 0, 0, Double.NaN);
        assertEquals(StopRule.Rule.DISCREPANCY, none.stopRule(true).rule());
        assertEquals(StopRule.Rule.CHANGE, none.stopRule(false).rule());
        assertEquals(IterativeParams.DEFAULT_CHANGE, none.stopRule(false).tolerance());
        assertEquals(IterativeParams.AUTOMATIC_LIMIT, none.stopRule(false).iterations());
        assertEquals(StopRule.Rule.ITERATIONS, new IterativeParams(Algorithm.SIRT, 30, 0, Double.NaN).stopRule(true).rule());
        assertEquals(StopRule.Rule.RESIDUAL, new IterativeParams(Algorithm.SIRT, 0, 0, 0.02).stopRule(true).rule());
        assertEquals(StopRule.Rule.CHANGE, new IterativeParams(Algorithm.TV, 0, 0, Double.NaN).stopRule(true).rule());
        assertEquals(8, IterativeParams.automaticSubsets(Algorithm.OS_SART, 60));
        assertEquals(16, IterativeParams.automaticSubsets(Algorithm.OS_SART, 2048));
        assertEquals(19, IterativeParams.automaticSubsets(Algorithm.OS_SART, 360));
        assertEquals(1, IterativeParams.automaticSubsets(Algorithm.OS_SART, 7));
        assertEquals(1, IterativeParams.automaticSubsets(Algorithm.MLTR, 2048));
    }

    @Test
    void badSettingsNameTheirKey() {
        assertKey("iterative.relaxation", () -> new IterativeParams(Algorithm.OS_SART, 0, 0, Double.NaN, null, 2.5, null, false));
        assertKey("iterative.tvWeight", () -> TvWeight.of(-1));
        assertKey("iterative.tolerance", () -> new IterativeParams(Algorithm.SIRT, 0, 0, 1.5));
        assertKey("iterative.subsets", () -> new IterativeParams(Algorithm.TV, 0, 4, Double.NaN));
        assertKey("iterative.stop=residual", () -> new IterativeParams(Algorithm.SIRT, 0, 0, Double.NaN, StopRule.Rule.RESIDUAL, 1,
                null, false));
        assertKey("iterative.stop=discrepancy", () -> new IterativeParams(Algorithm.TV, 0, 0, Double.NaN,
                StopRule.Rule.DISCREPANCY, 1, null, false));
    }

    @Test
    void theDataScaledWeightFollowsTheNoise() {
        // Gaussian noise of σ = 0.05 on a smooth sinogram: the sinogram's own estimate finds σ within a few per cent
        int projections = 90, width = 200;
        Random rnd = new Random(3);
        float[] p = new float[projections * width];
        for (int a = 0; a < projections; a++)
            for (int u = 0; u < width; u++) p[a * width + u] = (float) (Math.sin(u / 30.0 + a / 10.0) + 0.05 * rnd.nextGaussian());
        assertEquals(0.05, TvWeight.noiseSigma(p, null, projections, width, 1, 0), 0.003);
        // with flats: √(mean 1/y), y = blank·e^−p
        float[] blank = new float[width];
        Arrays.fill(blank, 400f);
        double mean = 0;
        for (float v : p) mean += 1 / Math.max(1, 400 * Math.exp(-v));
        assertEquals(Math.sqrt(mean / p.length), TvWeight.noiseSigma(p, blank, projections, width, 1, 0), 1e-9);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(width).anglesRange(180, projections).build();
        assertEquals(2 * Math.sqrt(mean / p.length) * Math.sqrt(projections), new TvWeight(2, true).lambda(blank, p, scan), 1e-9);
        assertEquals(0.7, TvWeight.of(0.7).lambda(blank, p, scan), 0);
    }

    private static void assertKey(String key, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }

    private static double expectedNoise(Measurements m) {
        float[] p = m.lineIntegrals(), blank = m.blank();
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            float b = blank[i % blank.length];
            if (b > 0) s += 1 / Math.max(1, b * Math.exp(-p[i]));
        }
        return s;
    }

    static double relativeDistance(float[] x, double[] truth) {
        double e = 0, n = 0;
        for (int i = 0; i < truth.length; i++) {
            e += Math.pow(x[i] - truth[i], 2);
            n += truth[i] * truth[i];
        }
        return Math.sqrt(e / n);
    }
}
