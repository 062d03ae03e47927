package org.tomospark.executor.backend.java;

import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.GroupShape;
import org.tomospark.executor.config.ConfigKey;

import java.util.List;

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
     * pass nor the variant change a byte (tested), nor the tiling; the sample format and interpolation do.
     */
    @Override
    public BackendOptions outputDefining(BackendOptions o) {
        return BackendProvider.super.outputDefining(o).withSlicesPerPass(0).withVariant("auto");
    }

    @Override
    public List<ConfigKey<?>> settingsThatKeepBytes() {
        return List.of(BackendKeys.JAVA_TILE, BackendKeys.JAVA_PROJECTION_CHUNK);
    }

    /** One pass of the chosen (or automatic) number of interleaved slices; nothing larger pays. */
    @Override
    public GroupShape groupShape(BackendOptions o) {
        int k = o.slicesPerPass() == 0 ? JavaBackend.AUTO_SLICES_PER_PASS : o.slicesPerPass();
        return new GroupShape(k, k);
    }

    @Override
    public int autoPriority() {
        return 100;
    }
}
