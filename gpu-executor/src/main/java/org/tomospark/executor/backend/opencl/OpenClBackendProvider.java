package org.tomospark.executor.backend.opencl;

import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackprojectionBackend;

/**
 * Registers the OpenCL backend. Available wherever an OpenCL platform with a device exists (PoCL counts);
 * chosen by {@code auto} only when an OpenCL GPU is present. On PoCL's CPU device only the 4-slice ALU
 * kernel beat the Java backend (1.7x in isolation), the texture kernels are 2-3x slower, and both would
 * share the executor's cores (BENCHMARKS.md, "OpenCL backend"), so a CPU-only machine keeps java.
 */
public final class OpenClBackendProvider implements BackendProvider {
    @Override
    public String id() {
        return OpenClBackend.ID;
    }

    @Override
    public String unavailableReason() {
        try {
            return ClRuntime.unavailableReason();
        } catch (Throwable t) { // must not throw, whatever the native layer does
            return "OpenCL probe failed: " + t;
        }
    }

    @Override
    public BackprojectionBackend create() {
        return new OpenClBackend();
    }

    @Override
    public int autoPriority() {
        return 20;
    }

    @Override
    public boolean eligibleForAuto() {
        try {
            return ClRuntime.hasGpu();
        } catch (Throwable t) {
            return false;
        }
    }
}
