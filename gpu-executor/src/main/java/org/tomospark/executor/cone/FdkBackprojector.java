package org.tomospark.executor.cone;

import java.util.stream.IntStream;

/**
 * FDK's voxel-driven back-projection in Java, the reference the device kernels are checked against: every voxel of a
 * z-slab adds, for every projection, the filtered projection bilinearly interpolated where its centre projects,
 * times the distance weight 1/w² ({@link ProjectionMatrix}). Pixels beyond the detector read as zero. General
 * matrices: u, v and w are evaluated per voxel from the matrix (along z only their z terms change). Rows of the slab
 * run in parallel on the caller's fork-join pool.
 */
public final class FdkBackprojector {
    private final ConeGeometry g;
    private final ConeVolume vol;

    public FdkBackprojector(ConeGeometry g, ConeVolume vol) {
        this.g = g;
        this.vol = vol;
    }

    /**
     * Adds the back-projection of every projection into slices [k0, k0 + out.length) of the volume.
     *
     * @param q         filtered projections: q[p] holds detector rows [bandFirst, bandFirst + bandRows), cols each
     * @param bandFirst the first detector row the band holds
     * @param bandRows  rows in the band; every row a voxel of the slab reads must be in it ({@link SlabPlanner})
     * @param out       one n × n slice per slab slice, image[j·n + i], added to
     */
    public void backproject(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        int n = vol.n(), cols = g.cols(), rows = g.rows();
        IntStream.range(0, n).parallel().forEach(j -> {
            float[] line = new float[n * out.length];
            for (int p = 0; p < q.length; p++) {
                double[] m = g.matrix(p).m();
                float[] proj = q[p];
                double y = vol.y(j);
                for (int i = 0; i < n; i++) {
                    double x = vol.x(i);
                    double uw0 = m[0] * x + m[1] * y + m[3], vw0 = m[4] * x + m[5] * y + m[7], w0 = m[8] * x + m[9] * y + m[11];
                    for (int kk = 0; kk < out.length; kk++) {
                        double z = vol.z(k0 + kk);
                        double w = w0 + m[10] * z, u = (uw0 + m[2] * z) / w, v = (vw0 + m[6] * z) / w;
                        line[kk * n + i] += (float) (sample(proj, u, v, cols, rows, bandFirst, bandRows) / (w * w));
                    }
                }
            }
            for (int kk = 0; kk < out.length; kk++)
                for (int i = 0; i < n; i++) out[kk][j * n + i] += line[kk * n + i];
        });
    }

    /** Bilinear sample at (u, v) (detector pixels), zero beyond the detector. */
    static double sample(float[] proj, double u, double v, int cols, int rows, int bandFirst, int bandRows) {
        if (!(u > -1 && u < cols && v > -1 && v < rows)) return 0;
        int u0 = (int) Math.floor(u), v0 = (int) Math.floor(v);
        double fu = u - u0, fv = v - v0;
        double a = pixel(proj, u0, v0, cols, rows, bandFirst, bandRows);
        double b = pixel(proj, u0 + 1, v0, cols, rows, bandFirst, bandRows);
        double c = pixel(proj, u0, v0 + 1, cols, rows, bandFirst, bandRows);
        double d = pixel(proj, u0 + 1, v0 + 1, cols, rows, bandFirst, bandRows);
        return (1 - fv) * ((1 - fu) * a + fu * b) + fv * ((1 - fu) * c + fu * d);
    }

    private static double pixel(float[] proj, int u, int v, int cols, int rows, int bandFirst, int bandRows) {
        if (u < 0 || u >= cols || v < 0 || v >= rows) return 0;
        int r = v - bandFirst;
        if (r < 0 || r >= bandRows)
            throw new IllegalStateException("detector row " + v + " is outside the band read for this slab (rows " + bandFirst + " to "
                    + (bandFirst + bandRows - 1) + ")");
        return proj[r * cols + u];
    }
}
