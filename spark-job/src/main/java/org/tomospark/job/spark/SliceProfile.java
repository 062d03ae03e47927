package org.tomospark.job.spark;

import java.io.Serializable;

/**
 * What a task sends back of one slice for the driver's three-view preview: its central image row (the slice's line
 * of the XZ plane) and central image column (of the YZ plane), from {@code OrthoPreview.centralRow/centralColumn}.
 * A few KiB per slice, so the driver never reads the whole volume back.
 */
public record SliceProfile(int slice, float[] row, float[] column) implements Serializable {
    public SliceProfile {
        if (row == null || column == null) throw new IllegalArgumentException("slice " + slice + ": profile without row or column");
    }
}
