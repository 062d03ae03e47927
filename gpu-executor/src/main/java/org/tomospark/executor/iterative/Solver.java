package org.tomospark.executor.iterative;

/** An iterative reconstruction method on a {@link Projector}: improves an image in place and says how it converged. */
public interface Solver {
    /**
     * @param a    the projector pair
     * @param data the pass's measurements
     * @param x    the start image, interleaved as the projector's images; overwritten by the result
     * @param stop when to stop
     */
    Convergence solve(Projector a, Measurements data, float[] x, StopRule stop);
}
