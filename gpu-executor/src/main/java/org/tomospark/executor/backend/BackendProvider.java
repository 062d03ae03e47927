package org.tomospark.executor.backend;

import org.tomospark.executor.config.ConfigKey;

import java.util.List;

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

    /**
     * The options that decide the output's bytes: {@code o} with every setting this backend's results do not depend
     * on reset to its default. An output's run signature holds these, so that a {@code --resume} with, say, other
     * threads is accepted and one with another kernel is not. By default threads and device do not count.
     */
    default BackendOptions outputDefining(BackendOptions o) {
        BackendOptions d = o.withThreads(0).withDevice("");
        for (ConfigKey<?> k : settingsThatKeepBytes()) d = d.withoutExtra(k.name());
        return d;
    }

    /** This backend's settings ({@link BackendKeys}) that change its speed, never its output's bytes. */
    default List<ConfigKey<?>> settingsThatKeepBytes() {
        return List.of();
    }

    /** The slice groups this backend runs best with, for these options (planning needs no device). */
    default GroupShape groupShape(BackendOptions o) {
        int k = o.slicesPerPass() == 0 ? 1 : o.slicesPerPass();
        return new GroupShape(k, o.slicesPerPass() == 0 ? 16 : k);
    }

    /**
     * Gives back what this backend holds for the process's lifetime (device contexts, registered and pinned host
     * memory), at the end of a command whose process exits next: a driver tears these down faster when asked than when
     * the process ends holding them. Nothing may use the backend in this process afterwards. By default nothing.
     */
    default void releaseBeforeExit() {
    }
}
