package org.tomospark.executor.backend;

import java.util.function.Supplier;

/**
 * Probes a native runtime (CUDA driver, OpenCL ICD loader) once per JVM and caches the answer: null if it
 * can be used, else why not. The probe must not throw; it returns "" for "available". Warns first when the
 * native library would be loaded without signal chaining ({@link NativeSignals}).
 */
public final class NativeProbe {
    private final String what;
    private final Supplier<String> probe;
    private volatile String result;

    public NativeProbe(String what, Supplier<String> probe) {
        this.what = what;
        this.probe = probe;
    }

    public String unavailableReason() {
        String r = result;
        if (r == null) {
            synchronized (this) {
                r = result;
                if (r == null) {
                    NativeSignals.warnIfUnchained(what);
                    r = probe.get();
                    result = r;
                }
            }
        }
        return r.isEmpty() ? null : r;
    }
}
