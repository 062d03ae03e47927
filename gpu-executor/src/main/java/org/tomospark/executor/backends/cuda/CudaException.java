package org.tomospark.executor.backends.cuda;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CUDA driver error, carrying the CUDA error name (e.g. {@code CUDA_ERROR_ILLEGAL_ADDRESS}) and what was being
 * done. Sticky errors leave the context unusable: the device is then marked unusable and every later use fails.
 */
public final class CudaException extends RuntimeException {
    /** Errors after which the CUDA context is corrupt ("sticky"): nothing more can run in it. */
    static final Set<String> STICKY = Set.of(
            "CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_ILLEGAL_INSTRUCTION",
            "CUDA_ERROR_MISALIGNED_ADDRESS", "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_INVALID_PC",
            "CUDA_ERROR_HARDWARE_STACK_ERROR", "CUDA_ERROR_ASSERT", "CUDA_ERROR_LAUNCH_TIMEOUT",
            "CUDA_ERROR_ECC_UNCORRECTABLE", "CUDA_ERROR_CONTEXT_IS_DESTROYED", "CUDA_ERROR_TRAP",
            "CUDA_ERROR_UNKNOWN");
    private static final Pattern NAME = Pattern.compile("CUDA_ERROR_[A-Z0-9_]+");

    private final String errorName;

    public CudaException(String what, String errorName, Throwable cause) {
        super("CUDA " + errorName + " while " + what + (isSticky(errorName)
                ? " (sticky error: the device's context is corrupt; the device is marked unusable)" : ""), cause);
        this.errorName = errorName;
    }

    /** The CUDA error name, e.g. CUDA_ERROR_OUT_OF_MEMORY. */
    public String errorName() {
        return errorName;
    }

    public boolean sticky() {
        return isSticky(errorName);
    }

    static boolean isSticky(String name) {
        return STICKY.contains(name);
    }

    /** Extracts the CUDA error name from a JCuda exception message; "CUDA_ERROR_UNKNOWN" if none. */
    static String nameFrom(String message) {
        if (message == null) return "CUDA_ERROR_UNKNOWN";
        Matcher m = NAME.matcher(message);
        return m.find() ? m.group() : "CUDA_ERROR_UNKNOWN";
    }
}
