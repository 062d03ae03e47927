package org.tomospark.job.outputs;

/**
 * A {@code --resume} refused because the output holds a run from another input or with other parameters (or one
 * that did not record what it was made from); nothing was changed. Only {@code --overwrite} replaces it.
 */
public final class OutputMismatchException extends IllegalArgumentException {
    public OutputMismatchException(String message) {
        super(message);
    }
}
