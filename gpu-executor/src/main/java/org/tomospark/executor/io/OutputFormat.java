package org.tomospark.executor.io;

import java.util.Locale;

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
        String k = s.trim().toLowerCase(Locale.ROOT);
        for (OutputFormat f : values()) if (f.id.equals(k)) return f;
        throw new IllegalArgumentException("unknown output format '" + s + "': expected tiff or zarr");
    }
}
