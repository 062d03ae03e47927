package org.tomospark.executor.outputs;

import org.tomospark.executor.util.EnumIds;

/**
 * How the chunks of a Zarr output are compressed: not at all, or with Zstandard (level 3), as numcodecs' Zstd codec,
 * which zarr-python, napari and tensorstore read.
 */
public enum ZarrCompression {
    NONE("none"),
    ZSTD("zstd");

    /** The level of the Zstandard frames written: the only one the pure-Java compressor offers. */
    public static final int ZSTD_LEVEL = 3;

    private final String id;

    ZarrCompression(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static ZarrCompression parse(String s) {
        return EnumIds.parse(values(), ZarrCompression::id, s, "Zarr compression");
    }
}
