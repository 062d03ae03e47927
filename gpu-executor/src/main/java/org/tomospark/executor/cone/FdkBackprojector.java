package org.tomospark.executor.cone;

import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ProjectionMatrix;

import java.util.stream.IntStream;

/**
 * FDK's voxel-driven back-projection in Java, the reference the device kernels are checked against: every voxel of a
 * z-slab adds, for every projection, the filtered projection bilinearly interpolated where its centre projects,
 * times the distance weight 1/w² ({@link ProjectionMatrix}). Pixels beyond the detector read as zero. General
 * matrices: u, v and w are evaluated per voxel from the matrix. On a circular trajectory u and w do not change along
 * z and v moves by a constant step, so a column of the slab shares them ({@link #backproject} takes that path; the
 * general one is {@link #backprojectGeneral}): on the JDK Vector API where the JVM has it and the machine runs 256-bit
 * vectors ({@link FdkVectorKernel}), else in plain loops ({@link #backprojectColumns}). Both run in parallel on the
 * caller's fork-join pool, and a voxel's sum does not depend on the number of threads.
 */
public final class FdkBackprojector implements ConeBackprojector {
    private final ConeGeometry g;
    private final ConeVolume vol;
    /** Detector rows per voxel step along z, least and most ({@link FdkVectorKernel#rowSteps}); null: the vector path is off. */
    private final double[] rowSteps;

    public FdkBackprojector(ConeGeometry g, ConeVolume vol) {
        this(g, vol, true);
    }

    /** vector: take the Vector API column path where this JVM, this machine and the geometry allow it. */
    public FdkBackprojector(ConeGeometry g, ConeVolume vol, boolean vector) {
        this.g = g;
        this.vol = vol;
        // the kernel's class is touched only where its module is present
        double[] steps = vector && !g.hasMatrices() && vectorApiPresent() && FdkVectorKernel.supported()
                ? FdkVectorKernel.rowSteps(g, vol) : null;
        this.rowSteps = steps != null && steps[1] <= FdkVectorKernel.MAX_DV ? steps : null;
    }

    @Override
    public void backproject(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        if (g.hasMatrices()) backprojectGeneral(q, bandFirst, bandRows, k0, out);
        else if (vectorColumns()) FdkVectorKernel.backproject(g, vol, rowSteps, q, bandFirst, bandRows, k0, out);
        else backprojectColumns(q, bandFirst, bandRows, k0, out);
    }

    @Override
    public String description() {
        return "java fdk, " + (g.hasMatrices() ? "a matrix per projection"
                : vectorColumns() ? "circular column path, Vector API" : "circular column path, scalar");
    }

    /** Whether {@link #backproject} takes the Vector API column path. */
    public boolean vectorColumns() {
        return rowSteps != null;
    }

    private static boolean vectorApiPresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    @Override
    public void close() {
    }

    /**
     * The circular trajectory's path: per pixel column (x, y) and projection, u, its bilinear column weights and 1/w²
     * once, then the slab's voxels down the column at v = v0 + k·dv; projections in a copy padded with one zero pixel
     * on every side, so that no pixel read is tested.
     */
    void backprojectColumns(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
        int n = vol.n(), cols = g.cols(), rows = g.rows(), nz = out.length, pitch = cols + 2;
        float[][] padded = new float[q.length][];
        IntStream.range(0, q.length).parallel().forEach(p -> {
            float[] d = new float[(bandRows + 2) * pitch];
            for (int r = 0; r < bandRows; r++) System.arraycopy(q[p], r * cols, d, (r + 1) * pitch + 1, cols);
            padded[p] = d;
        });
        double s = vol.voxel(), z0 = vol.z(k0);
        // rows of the detector a voxel may take: beyond them (outside the detector) it reads zeros; within them the band
        // holds it (SlabPlanner)
        int vLo = Math.max(-1, bandFirst - 1), vHi = Math.min(rows - 1, bandFirst + bandRows - 1);
        IntStream.range(0, n).parallel().forEach(j -> {
            float[] acc = new float[n * nz];
            double y = vol.y(j);
            for (int p = 0; p < q.length; p++) {
                double[] m = g.matrix(p).m();
                float[] proj = padded[p];
                for (int i = 0; i < n; i++) {
                    double x = vol.x(i);
                    double iw = 1 / (m[8] * x + m[9] * y + m[11]);
                    double u = (m[0] * x + m[1] * y + m[3]) * iw;
                    int iu = (int) Math.floor(u);
                    if (iu < -1 || iu >= cols) continue;
                    float fu = (float) (u - iu), w2 = (float) (iw * iw);
                    double v = (m[4] * x + m[5] * y + m[6] * z0 + m[7]) * iw, dv = m[6] * s * iw;
                    int base = i * nz, col = iu + 1 - (bandFirst - 1) * pitch;
                    for (int kk = 0; kk < nz; kk++, v += dv) {
                        int iv = (int) Math.floor(v);
                        if (iv < vLo || iv > vHi) continue;
                        float fv = (float) (v - iv);
                        int o = iv * pitch + col;
                        float a = proj[o], b = proj[o + 1], c = proj[o + pitch], d = proj[o + pitch + 1];
                        float top = a + fu * (b - a), bottom = c + fu * (d - c);
                        acc[base + kk] += (top + fv * (bottom - top)) * w2;
                    }
                }
            }
            for (int kk = 0; kk < nz; kk++)
                for (int i = 0; i < n; i++) out[kk][j * n + i] += acc[i * nz + kk];
        });
    }

    /** Any trajectory: u, v and w from the matrix at every voxel. */
    void backprojectGeneral(float[][] q, int bandFirst, int bandRows, int k0, float[][] out) {
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
