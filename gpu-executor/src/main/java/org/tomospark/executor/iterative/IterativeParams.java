package org.tomospark.executor.iterative;

import java.io.Serializable;

/**
 * The reconstruction method and, for the iterative ones, how they run and when they stop.
 *
 * @param algorithm  fbp (the default), sirt, os-sart, cgls, mltr or tv
 * @param iterations the most iterations (each one forward and one back-projection of every angle); 0: automatic, until
 *                   the stop rule holds, at most {@link #AUTOMATIC_LIMIT}
 * @param subsets    ordered subsets of os-sart and mltr; 0: automatic ({@link #automaticSubsets})
 * @param tolerance  the stop rule's threshold; NaN: the rule's default ({@link #DEFAULT_CHANGE} for change, and for the
 *                   residual change at which discrepancy gives up on reaching the noise)
 * @param stop       the stop rule; null: automatic ({@link #stopRule})
 * @param relaxation OS-SART's relaxation λ
 * @param tvWeight   TV's weight; null: {@link TvWeight#automatic()}
 * @param fbpStart   start from the filtered back-projection (scaled to fit the data) instead of zero
 */
public record IterativeParams(Algorithm algorithm, int iterations, int subsets, double tolerance, StopRule.Rule stop,
                              double relaxation, TvWeight tvWeight, boolean fbpStart) implements Serializable {
    public static final IterativeParams FBP = new IterativeParams(Algorithm.FBP, 0, 0, Double.NaN);
    public static final IterativeParams GRIDREC = new IterativeParams(Algorithm.GRIDREC, 0, 0, Double.NaN);
    /** The most iterations of an automatic stop. */
    public static final int AUTOMATIC_LIMIT = 1000;
    /** The relative change per iteration at which {@link StopRule.Rule#CHANGE} stops when no tolerance is given. */
    public static final double DEFAULT_CHANGE = 1e-3;
    /** How far above the expected noise the discrepancy rule stops: ‖A·x − p‖² ≤ this × Σ 1/y. */
    public static final double DISCREPANCY_FACTOR = 1.0;

    public IterativeParams {
        if (algorithm == null) algorithm = Algorithm.FBP;
        if (iterations < 0)
            throw new IllegalArgumentException("config key iterative.iterations must be >= 1 (or empty: automatic), got " + iterations);
        if (subsets < 0) throw new IllegalArgumentException("config key iterative.subsets must be >= 1, got " + subsets);
        if (subsets > 1 && !algorithm.hasSubsets())
            throw new IllegalArgumentException("config key iterative.subsets (" + subsets + ") applies to algorithm=os-sart and mltr "
                    + "only, not algorithm=" + algorithm.id());
        if (!Double.isNaN(tolerance) && !(tolerance >= 0 && tolerance < 1))
            throw new IllegalArgumentException("config key iterative.tolerance must be in [0, 1), got " + tolerance);
        if (!(relaxation > 0 && relaxation < 2))
            throw new IllegalArgumentException("config key iterative.relaxation must be in (0, 2), got " + relaxation);
        if (stop == StopRule.Rule.RESIDUAL && !(tolerance > 0))
            throw new IllegalArgumentException("config key iterative.stop=residual needs iterative.tolerance > 0 (the relative "
                    + "residual to stop at)");
        if (stop == StopRule.Rule.DISCREPANCY && algorithm == Algorithm.TV)
            throw new IllegalArgumentException("config key iterative.stop=discrepancy does not apply to algorithm=tv: TV converges to "
                    + "its regularised image, not to the data; use change or iterations");
    }

    /** The settings of the first iterative releases: a method, an iteration count, subsets and a residual tolerance. */
    public IterativeParams(Algorithm algorithm, int iterations, int subsets, double tolerance) {
        this(algorithm, iterations, subsets, tolerance, null, OsSart.DEFAULT_RELAXATION, null, false);
    }

    public boolean iterative() {
        return algorithm.iterative();
    }

    /** Projections per subset a large scan's subsets keep at least (see {@link #automaticSubsets}). */
    static final int DEVICE_SUBSET = 128;
    /** Projections from which the subsets keep {@link #DEVICE_SUBSET} projections each. */
    static final int LARGE_SCAN = 1024;

    /**
     * OS-SART's subsets when none are given: about √projections, so that a subset holds about as many projections as
     * there are subsets (8 of 7–8 for 60 projections, 19 of 19 for 360), at most projections /
     * {@link Subsets#MIN_PER_SUBSET}. From {@link #LARGE_SCAN} projections on, at most 8 or one per
     * {@link #DEVICE_SUBSET} projections, whichever is more (16 of 2048): each subset's update reads and writes the whole
     * image, which on an H200 made an iteration of 45 subsets of 2048 projections cost 1.26 times one of 16. MLTR keeps
     * one.
     */
    public static int automaticSubsets(Algorithm algorithm, int projections) {
        if (algorithm != Algorithm.OS_SART) return 1;
        int s = (int) Math.round(Math.sqrt(projections));
        if (projections >= LARGE_SCAN) s = Math.min(s, Math.max(8, projections / DEVICE_SUBSET));
        return Math.max(1, Math.min(s, projections / Subsets.MIN_PER_SUBSET));
    }

    /** The subsets a scan of {@code projections} runs with. */
    public int subsets(int projections) {
        return subsets > 0 ? subsets : automaticSubsets(algorithm, projections);
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

    /** Whether the stop rule may want the counts (the flats): discrepancy, given or chosen automatically. */
    public boolean mayUseCounts() {
        return stop == StopRule.Rule.DISCREPANCY || stop == null && iterations == 0 && !(tolerance > 0) && algorithm != Algorithm.TV;
    }

    /**
     * The stop rule, {@code counts} telling whether the pass has the flats' counts. Automatic: a tolerance alone stops on
     * the residual, an iteration count alone runs that many; neither stops TV on the change of its image and the
     * others by the discrepancy principle where the counts are known, else on the change of their residual.
     */
    public StopRule stopRule(boolean counts) {
        StopRule.Rule rule = stop;
        if (rule == null) {
            if (tolerance > 0) rule = StopRule.Rule.RESIDUAL;
            else if (iterations > 0) rule = StopRule.Rule.ITERATIONS;
            else if (algorithm != Algorithm.TV && counts) rule = StopRule.Rule.DISCREPANCY;
            else rule = StopRule.Rule.CHANGE;
        }
        int limit = iterations > 0 ? iterations : AUTOMATIC_LIMIT;
        boolean settles = rule == StopRule.Rule.CHANGE || rule == StopRule.Rule.DISCREPANCY;
        double tol = Double.isNaN(tolerance) ? settles ? DEFAULT_CHANGE : 0 : tolerance;
        return new StopRule(limit, rule, tol, DISCREPANCY_FACTOR);
    }

    /** The solver of an iterative algorithm, for a scan of {@code projections}. */
    public Solver solver(int projections) {
        return switch (algorithm) {
            case SIRT -> new Sirt(true);
            case OS_SART -> new OsSart(subsets(projections), relaxation);
            case CGLS -> new Cgls();
            case MLTR -> new Mltr(subsets(projections));
            case TV -> new TvPrimalDual(tvWeight != null ? tvWeight : TvWeight.automatic());
            case FBP, GRIDREC, AUTO -> throw new IllegalStateException(algorithm.id() + " is not iterative");
        };
    }
}
