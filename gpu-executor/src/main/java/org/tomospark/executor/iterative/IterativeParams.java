package org.tomospark.executor.iterative;

import java.io.Serializable;

/**
 * The reconstruction method and, for the iterative ones, when to stop and how many ordered subsets MLTR uses.
 *
 * @param algorithm  fbp (the default), sirt, cgls or mltr
 * @param iterations the most iterations (each one forward and one back-projection of every angle)
 * @param subsets    MLTR's ordered subsets (1 for the others)
 * @param tolerance  stop once the relative residual ‖A·x − p‖/‖p‖ of a pass is at most this; 0: run every iteration
 */
public record IterativeParams(Algorithm algorithm, int iterations, int subsets, double tolerance) implements Serializable {
    public static final IterativeParams FBP = new IterativeParams(Algorithm.FBP, 50, 1, 0);

    public IterativeParams {
        if (algorithm == null) algorithm = Algorithm.FBP;
        if (iterations < 1)
            throw new IllegalArgumentException("config key iterative.iterations must be >= 1, got " + iterations);
        if (subsets < 1) throw new IllegalArgumentException("config key iterative.subsets must be >= 1, got " + subsets);
        if (subsets > 1 && algorithm != Algorithm.MLTR)
            throw new IllegalArgumentException("config key iterative.subsets (" + subsets + ") applies to algorithm=mltr only, "
                    + "not algorithm=" + algorithm.id());
        if (!(tolerance >= 0 && tolerance < 1))
            throw new IllegalArgumentException("config key iterative.tolerance must be in [0, 1), got " + tolerance);
    }

    public boolean iterative() {
        return algorithm.iterative();
    }

    /**
     * Checks the subsets against the scan's projections: each subset must hold at least {@link Subsets#MIN_PER_SUBSET}
     * of them, or it sees too little of the object to update every pixel sensibly.
     */
    public void checkProjections(int projections) {
        if (subsets > 1 && projections / subsets < Subsets.MIN_PER_SUBSET)
            throw new IllegalArgumentException("config key iterative.subsets=" + subsets + " does not divide the " + projections
                    + " projections sensibly: each subset needs at least " + Subsets.MIN_PER_SUBSET + " projections (at most "
                    + Math.max(1, projections / Subsets.MIN_PER_SUBSET) + " subsets)");
    }

    public StopRule stopRule() {
        return new StopRule(iterations, tolerance);
    }

    /** The solver of an iterative algorithm. */
    public Solver solver() {
        return switch (algorithm) {
            case SIRT -> new Sirt(true);
            case CGLS -> new Cgls();
            case MLTR -> new Mltr(subsets);
            case FBP -> throw new IllegalStateException("fbp is not iterative");
        };
    }
}
