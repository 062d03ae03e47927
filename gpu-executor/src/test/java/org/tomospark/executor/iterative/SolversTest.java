package org.tomospark.executor.iterative;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The solvers against a dense least-squares reference, MLTR's likelihood, and the stopping rules. */
class SolversTest {
    static final int N = 8;
    static final ScanGeometry SCAN = ScanGeometry.builder().detectorWidth(13).anglesRange(180, 17).centerOfRotation(6.3).build();
    static final SliceGeometry SLICE = SliceGeometry.square(N);
    static final int K = 3;

    /** Three different slices with inconsistent data (noise on exact projections), interleaved. */
    static float[] data(JosephOracle oracle, long seed) {
        Random rnd = new Random(seed);
        int rays = SCAN.numProjections() * SCAN.detectorWidth();
        float[] b = new float[rays * K];
        for (int s = 0; s < K; s++) {
            double[] x = new double[N * N];
            for (int i = 0; i < x.length; i++) x[i] = 0.2 + rnd.nextDouble() + s;
            double[] ax = oracle.forward(x);
            for (int r = 0; r < rays; r++) b[r * K + s] = (float) (ax[r] * (1 + 0.05 * rnd.nextGaussian()));
        }
        return b;
    }

    @Test
    void cglsReachesTheLeastSquaresSolution() {
        checkLeastSquares(new Cgls(), StopRule.after(200), false);
    }

    @Test
    void unconstrainedSirtReachesTheRowWeightedLeastSquaresSolution() {
        checkLeastSquares(new Sirt(false), StopRule.after(20000), true);
    }

    private static void checkLeastSquares(Solver solver, StopRule stop, boolean rowWeighted) {
        JosephOracle oracle = new JosephOracle(SCAN, SLICE);
        int rays = SCAN.numProjections() * SCAN.detectorWidth();
        DenseLeastSquares dense = new DenseLeastSquares(oracle, rays, N * N);
        float[] b = data(oracle, 11);
        float[] x = new float[N * N * K];
        Convergence conv = solver.solve(new JosephProjector(SCAN, SLICE, K), new Measurements(b, null), x, stop);
        for (int s = 0; s < K; s++) {
            double[] expected = dense.solve(JosephProjectorTest.slice(b, s, K), rowWeighted ? dense.reciprocalRowSums() : null);
            double err = 0, norm = 0;
            for (int i = 0; i < expected.length; i++) {
                err += Math.pow(x[i * K + s] - expected[i], 2);
                norm += expected[i] * expected[i];
            }
            assertTrue(Math.sqrt(err / norm) < 1e-3, "slice " + s + ": relative distance to the least-squares solution "
                    + Math.sqrt(err / norm));
        }
        double[] r = conv.relative();
        assertTrue(r[r.length - 1] < r[0], "the residual falls: " + conv);
    }

    @Test
    void mltrWithOneSubsetIncreasesThePoissonLikelihoodEveryIteration() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(24).anglesRange(180, 30).build();
        SliceGeometry slice = SliceGeometry.square(24);
        int k = 2;
        Poisson data = Poisson.discs(scan, slice, k, 300, 5);
        JosephProjector a = new JosephProjector(scan, slice, k);
        float[] x = new float[slice.pixels() * k];
        double previous = data.logLikelihood(a, x);
        for (int it = 0; it < 40; it++) {
            new Mltr(1).solve(a, data.measurements(), x, StopRule.after(1));
            double l = data.logLikelihood(a, x);
            assertTrue(l > previous, "iteration " + (it + 1) + ": log-likelihood " + l + " after " + previous);
            previous = l;
        }
        for (float v : x) assertTrue(v >= 0, "attenuation stays non-negative");
    }

    @Test
    void orderedSubsetsReachTheSameLikelihoodFasterThanOneSubset() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(24).anglesRange(180, 32).build();
        SliceGeometry slice = SliceGeometry.square(24);
        Poisson data = Poisson.discs(scan, slice, 1, 1000, 9);
        JosephProjector a = new JosephProjector(scan, slice, 1);
        float[] one = new float[slice.pixels()], eight = new float[slice.pixels()];
        new Mltr(1).solve(a, data.measurements(), one, StopRule.after(5));
        new Mltr(8).solve(a, data.measurements(), eight, StopRule.after(5));
        assertTrue(data.logLikelihood(a, eight) > data.logLikelihood(a, one),
                "8 subsets " + data.logLikelihood(a, eight) + " against 1 subset " + data.logLikelihood(a, one));
    }

    @Test
    void aRelativeResidualStopsEarly() {
        JosephOracle oracle = new JosephOracle(SCAN, SLICE);
        float[] b = JosephProjectorTest.sliceF(data(oracle, 4), 0, K);
        JosephProjector a = new JosephProjector(SCAN, SLICE, 1);
        Convergence all = new Cgls().solve(a, new Measurements(b, null), new float[N * N], StopRule.after(30));
        double tol = all.relative(9);
        Convergence stopped = new Cgls().solve(a, new Measurements(b, null), new float[N * N], StopRule.residual(30, tol));
        assertEquals(10, stopped.iterations(), stopped.toString());
        assertEquals(all.relative(9), stopped.relative(9), 0);
        assertEquals(30, all.iterations());
        assertEquals(1, stopped.stops()[StopReason.RESIDUAL.ordinal()]);
    }

    @Test
    void mltrWithoutFlatsIsRefused() {
        JosephProjector a = new JosephProjector(SCAN, SLICE, 1);
        float[] b = new float[SCAN.numProjections() * SCAN.detectorWidth()];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Mltr(2).solve(a, new Measurements(b, null), new float[N * N], StopRule.after(3)));
        assertTrue(e.getMessage().contains("flats"), e.getMessage());
    }
}
