package org.tomospark.executor.backend;

import org.tomospark.executor.filter.FdkFilter;

/**
 * FDK's back-projection of one z-slab on one backend: the Java reference (cone.FdkBackprojector) or a device's
 * kernels. Every implementation adds the same sum (within float32 rounding) for the same arguments; the device ones
 * are checked against the Java reference. One caller at a time; {@link #close} frees what the backend holds.
 */
public interface ConeBackprojector extends AutoCloseable {

    /**
     * Adds the back-projection of every projection into slices [k0, k0 + out.length) of the volume.
     *
     * @param q         filtered projections: q[p] holds detector rows [bandFirst, bandFirst + bandRows), cols pixels each,
     *                  row after row
     * @param bandFirst the first detector row the band holds
     * @param bandRows  rows in the band; every row a voxel of the slab reads must be in it (cone.SlabPlanner)
     * @param out       one n × n slice per slab slice, image[j·n + i], added to
     */
    void backproject(float[][] q, int bandFirst, int bandRows, int k0, float[][] out);

    /**
     * Whether {@link #backprojectFiltering} weights and filters on this back-projector's device; when not, the caller
     * filters with {@link FdkFilter#apply} and calls {@link #backproject}.
     */
    default boolean filtersOnDevice() {
        return false;
    }

    /**
     * FDK's weighting and ramp filtering of the projections ({@code filter}'s weights and response, the same values as
     * {@link FdkFilter#apply} within float32 rounding) on the device, then {@link #backproject}. {@code q} holds the
     * unfiltered projections and is left as it was.
     */
    default void backprojectFiltering(FdkFilter filter, float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        throw new UnsupportedOperationException(description() + ": filters on the host (FdkFilter.apply, then backproject)");
    }

    /** What runs, for the report: the backend, the kernel or path, the device. */
    String description();

    @Override
    void close();
}
