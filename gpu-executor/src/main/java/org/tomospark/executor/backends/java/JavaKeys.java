package org.tomospark.executor.backends.java;

import org.tomospark.executor.config.ConfigKey;

import java.util.List;

/**
 * The settings of the java backend, as typed config keys: documented in conf/CONFIG.md, settable from the command line, Spark
 * and the notebook API like every key (its provider lists them, {@code keys()}), carried to the backend in
 * {@code BackendOptions.extra()} and read here with {@code BackendOptions.get}. Each key's default, validator and
 * documentation live here and nowhere else.
 */
public final class JavaKeys {
    private static final String CATEGORY = "Backend: java";

    public static final ConfigKey<Integer> TILE = ConfigKey.integer(CATEGORY, "java.tile",
            "Edge in pixels of the square tiles the java backend spreads over its threads.", 32, 4, 4096);
    public static final ConfigKey<Integer> PROJECTION_CHUNK = ConfigKey.integer(CATEGORY, "java.projectionChunk",
            "Projections per pass over a tile (keeps the touched part of the compound sinogram in cache).", 128, 1, 1 << 20);

    /** Every key of this backend, in declaration order. */
    public static final List<ConfigKey<?>> ALL = List.of(TILE, PROJECTION_CHUNK);

    private JavaKeys() {
    }
}
