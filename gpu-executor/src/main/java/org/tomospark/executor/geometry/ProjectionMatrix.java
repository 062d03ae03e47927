package org.tomospark.executor.geometry;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A 3×4 projection matrix in RabbitCT's convention: {@code [u·w, v·w, w]ᵀ = P·[x, y, z, 1]ᵀ}, with (u, v) in detector
 * pixels (u along the columns of /exchange/data, v along its rows) and (x, y, z) in world millimetres. It is kept
 * normalised so that w = 1 at the world origin (the isocentre): w is then the distance from the source along the
 * central ray in units of the source–axis distance, and FDK's distance weight is 1/w². Row-major, 12 doubles.
 */
public record ProjectionMatrix(double[] m) implements Serializable {
    public ProjectionMatrix {
        if (m == null || m.length != 12) throw new IllegalArgumentException("a projection matrix has 12 elements (3x4)");
        for (double d : m) if (!Double.isFinite(d)) throw new IllegalArgumentException("a projection matrix holds " + d);
        m = m.clone();
    }

    /** The same projection scaled so that w = 1 at the origin; fails when the origin is not in front of the source. */
    public ProjectionMatrix normalised(String what) {
        double w0 = m[11];
        if (!(w0 > 0))
            throw new IllegalArgumentException(what + ": w at the origin is " + w0 + ", not positive: the isocentre must lie in front of "
                    + "the source (scale the matrix by a positive factor, or negate it)");
        double[] n = m.clone();
        for (int i = 0; i < 12; i++) n[i] /= w0;
        return new ProjectionMatrix(n);
    }

    public double get(int row, int col) {
        return m[row * 4 + col];
    }

    /** Writes (u, v, w) of the world point (x, y, z) into out. */
    public void project(double x, double y, double z, double[] out) {
        double uw = m[0] * x + m[1] * y + m[2] * z + m[3];
        double vw = m[4] * x + m[5] * y + m[6] * z + m[7];
        double w = m[8] * x + m[9] * y + m[10] * z + m[11];
        out[0] = uw / w;
        out[1] = vw / w;
        out[2] = w;
    }

    /** The row-major elements. */
    @Override
    public double[] m() {
        return m.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProjectionMatrix p && Arrays.equals(m, p.m);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(m);
    }

    @Override
    public String toString() {
        return "ProjectionMatrix" + Arrays.toString(m);
    }
}
