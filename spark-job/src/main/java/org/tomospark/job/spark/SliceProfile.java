package org.tomospark.job.spark;

import java.io.Serializable;

/**
 * What a task sends back of one slice for the driver's three-view preview: its central image row (the slice's line
 * of the XZ plane) and central image column (of the YZ plane), from {@code OrthoPreview.centralRow/centralColumn}, a
 * few KiB per slice, so the driver never reads the whole volume back; and for the run's middle slice (the XY panel) the
 * whole slice, {@code row.length × column.length}, so the driver's finish need not read it back from its file.
 */
public record SliceProfile(int slice, float[] row, float[] column, float[] whole) implements Serializable {
    public SliceProfile {
        if (row == null || column == null) throw new IllegalArgumentException("slice " + slice + ": profile without row or column");
        if (whole != null && whole.length != (long) row.length * column.length)
            throw new IllegalArgumentException("slice " + slice + ": " + whole.length + " pixels, expected " + row.length + " x "
                    + column.length);
    }

    /** The profiles of a slice that is not the middle one. */
    public SliceProfile(int slice, float[] row, float[] column) {
        this(slice, row, column, null);
    }
}
