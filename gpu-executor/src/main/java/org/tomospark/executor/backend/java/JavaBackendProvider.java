package org.tomospark.executor.backend.java;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackprojectionBackend;

/** Registers the pure-Java backend; always available, last choice for {@code auto}. */
public final class JavaBackendProvider implements BackendProvider {
    @Override
    public String id() {
        return JavaBackend.ID;
    }

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public BackprojectionBackend create() {
        return new JavaBackend();
    }

    /**
     * Each slice's sum runs in the same order with the same float operations whatever the interleaving (the vector
     * lanes and the scalar loop compute a lane alike, and Java never fuses them into FMAs), so neither the slices per
     * pass nor the variant change a byte (tested); the sample format and interpolation do.
     */
    @Override
    public BackendOptions outputDefining(BackendOptions o) {
        return o.withThreads(0).withDevice("").withSlicesPerPass(0).withVariant("auto");
    }

    @Override
    public int autoPriority() {
        return 100;
    }
}
