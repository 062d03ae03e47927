package org.tomospark.executor.iterative;

/**
 * When a solver stops: after {@code iterations}, or earlier once the relative residual of the pass falls to
 * {@code tolerance} or below (0 turns that test off).
 */
public record StopRule(int iterations, double tolerance) {
    public StopRule {
        if (iterations < 1) throw new IllegalArgumentException("iterations must be >= 1, got " + iterations);
        if (!(tolerance >= 0 && tolerance < 1)) throw new IllegalArgumentException("tolerance must be in [0, 1), got " + tolerance);
    }

    boolean reached(Convergence c) {
        return c.iterations() > 0 && c.relative(c.iterations() - 1) <= tolerance;
    }
}
