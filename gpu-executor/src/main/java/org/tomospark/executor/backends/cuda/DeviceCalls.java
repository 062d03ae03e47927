package org.tomospark.executor.backends.cuda;

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

    /** Runs body on the device's context. */
    <T> T run(String what, Supplier<T> body) {
        return guarded(dev, owner + ": " + what, () -> {
            dev.makeCurrent();
            return body.get();
        });
    }

    /**
     * The rule every owner of driver calls follows: refuse a device already marked unusable, turn a CUDA error into a
     * {@link CudaException} naming the step and the device, and mark the device unusable on a sticky error.
     *
     * @param dev the device, or null before one is chosen (then nothing is checked or marked)
     */
    static <T> T guarded(CudaDevice dev, String what, Supplier<T> body) {
        if (dev != null) dev.checkUsable();
        try {
            return body.get();
        } catch (jcuda.CudaException e) {  // JCuda's, not this package's CudaException
            String name = CudaException.nameFrom(e.getMessage());
            if (CudaException.isSticky(name) && dev != null) dev.markUnusable(name + " while " + what);
            throw new CudaException(what + (dev == null ? "" : " on " + dev.describe()), name, e);
        }
    }

    void run(String what, Runnable body) {
        run(what, () -> {
            body.run();
            return null;
        });
    }
}
