package org.tomospark.job.outputs;

/** The output is claimed by another run (its {@link OutputLock} is held and alive); nothing was changed. */
public final class OutputBusyException extends IllegalStateException {
    public OutputBusyException(String message) {
        super(message);
    }
}
