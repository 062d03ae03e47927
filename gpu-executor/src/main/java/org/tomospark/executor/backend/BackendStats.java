package org.tomospark.executor.backend;

/** Cumulative work done by a backend: voxel updates (pixels × projections × slices) and time. */
public record BackendStats(long updates, long nanos, long batches) {
    public static final BackendStats ZERO = new BackendStats(0, 0, 0);

    public BackendStats plus(long u, long ns) {
        return new BackendStats(updates + u, nanos + ns, batches + 1);
    }

    /** Giga-updates per second. */
    public double gups() {
        return nanos == 0 ? 0.0 : updates / (double) nanos;
    }
}
