package org.tomospark.executor.backend;

/** A {@link java.util.ServiceLoader} entry point that creates one kind of backend. */
public interface BackendProvider {
    String id();

    /** Null if the backend can run here; otherwise why not, in words. Must not throw. */
    String unavailableReason();

    BackprojectionBackend create();

    /** Lower runs first when choosing {@code auto}. */
    int autoPriority();

    /** Whether {@code auto} may choose this backend (GPU backends only when a GPU is present). */
    default boolean eligibleForAuto() {
        return unavailableReason() == null;
    }
}
