package org.tomospark.executor.geometry;

import java.io.Serializable;

/**
 * The reconstructed volume: n × n × nz voxels of edge {@code voxel} mm, centred on the isocentre. Voxel (column i, row
 * j, slice k) has its centre at ((i − (n−1)/2)·s, (j − (n−1)/2)·s, (k − (nz−1)/2)·s); slice k is written as slice_k.
 */
public record ConeVolume(int n, int nz, double voxel) implements Serializable {
    public ConeVolume {
        if (n < 1) throw new IllegalArgumentException("config key cone.volume.size must be >= 1, got " + n);
        if (nz < 1) throw new IllegalArgumentException("config key cone.volume.slices must be >= 1, got " + nz);
        if (!(voxel > 0) || Double.isInfinite(voxel))
            throw new IllegalArgumentException("config key cone.volume.voxel (mm) must be positive, got " + voxel);
    }

    public double x(int i) {
        return (i - (n - 1) / 2.0) * voxel;
    }

    public double y(int j) {
        return (j - (n - 1) / 2.0) * voxel;
    }

    public double z(int k) {
        return (k - (nz - 1) / 2.0) * voxel;
    }

    /** Voxels of one slice. */
    public int pixels() {
        return n * n;
    }

    /** The radius of the circle through the corners of a slice, mm. */
    public double cornerRadius() {
        return (n - 1) / 2.0 * voxel * Math.sqrt(2) + voxel / Math.sqrt(2);
    }
}
