package org.tomospark.executor.backends.toy;

import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

/**
 * FDK back-projection one voxel at a time from each projection's matrix: (u·w, v·w, w) = P·(x, y, z, 1), the filtered
 * projection bilinearly interpolated at (u, v), weighted 1/w², zero beyond the detector.
 */
final class ToyFdk implements ConeBackprojector {
    private final ConeGeometry g;
    private final ConeVolume vol;

    ToyFdk(ConeGeometry g, ConeVolume vol) {
        this.g = g;
        this.vol = vol;
    }

    @Override
    public void backproject(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        int n = vol.n();
        for (int kk = 0; kk < out.length; kk++) {
            double z = vol.z(k0 + kk);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    double x = vol.x(i), y = vol.y(j), sum = 0;
                    for (int p = 0; p < q.length; p++) {
                        double[] m = g.matrix(p).m();
                        double w = m[8] * x + m[9] * y + m[10] * z + m[11];
                        double u = (m[0] * x + m[1] * y + m[2] * z + m[3]) / w, v = (m[4] * x + m[5] * y + m[6] * z + m[7]) / w;
                        sum += bilinear(q[p], u, v, bandFirst, bandRows) / (w * w);
                    }
                    out[kk][j * n + i] += (float) sum;
                }
        }
    }

    private double bilinear(float[] proj, double u, double v, int bandFirst, int bandRows) {
        int u0 = (int) Math.floor(u), v0 = (int) Math.floor(v);
        double fu = u - u0, fv = v - v0;
        return (1 - fv) * ((1 - fu) * pixel(proj, u0, v0, bandFirst, bandRows) + fu * pixel(proj, u0 + 1, v0, bandFirst, bandRows))
                + fv * ((1 - fu) * pixel(proj, u0, v0 + 1, bandFirst, bandRows) + fu * pixel(proj, u0 + 1, v0 + 1, bandFirst, bandRows));
    }

    private double pixel(float[] proj, int u, int v, int bandFirst, int bandRows) {
        if (u < 0 || u >= g.cols() || v < 0 || v >= g.rows()) return 0;
        if (v < bandFirst || v >= bandFirst + bandRows)
            throw new IllegalStateException("toy fdk: detector row " + v + " is outside the band of rows " + bandFirst + ".."
                    + (bandFirst + bandRows - 1));
        return proj[(v - bandFirst) * g.cols() + u];
    }

    @Override
    public String description() {
        return "toy fdk, one voxel at a time";
    }

    @Override
    public void close() {
    }
}
