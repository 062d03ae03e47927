package org.tomospark.executor.io;

import org.tomospark.executor.util.EnumIds;

/** How the slices are stored: one TIFF per slice, or one Zarr (v2) array with one chunk per slice. */
public enum OutputFormat {
    TIFF("tiff"),
    ZARR("zarr");

    private final String id;

    OutputFormat(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static OutputFormat parse(String s) {
        return EnumIds.parse(values(), OutputFormat::id, s, "output format");
    }
}
