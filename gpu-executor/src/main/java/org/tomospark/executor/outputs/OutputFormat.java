package org.tomospark.executor.outputs;

import org.tomospark.executor.util.EnumIds;

/**
 * How the slices are stored: one TIFF per slice, one Zarr (v2) array with one chunk per slice, or one HDF5 file with a
 * chunked dataset, which the driver assembles from the slices the tasks committed (HDF5 files take one writer).
 */
public enum OutputFormat {
    TIFF("tiff"),
    ZARR("zarr"),
    HDF5("hdf5");

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
