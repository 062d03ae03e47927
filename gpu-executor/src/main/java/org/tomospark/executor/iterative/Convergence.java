package org.tomospark.executor.iterative;

import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data residual after each iteration, and why the passes stopped: {@code residualSquares[i]} is ‖A·x − p‖² after
 * iteration i+1, summed over the slices it covers, {@code dataSquares} is ‖p‖² (p the −log sinograms),
 * {@code noiseSquares} the noise the data are expected to carry (Σ 1/y over the rays; 0 where not measured), and
 * {@code stops[r]} the number of slices that stopped for {@link StopReason} r (a slice that stops keeps its image and
 * its last residual while the others of its pass go on). Squares and counts are kept so that
 * passes and slice groups add up: the relative residual of a whole run is √(Σ residual² / Σ data²).
 */
public record Convergence(double[] residualSquares, double dataSquares, double noiseSquares, int[] stops) implements Serializable {
    public Convergence {
        residualSquares = residualSquares.clone();
        stops = stops == null ? new int[StopReason.values().length] : Arrays.copyOf(stops, StopReason.values().length);
    }

    public Convergence(double[] residualSquares, double dataSquares) {
        this(residualSquares, dataSquares, 0, null);
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

    @Override
    public int[] stops() {
        return stops.clone();
    }

    /** Slices that stopped for each reason, the reasons that stopped none left out. */
    public Map<String, Integer> stopCounts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (StopReason r : StopReason.values()) if (stops[r.ordinal()] > 0) m.put(r.id(), stops[r.ordinal()]);
        return m;
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

    /** The last residual over the expected noise, ‖A·x − p‖² / Σ 1/y (NaN where the noise was not measured). */
    public double discrepancy() {
        return noiseSquares > 0 && iterations() > 0 ? residualSquares[iterations() - 1] / noiseSquares : Double.NaN;
    }

    /** This one after {@code other}: the residuals of two sets of slices added. A pass that stopped early keeps its last. */
    public Convergence plus(Convergence other) {
        int n = Math.max(iterations(), other.iterations());
        double[] r = new double[n];
        for (int i = 0; i < n; i++) r[i] = at(i) + other.at(i);
        int[] s = new int[stops.length];
        for (int i = 0; i < s.length; i++) s[i] = stops[i] + other.stops[i];
        return new Convergence(r, dataSquares + other.dataSquares, noiseSquares + other.noiseSquares, s);
    }

    private double at(int i) {
        if (residualSquares.length == 0) return 0;
        return residualSquares[Math.min(i, residualSquares.length - 1)];
    }

    Convergence with(double residualSquare) {
        double[] r = Arrays.copyOf(residualSquares, residualSquares.length + 1);
        r[r.length - 1] = residualSquare;
        return new Convergence(r, dataSquares, noiseSquares, stops);
    }

    /** A pass whose slices stopped {@code stops[r]} times for reason r, its data expected to carry {@code noise}. */
    Convergence stopped(int[] stops, double noise) {
        return new Convergence(residualSquares, dataSquares, noise, stops);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Convergence c && Arrays.equals(residualSquares, c.residualSquares) && dataSquares == c.dataSquares
                && noiseSquares == c.noiseSquares && Arrays.equals(stops, c.stops);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(residualSquares) * 31 + Double.hashCode(dataSquares)) * 31 + Arrays.hashCode(stops);
    }

    @Override
    public String toString() {
        return "Convergence" + Arrays.toString(relative()) + " stopped " + stopCounts();
    }
}
