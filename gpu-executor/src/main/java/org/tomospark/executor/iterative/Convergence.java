package org.tomospark.executor.iterative;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The data residual after each iteration: {@code residualSquares[i]} is ‖A·x − p‖² after iteration i+1, summed over the
 * slices it covers, and {@code dataSquares} is ‖p‖² (p the −log sinograms). Squares are kept so that passes and slice
 * groups add up: the relative residual of a whole run is √(Σ residual² / Σ data²).
 */
public record Convergence(double[] residualSquares, double dataSquares) implements Serializable {
    public Convergence {
        residualSquares = residualSquares.clone();
    }

    public static Convergence none() {
        return new Convergence(new double[0], 0);
    }

    public int iterations() {
        return residualSquares.length;
    }

    @Override
    public double[] residualSquares() {
        return residualSquares.clone();
    }

    /** ‖A·x − p‖ / ‖p‖ after iteration i+1 (0 where there are no data). */
    public double relative(int i) {
        return dataSquares > 0 ? Math.sqrt(residualSquares[i] / dataSquares) : 0;
    }

    /** Every relative residual, one per iteration. */
    public double[] relative() {
        double[] r = new double[iterations()];
        for (int i = 0; i < r.length; i++) r[i] = relative(i);
        return r;
    }

    /** This one after {@code other}: the residuals of two sets of slices added. A pass that stopped early keeps its last. */
    public Convergence plus(Convergence other) {
        int n = Math.max(iterations(), other.iterations());
        double[] r = new double[n];
        for (int i = 0; i < n; i++) r[i] = at(i) + other.at(i);
        return new Convergence(r, dataSquares + other.dataSquares);
    }

    private double at(int i) {
        if (residualSquares.length == 0) return 0;
        return residualSquares[Math.min(i, residualSquares.length - 1)];
    }

    Convergence with(double residualSquare) {
        double[] r = Arrays.copyOf(residualSquares, residualSquares.length + 1);
        r[r.length - 1] = residualSquare;
        return new Convergence(r, dataSquares);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Convergence c && Arrays.equals(residualSquares, c.residualSquares) && dataSquares == c.dataSquares;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(residualSquares) * 31 + Double.hashCode(dataSquares);
    }

    @Override
    public String toString() {
        return "Convergence" + Arrays.toString(relative());
    }
}
