package org.tomospark.executor.params;

import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.inputs.ScanMetadata;

import java.io.Serializable;

/**
 * The output volume: which slices, and each slice's grid. In a cone-beam run the output slices are the volume's z
 * slices (its size is the cone-beam settings'): {@code rowStart}/{@code rowEnd} select slices of the volume.
 *
 * @param sliceSize output slice edge in pixels, 0 for the detector width
 * @param roi       {col, row, cols, rows} within the slice, or null for the full slice
 * @param rowStart  first detector row (slice) to reconstruct
 * @param rowEnd    one past the last row, or -1 for all rows
 * @param sliceGrid where the slice's pixels lie around the rotation axis
 */
public record VolumeSettings(int sliceSize, int[] roi, int rowStart, int rowEnd, SliceGrid sliceGrid) implements Serializable {

    /** Every row, slices as wide as the detector on the {@link SliceGrid#ASTRA} grid. */
    public static final VolumeSettings WHOLE = new VolumeSettings(0, null, 0, -1, SliceGrid.ASTRA);

    public VolumeSettings {
        if (sliceGrid == null) sliceGrid = SliceGrid.ASTRA;
        if (sliceSize < 0) throw new IllegalArgumentException("slice.size must be >= 0, got " + sliceSize);
        if (roi != null && roi.length != 4) throw new IllegalArgumentException("slice.roi must be COL,ROW,COLS,ROWS");
        if (rowStart < 0) throw new IllegalArgumentException("slices: start row must be >= 0, got " + rowStart);
        if (rowEnd != -1 && rowEnd <= rowStart)
            throw new IllegalArgumentException("slices: end " + rowEnd + " must be greater than start " + rowStart);
        roi = roi == null ? null : roi.clone();
    }

    /** The output grid for a detector (after binning/stitching) {@code detectorWidth} wide; cone beam: the volume's. */
    public SliceGeometry sliceGeometry(int detectorWidth, ConeParams cone) {
        if (cone != null) return SliceGeometry.square(cone.volume().n());
        int n = sliceSize == 0 ? detectorWidth : sliceSize;
        SliceGeometry g = SliceGeometry.square(n).withGrid(sliceGrid);
        return roi == null ? g : g.withRoi(roi[0], roi[1], roi[2], roi[3]);
    }

    /**
     * The output slices to reconstruct, [start, end), checked against the scan: detector rows in parallel beam, slices of
     * the volume in cone beam ({@code cone} resolved, else null).
     */
    public int[] rowRange(ScanMetadata meta, ConeParams cone) {
        if (cone != null) {
            int nz = cone.volume().nz();
            int end = rowEnd == -1 ? nz : rowEnd;
            if (rowStart >= nz || end > nz)
                throw new IllegalArgumentException("slices " + rowStart + ":" + end + " outside the " + nz + " slices of the volume "
                        + "(cone.volume.slices)");
            return new int[]{rowStart, end};
        }
        int end = rowEnd == -1 ? meta.rows() : rowEnd;
        if (rowStart >= meta.rows() || end > meta.rows())
            throw new IllegalArgumentException("slices " + rowStart + ":" + end + " outside the " + meta.rows() + " detector rows of "
                    + meta.source());
        return new int[]{rowStart, end};
    }
}
