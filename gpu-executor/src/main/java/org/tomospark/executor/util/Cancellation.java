package org.tomospark.executor.util;

import java.util.concurrent.CancellationException;

/**
 * Whether the work in hand is still wanted: a Spark task that its job's cancel or kill marked (Spark marks the task
 * without interrupting its thread when the job group says so, as notebooks' job groups do), or a thread that was
 * interrupted. Long loops ask between their steps (back-projection tiles and passes, device chunks, iterations,
 * candidate centres) and stop there; what they leave behind is what a failed step leaves, so an output stays resumable.
 */
@FunctionalInterface
public interface Cancellation {
    /** Never cancelled: work that no one can cancel. */
    Cancellation NONE = () -> false;

    /** Whether the work was cancelled; cheap enough to ask once per tile or chunk. */
    boolean requested();

    /** Throws a {@link CancellationException} naming {@code what} once the work was cancelled. */
    default void check(String what) {
        if (requested()) throw new CancellationException(what + ": cancelled");
    }

    /** Cancelled once this one or {@code other} is. */
    default Cancellation or(Cancellation other) {
        if (other == NONE) return this;
        if (this == NONE) return other;
        return () -> requested() || other.requested();
    }

    /** Cancelled once the calling thread is interrupted (asked from any thread). */
    static Cancellation ofCurrentThread() {
        Thread t = Thread.currentThread();
        return t::isInterrupted;
    }
}
