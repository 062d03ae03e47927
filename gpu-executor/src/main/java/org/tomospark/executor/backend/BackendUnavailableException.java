package org.tomospark.executor.backend;

/**
 * A backend that was asked for cannot run on this machine (no GPU, no driver, no OpenCL device). The command is
 * right, the machine is not: the command line reports it with its own exit code.
 */
public final class BackendUnavailableException extends IllegalStateException {
    public BackendUnavailableException(String message) {
        super(message);
    }
}
