package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps;

/**
 * An iterative reconstruction method: improves an image and says how it converged. It is written against
 * {@link SolverOps}, so that it runs where the ops keep their vectors (Java arrays, or a device's memory for the whole
 * solve).
 */
public interface Solver {
    /** The vectors this solver holds at once. */
    SolveFootprint footprint();

    /**
     * @param ops  the projector pair and vector operations
     * @param data the pass's measurements
     * @param x    the start image, interleaved as the projector's images; overwritten by the result
     * @param stop when to stop
     */
    Convergence solve(SolverOps ops, Measurements data, float[] x, StopRule stop);

    /** The same on a projector pair with host arrays ({@link HostOps}); the caller keeps the pair. */
    default Convergence solve(Projector a, Measurements data, float[] x, StopRule stop) {
        return solve(HostOps.over(a), data, x, stop);
    }
}
