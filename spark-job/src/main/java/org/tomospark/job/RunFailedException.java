package org.tomospark.job;

/**
 * A reconstruction that started writing its output and could not finish it: a Spark job whose task failed after its
 * retries, a cancelled or interrupted run, a commit that came up short. The committed slices are kept and are
 * whole; {@code --resume} finishes the output.
 */
public final class RunFailedException extends RuntimeException {
    public RunFailedException(String message, Throwable cause) {
        super(message, cause);
    }

    public RunFailedException(String message) {
        super(message);
    }
}
