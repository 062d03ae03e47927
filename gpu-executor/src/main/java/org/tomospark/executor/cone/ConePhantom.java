package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.phantom.Ellipsoid;
import org.tomospark.executor.phantom.Phantom3D;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * An analytic cone-beam phantom of ellipsoids in world millimetres with attenuation in 1/mm, and its exact data: each
 * detector pixel is the mean over sub × sub rays from the source to points spread over the pixel of the exact line
 * integral Σ μ·(chord length through each ellipsoid), solved ray by ray (never the back-projector's model), and its
 * ground truth is each voxel's mean attenuation over sub³ points.
 */
public final class ConePhantom {
    private final List<Ellipsoid> parts;
    /** Each part's rotation about z, cos and sin, computed once: they are needed for every ray and every point. */
    private final double[] cos, sin;

    /** Ellipsoids in mm (semi-axes, centre; rotated about z by phiDeg) with density in 1/mm. */
    public ConePhantom(List<Ellipsoid> parts) {
        this.parts = List.copyOf(parts);
        this.cos = new double[parts.size()];
        this.sin = new double[parts.size()];
        for (int i = 0; i < cos.length; i++) {
            double phi = Math.toRadians(this.parts.get(i).phiDeg());
            cos[i] = Math.cos(phi);
            sin[i] = Math.sin(phi);
        }
    }

    /**
     * The 3-D modified Shepp–Logan phantom ({@link Phantom3D#modifiedSheppLogan()}) scaled so that its unit sphere has
     * radius {@code radiusMm}, and its densities by {@code mu} (1/mm).
     */
    public static ConePhantom sheppLogan(double radiusMm, double mu) {
        List<Ellipsoid> l = new ArrayList<>();
        for (Ellipsoid e : Phantom3D.modifiedSheppLogan())
            l.add(new Ellipsoid(e.density() * mu, e.a() * radiusMm, e.b() * radiusMm, e.c() * radiusMm, e.x0() * radiusMm,
                    e.y0() * radiusMm, e.z0() * radiusMm, e.phiDeg()));
        return new ConePhantom(l);
    }

    public List<Ellipsoid> parts() {
        return parts;
    }

    /** Attenuation at (x, y, z), 1/mm. */
    public double density(double x, double y, double z) {
        double d = 0;
        for (int i = 0; i < cos.length; i++) {
            Ellipsoid e = parts.get(i);
            double c = cos[i], s = sin[i];
            double dx = x - e.x0(), dy = y - e.y0(), dz = z - e.z0();
            double lx = (dx * c + dy * s) / e.a(), ly = (-dx * s + dy * c) / e.b(), lz = dz / e.c();
            if (lx * lx + ly * ly + lz * lz <= 1) d += e.density();
        }
        return d;
    }

    /** ∫ μ along the segment from a to b (world mm): the exact chord of each ellipsoid times its density. */
    public double lineIntegral(double ax, double ay, double az, double bx, double by, double bz) {
        double len = Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay) + (bz - az) * (bz - az)), sum = 0;
        for (int i = 0; i < cos.length; i++) {
            Ellipsoid e = parts.get(i);
            double c = cos[i], s = sin[i];
            // the segment in the ellipsoid's frame, scaled to the unit sphere: o + t·d, t in [0, 1]
            double ox = ax - e.x0(), oy = ay - e.y0(), oz = az - e.z0(), dx = bx - ax, dy = by - ay, dz = bz - az;
            double o1 = (ox * c + oy * s) / e.a(), o2 = (-ox * s + oy * c) / e.b(), o3 = oz / e.c();
            double d1 = (dx * c + dy * s) / e.a(), d2 = (-dx * s + dy * c) / e.b(), d3 = dz / e.c();
            double dd = d1 * d1 + d2 * d2 + d3 * d3, od = o1 * d1 + o2 * d2 + o3 * d3, oo = o1 * o1 + o2 * o2 + o3 * o3;
            double disc = od * od - dd * (oo - 1);
            if (disc <= 0) continue;
            double r = Math.sqrt(disc), t0 = Math.max(0, (-od - r) / dd), t1 = Math.min(1, (-od + r) / dd);
            if (t1 > t0) sum += e.density() * (t1 - t0) * len;
        }
        return sum;
    }

    /**
     * The line integrals of projection p on g's circular trajectory (its scalars; matrices are not used), each pixel the
     * mean of sub × sub rays to points evenly spread over it; cols × rows, row-major.
     */
    public float[] project(ConeGeometry g, int p, int sub) {
        double t = g.angle(p), c = Math.cos(t), s = Math.sin(t);
        double sx = g.dso() * c, sy = g.dso() * s, off = g.dso() - g.dsd();
        float[] out = new float[g.cols() * g.rows()];
        IntStream.range(0, g.rows()).parallel().forEach(r -> {
            for (int u = 0; u < g.cols(); u++) {
                double sum = 0;
                for (int a = 0; a < sub; a++)
                    for (int b = 0; b < sub; b++) {
                        double um = (u - 0.5 + (a + 0.5) / sub - g.cu()) * g.du(), vm = (r - 0.5 + (b + 0.5) / sub - g.cv()) * g.dv();
                        // the detector point: its centre (DSO − DSD)(cos, sin, 0) plus um along (−sin, cos, 0) and vm along z
                        double dx = off * c - um * s, dy = off * s + um * c;
                        sum += lineIntegral(sx, sy, 0, dx, dy, vm);
                    }
                out[r * g.cols() + u] = (float) (sum / (sub * sub));
            }
        });
        return out;
    }

    /** Slice k of the volume's ground truth: each voxel's mean attenuation over sub³ points, image[j·n + i]. */
    public float[] truth(ConeVolume vol, int k, int sub) {
        int n = vol.n();
        double s = vol.voxel();
        float[] out = new float[n * n];
        IntStream.range(0, n).parallel().forEach(j -> {
            for (int i = 0; i < n; i++) {
                double sum = 0;
                for (int a = 0; a < sub; a++)
                    for (int b = 0; b < sub; b++)
                        for (int cc = 0; cc < sub; cc++) {
                            double f = -0.5 + 0.5 / sub;
                            sum += density(vol.x(i) + (f + (double) a / sub) * s, vol.y(j) + (f + (double) b / sub) * s,
                                    vol.z(k) + (f + (double) cc / sub) * s);
                        }
                out[j * n + i] = (float) (sum / (sub * sub * sub));
            }
        });
        return out;
    }
}
