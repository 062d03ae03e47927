package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ProjectionMatrix;

/**
 * Which detector rows a z-slab of the volume reads: the projections of the slab's corner voxel centres over every
 * projection (a box in front of the source projects inside the hull of its corners' projections), widened by the
 * bilinear interpolation's second row and clipped to the detector. The band is wider than the slab, and wider again
 * near the top and bottom of the volume, where the rays diverge most.
 */
public final class SlabPlanner {
    private SlabPlanner() {
    }

    /**
     * The band of detector rows slices [k0, k1) need, as {first, count}; count 0 when they see no row at all. The band
     * starts at an even row and ends before one (or at the detector's end): a device filter that transforms two rows at
     * once (one complex FFT) then pairs the same rows in every slab, so that a row's filtered values, and the slices, do
     * not depend on the slab plan.
     */
    public static int[] rows(ConeGeometry g, ConeVolume vol, int k0, int k1) {
        double[] e = extent(g, vol, k0, k1);
        int first = Math.max(0, (int) Math.floor(e[0])), last = Math.min(g.rows() - 1, (int) Math.floor(e[1]) + 1);
        if (last < first) return new int[]{Math.max(0, Math.min(first, g.rows() - 1)), 0};
        first &= ~1;
        last = Math.min(g.rows() - 1, last | 1);
        return new int[]{first, last - first + 1};
    }

    /**
     * The most detector rows any slab of {@code slices} consecutive slices reads, wherever it starts: a band widens with
     * its distance from the mid-plane, so the slabs at the volume's top and bottom bound it before the detector's edges
     * clip them.
     */
    public static int maxRows(ConeGeometry g, ConeVolume vol, int slices) {
        int s = Math.min(slices, vol.nz()), widest = 1;
        for (int k0 : new int[]{0, vol.nz() - s}) {
            double[] e = extent(g, vol, k0, k0 + s);
            widest = Math.max(widest, (int) Math.floor(e[1]) + 1 - (int) Math.floor(e[0]) + 1 + 2);  // + the even alignment
        }
        return Math.min(g.rows(), widest);
    }

    /** The lowest and highest v (detector rows, unclipped) the corners of slices [k0, k1) project to. */
    static double[] extent(ConeGeometry g, ConeVolume vol, int k0, int k1) {
        if (k0 < 0 || k1 > vol.nz() || k0 >= k1)
            throw new IllegalArgumentException("slab [" + k0 + ", " + k1 + ") of a volume of " + vol.nz() + " slices");
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        double[] uvw = new double[3];
        int n = vol.n();
        for (int p = 0; p < g.numProjections(); p++) {
            ProjectionMatrix m = g.matrix(p);
            for (int c = 0; c < 8; c++) {
                double x = vol.x((c & 1) == 0 ? 0 : n - 1), y = vol.y((c & 2) == 0 ? 0 : n - 1), z = vol.z((c & 4) == 0 ? k0 : k1 - 1);
                m.project(x, y, z, uvw);
                if (!(uvw[2] > 0))
                    throw new IllegalArgumentException("the volume (cone.volume.size, cone.volume.voxel) reaches the source of projection "
                            + p + ": its corner (" + x + ", " + y + ", " + z + ") mm lies behind it");
                lo = Math.min(lo, uvw[1]);
                hi = Math.max(hi, uvw[1]);
            }
        }
        return new double[]{lo, hi};
    }
}
