package org.tomospark.executor.backend;

import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * What a backend is asked to do for the lifetime of a validated session: the scan and slice geometry,
 * the largest number of slices one {@link SliceBatch} will carry, and the ramp filter for backends
 * that filter on the device (null when sinograms arrive filtered).
 */
public record BackprojectionJob(ScanGeometry scan, SliceGeometry slice, int maxSlicesPerBatch, FilterSpec deviceFilter) {
    public BackprojectionJob {
        if (scan == null) throw new IllegalArgumentException("scan geometry must be given");
        if (slice == null) throw new IllegalArgumentException("slice geometry must be given");
        if (maxSlicesPerBatch < 1)
            throw new IllegalArgumentException("maxSlicesPerBatch must be >= 1, got " + maxSlicesPerBatch);
    }

    public BackprojectionJob(ScanGeometry scan, SliceGeometry slice, int maxSlicesPerBatch) {
        this(scan, slice, maxSlicesPerBatch, null);
    }

    public ProjectionTables tables() {
        return new ProjectionTables(scan, slice);
    }

    /** Voxel updates for one slice: ROI pixels × projections. */
    public long updatesPerSlice() {
        return (long) slice.pixels() * scan.numProjections();
    }
}
