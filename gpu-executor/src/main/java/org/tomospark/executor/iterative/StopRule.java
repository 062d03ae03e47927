package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.util.Cancellation;
import org.tomospark.executor.util.EnumIds;

import java.util.Locale;

/**
 * When a solver stops. {@link Rule#ITERATIONS} runs {@code iterations}; the other rules stop a slice as soon as they
 * hold for it, and after {@code iterations} at the latest:
 * <ul>
 *   <li>{@link Rule#RESIDUAL}: the slice's relative residual ‖A·x − p‖/‖p‖ is at most {@code tolerance};</li>
 *   <li>{@link Rule#CHANGE}: its residual changed by at most {@code tolerance} of itself in the last iteration (for TV,
 *   which converges to a fixed point rather than to the data, its image: ‖x' − x‖/‖x'‖);</li>
 *   <li>{@link Rule#DISCREPANCY}: ‖A·x − p‖² is at most {@code discrepancy} × the noise its data are expected to carry,
 *   Σ 1/y over its rays with y = b·e^−p the counts (b = flat − dark: Poisson statistics of −log counts). Methods that
 *   fit the noise when run on (SIRT, OS-SART, MLTR, CGLS: semi-convergence) are stopped where the data are explained
 *   as well as their noise allows. A residual that settles above the noise (a model or a detector the Poisson counts do
 *   not describe) stops as {@link Rule#CHANGE} does, when {@code tolerance} is above 0.</li>
 * </ul>
 * Each slice stops on its own: the slices of a pass iterate together, but a slice that stops keeps the image it had
 * then, so that its result does not depend on which slices shared its pass (the engines group slices differently).
 */
public record StopRule(int iterations, Rule rule, double tolerance, double discrepancy) {
    /** The rules. */
    public enum Rule {
        ITERATIONS, RESIDUAL, CHANGE, DISCREPANCY;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Rule parse(String s) {
            return EnumIds.parse(values(), Rule::id, s, "iterative.stop");
        }
    }

    public StopRule {
        if (iterations < 1) throw new IllegalArgumentException("iterations must be >= 1, got " + iterations);
        if (rule == null) throw new IllegalArgumentException("a stop rule is needed");
        if (!(tolerance >= 0 && tolerance < 1)) throw new IllegalArgumentException("tolerance must be in [0, 1), got " + tolerance);
        if (!(discrepancy > 0)) throw new IllegalArgumentException("discrepancy factor must be > 0, got " + discrepancy);
    }

    /** Exactly {@code iterations}. */
    public static StopRule after(int iterations) {
        return new StopRule(iterations, Rule.ITERATIONS, 0, 1);
    }

    /** After {@code iterations}, or once the relative residual is at most {@code tolerance} (0: never). */
    public static StopRule residual(int iterations, double tolerance) {
        return new StopRule(iterations, tolerance > 0 ? Rule.RESIDUAL : Rule.ITERATIONS, tolerance, 1);
    }

    /**
     * The stopping of one pass of {@code k} slices whose data have the squared norms {@code dataSquares}: knows the
     * noise of each slice's data, keeps the image of each slice that stops, says why each stopped.
     */
    public Monitor monitor(Measurements data, double[] dataSquares) {
        int k = dataSquares.length;
        double[] noise = rule == Rule.DISCREPANCY ? data.noiseSquares(k) : new double[k];
        if (rule == Rule.DISCREPANCY && !data.hasBlank())
            throw new IllegalArgumentException("config key iterative.stop=discrepancy needs the flats' counts: the scan has no flats");
        return new Monitor(noise, dataSquares, data.cancellation());
    }

    /** Watches one pass's iterations, slice by slice. */
    public final class Monitor {
        private final double[] noise, data, last, previous;
        private final StopReason[] reason;
        private final boolean[] fresh, kept;
        private final Cancellation cancellation;
        private int iterations;

        Monitor(double[] noise, double[] data, Cancellation cancellation) {
            this.cancellation = cancellation;
            this.noise = noise;
            this.data = data;
            int k = data.length;
            this.last = new double[k];
            this.previous = new double[k];
            this.reason = new StopReason[k];
            this.fresh = new boolean[k];
            this.kept = new boolean[k];
        }

        /**
         * Records an iteration's residuals ‖A·x − p‖² per slice and returns the convergence with their total, a slice
         * that stopped counting with its last residual. Throws once the pass was cancelled.
         */
        public Convergence record(Convergence c, double[] residuals) {
            cancellation.check("iteration " + (iterations + 1));
            iterations++;
            double total = 0;
            for (int s = 0; s < residuals.length; s++) {
                if (reason[s] == null) {
                    previous[s] = last[s];
                    last[s] = residuals[s];
                }
                total += last[s];
            }
            return c.with(total);
        }

        /** After {@link #record}: decides which slices stop, the residuals deciding any change. */
        public boolean decide() {
            return decide(null);
        }

        /**
         * After {@link #record}: decides which slices stop; {@code change} is each slice's relative image change for a
         * solver that stops on it (TV), null for one that stops on the change of its residual. Returns whether any
         * slice stopped now ({@link #keep} then takes their images).
         */
        public boolean decide(double[] change) {
            boolean any = false;
            for (int s = 0; s < reason.length; s++) {
                fresh[s] = false;
                if (reason[s] != null) continue;
                double changed = change != null ? change[s] : iterations < 2 ? Double.POSITIVE_INFINITY
                        : previous[s] > 0 ? Math.abs(Math.sqrt(previous[s]) - Math.sqrt(last[s])) / Math.sqrt(previous[s]) : 0;
                StopReason r = switch (rule) {
                    case ITERATIONS -> null;
                    case RESIDUAL -> (data[s] > 0 ? Math.sqrt(last[s] / data[s]) : 0) <= tolerance ? StopReason.RESIDUAL : null;
                    case CHANGE -> changed <= tolerance ? StopReason.CHANGE : null;
                    case DISCREPANCY -> last[s] <= discrepancy * noise[s] ? StopReason.DISCREPANCY
                            : tolerance > 0 && changed <= tolerance ? StopReason.CHANGE : null;
                };
                if (r == null && iterations >= StopRule.this.iterations)
                    r = rule == Rule.ITERATIONS ? StopReason.ITERATIONS : StopReason.LIMIT;
                if (r != null) {
                    reason[s] = r;
                    fresh[s] = true;
                    any = true;
                }
            }
            return any;
        }

        /** Whether every slice has stopped. */
        public boolean done() {
            for (StopReason r : reason) if (r == null) return false;
            return true;
        }

        /** Copies the image of each slice that stopped in the last {@link #decide} from {@code x} into {@code out}. */
        public void keep(SolverOps ops, Vec x, float[] out) {
            copy(ops, x, out, fresh);
            for (int s = 0; s < fresh.length; s++) kept[s] |= fresh[s];
        }

        /**
         * Copies the image of each slice not kept yet from {@code x} into {@code out} and returns {@code c} with why the
         * slices stopped and the noise they were measured against. Slices without data (a pass's padding) are not
         * counted.
         */
        public Convergence finish(SolverOps ops, Vec x, float[] out, Convergence c) {
            boolean[] rest = new boolean[kept.length];
            for (int s = 0; s < rest.length; s++) {
                rest[s] = !kept[s];
                if (reason[s] == null) reason[s] = rule == Rule.ITERATIONS ? StopReason.ITERATIONS : StopReason.LIMIT;
            }
            copy(ops, x, out, rest);
            int[] stops = new int[StopReason.values().length];
            double noiseTotal = 0;
            for (int s = 0; s < reason.length; s++) {
                if (!(data[s] > 0)) continue;
                stops[reason[s].ordinal()]++;
                noiseTotal += noise[s];
            }
            return c.stopped(stops, noiseTotal);
        }

        private void copy(SolverOps ops, Vec x, float[] out, boolean[] slices) {
            boolean any = false;
            for (boolean b : slices) any |= b;
            if (!any) return;
            int k = slices.length;
            boolean all = true;
            for (boolean b : slices) all &= b;
            if (all) {
                ops.download(x, out);
                return;
            }
            float[] tmp = new float[out.length];
            ops.download(x, tmp);
            for (int i = 0; i < out.length; i += k)
                for (int s = 0; s < k; s++) if (slices[s]) out[i + s] = tmp[i + s];
        }
    }
}
