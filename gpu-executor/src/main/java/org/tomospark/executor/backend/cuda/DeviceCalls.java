package org.tomospark.executor.backend.cuda;

import java.util.function.Supplier;

/**
 * Runs driver calls for one owner on one device: refuses a device that a sticky error has marked unusable, and turns a
 * CUDA error into a {@link CudaException} naming the owner, the step and the device; a sticky error (the context is
 * lost) marks the device unusable so that the executor fails loudly rather than computing on.
 */
final class DeviceCalls {
    private final CudaDevice dev;
    private final String owner;

    DeviceCalls(CudaDevice dev, String owner) {
        this.dev = dev;
        this.owner = owner;
    }

    CudaDevice device() {
        return dev;
    }

    <T> T run(String what, Supplier<T> body) {
        dev.checkUsable();
        try {
            dev.makeCurrent();
            return body.get();
        } catch (jcuda.CudaException e) {  // JCuda's, not this package's CudaException
            String name = CudaException.nameFrom(e.getMessage());
            if (CudaException.isSticky(name)) dev.markUnusable(name + " while running " + what);
            throw new CudaException(owner + ": " + what + " on " + dev.describe(), name, e);
        }
    }

    void run(String what, Runnable body) {
        run(what, () -> {
            body.run();
            return null;
        });
    }
}
