package org.tomospark.executor.backend.java;

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

    @Override
    public int autoPriority() {
        return 100;
    }
}
