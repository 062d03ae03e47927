package org.tomospark.executor.backend;

/**
 * The vectors an iterative solve holds at once, for sizing its passes to a device's memory: k-slice images, sinograms
 * and weight images ({@link SolverOps#weights()}, one slice each).
 */
public record SolveFootprint(int images, int sinograms, int weights) {
}
