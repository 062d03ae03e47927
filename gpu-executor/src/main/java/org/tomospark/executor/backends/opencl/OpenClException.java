package org.tomospark.executor.backends.opencl;

/** An OpenCL failure, in words: what was attempted, on which device, and the OpenCL status name. */
public final class OpenClException extends RuntimeException {
    public OpenClException(String message) {
        super(message);
    }

    public OpenClException(String message, Throwable cause) {
        super(message, cause);
    }
}
