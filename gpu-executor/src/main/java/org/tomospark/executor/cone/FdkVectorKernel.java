package org.tomospark.executor.cone;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The circular trajectory's column path ({@link FdkBackprojector}) on the JDK Vector API: one vector holds eight
 * consecutive slices of a pixel column, and no read is a gather.
 * <ul>
 *   <li>Layout: each projection's band is copied transposed, a detector column's rows contiguous, with zero rows above
 *       and below the band and a zero column either side; eight consecutive rows of a column are one vector load.</li>
 *   <li>Per pixel column (x, y) and projection, as in the scalar path: u, its column weight fu, 1/w², and
 *       v = v0 + z·dv/voxel down the column; four projections at once, in double.</li>
 *   <li>Per chunk of eight slices whose first lies at v = vb: lane l samples v = vb + l·dv, row floor(vb) + l + e_l.
 *       The offset e_l takes few values (7·|dv − 1| + 2 at most). For each value e, the rows floor(vb) + e + l of the
 *       two detector columns are two loads, interpolated in u; each lane keeps the one of its own e (a blend), then the
 *       chunk is interpolated in v. The cost grows with |dv − 1|, so volumes whose voxels span more than
 *       {@link #MAX_DV} detector rows take the scalar path. Two chunks go side by side, for the core's parallelism.</li>
 *   <li>Chunks start at multiples of eight slices of the volume, whatever the slab: a voxel's arithmetic does not depend
 *       on where its slab starts, so a slab's slices equal the same slices of the whole volume bit for bit.</li>
 *   <li>Precision: l·dv splits exactly into whole rows and a fraction (dv cut to 12 significant bits, so that l·dv is
 *       exact, plus the small rest), and each chunk's start is taken in double: the fraction within a few float ulps,
 *       as the scalar path's.</li>
 *   <li>Work: tiles of 16 × 16 columns are handed out one at a time to the threads of the caller's fork-join pool; a
 *       tile accumulates its columns over all projections in order in its own array, so every voxel's sum is the same
 *       whatever the number of threads.</li>
 * </ul>
 */
final class FdkVectorKernel {
    /** Slices per vector: 256-bit vectors of floats, whatever the machine prefers, so that results do not depend on it. */
    static final int L = 8;
    /** Detector rows per voxel beyond which the scalar path is taken (the blends per chunk grow with dv). */
    static final double MAX_DV = 4;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_256;
    private static final int TILE = 16, PROJECTIONS_PER_PASS = 8, DL = 4;
    /** Adding then subtracting it rounds a float (|x| < 2²²) or a double (|x| < 2⁵¹) to a whole number. */
    private static final float ROUND_F = 0x1.8p23f;
    private static final double ROUND_D = 0x1.8p52;
    /** Scales a fraction in [0, 1) so that it rounds to a float below 1. */
    private static final double BELOW_ONE = 1 - 0x1p-24;
    private static final FloatVector LANE = FloatVector.fromArray(F, new float[]{0, 1, 2, 3, 4, 5, 6, 7}, 0);
    private static final FloatVector ONE = FloatVector.broadcast(F, 1f), ZERO = FloatVector.zero(F);
    private static final DoubleVector ONE_D = DoubleVector.broadcast(D, 1);

    private FdkVectorKernel() {
    }

    /** Whether this machine runs 256-bit float vectors natively (else the Vector API would emulate them, slowly). */
    static boolean supported() {
        return FloatVector.SPECIES_PREFERRED.vectorBitSize() >= F.vectorBitSize();
    }

    /** The fewest and the most detector rows one voxel step moves along a column of the volume, over every projection. */
    static double[] rowSteps(ConeGeometry g, ConeVolume vol) {
        int n = vol.n();
        double least = Double.POSITIVE_INFINITY, most = 0;
        for (int p = 0; p < g.numProjections(); p++) {
            double[] m = g.matrix(p).m();
            // w is affine in (x, y): its extremes, and the step's, lie at corners of the slice
            for (int c = 0; c < 4; c++) {
                double x = vol.x((c & 1) == 0 ? 0 : n - 1), y = vol.y((c & 2) == 0 ? 0 : n - 1);
                double step = m[6] * vol.voxel() / (m[8] * x + m[9] * y + m[11]);
                least = Math.min(least, step);
                most = Math.max(most, step);
            }
        }
        return new double[]{least, most};
    }

    /**
     * {@link FdkBackprojector#backproject} on a circular trajectory; steps: {@link #rowSteps}, the most at most
     * {@link #MAX_DV}.
     */
    static void backproject(ConeGeometry g, ConeVolume vol, double[] steps, float[][] q, int bandFirst, int bandRows, int k0,
                            float[][] out) {
        int np = q.length, cols = g.cols();
        // zero rows a chunk may read beyond the band: eight, plus its blend's offsets (|7·dv − 7| + 1), plus one
        int spread = Math.max(0, Math.max((int) Math.ceil(7 * steps[1]) - 7, 7 - (int) Math.floor(7 * steps[0])));
        int pad = 10 + spread, stride = bandRows + 2 * pad;
        float[][] t = new float[np][];
        IntStream.range(0, np).parallel().forEach(p -> t[p] = transposed(q[p], cols, bandRows, pad, stride));
        Geometry geo = new Geometry(g, vol, np, k0, out.length, bandFirst, bandRows, pad, stride);
        int n = vol.n(), tiles = (n + TILE - 1) / TILE;
        // tiles handed out one at a time, so that a thread slowed down holds the others back by one tile at most
        AtomicInteger next = new AtomicInteger();
        ForkJoinPool pool = ForkJoinTask.inForkJoinPool() ? ForkJoinTask.getPool() : ForkJoinPool.commonPool();
        IntStream.range(0, Math.min(tiles * tiles, pool.getParallelism() + 1)).parallel().forEach(worker -> {
            for (int tile; (tile = next.getAndIncrement()) < tiles * tiles; ) {
                int j0 = tile / tiles * TILE, i0 = tile % tiles * TILE;
                new Tile(geo, i0, Math.min(n, i0 + TILE), j0, Math.min(n, j0 + TILE)).run(t, out);
            }
        });
    }

    /** Detector column c (−1 to cols) at (c + 1)·stride, band row r at + pad + r; zeros around. */
    private static float[] transposed(float[] band, int cols, int bandRows, int pad, int stride) {
        float[] d = new float[(cols + 2) * stride];
        for (int r = 0; r < bandRows; r++)
            for (int c = 0, o = stride + pad + r, i = r * cols; c < cols; c++, o += stride) d[o] = band[i + c];
        return d;
    }

    /** What every tile shares: the matrices by element (m[e][p]), the volume's, the chunks' and the band's constants. */
    private static final class Geometry {
        final double[][] m;
        final ConeVolume vol;
        /** z of each chunk's first slice. */
        final double[] z;
        /** first: the slab's first slice within the first chunk. */
        final int np, cols, nz, first, chunks, vLo, vHi, rowOffset, stride;

        Geometry(ConeGeometry g, ConeVolume vol, int np, int k0, int nz, int bandFirst, int bandRows, int pad, int stride) {
            this.np = np;
            int padded = (np + DL - 1) / DL * DL;
            m = new double[12][padded];
            for (int p = 0; p < padded; p++) {
                double[] mp = g.matrix(Math.min(p, np - 1)).m();
                for (int e = 0; e < 12; e++) m[e][p] = mp[e];
            }
            this.vol = vol;
            this.cols = g.cols();
            this.nz = nz;
            this.first = k0 % L;
            this.chunks = (first + nz + L - 1) / L;
            this.z = new double[chunks];
            for (int c = 0; c < chunks; c++) z[c] = vol.z(k0 - first + c * L);
            // rows a voxel may read: beyond them (off the detector) zero; within them the band holds it (SlabPlanner)
            this.vLo = bandFirst - 1;
            this.vHi = bandFirst + bandRows - 1;
            this.rowOffset = pad - bandFirst;
            this.stride = stride;
        }
    }

    /** A tile of columns: its slab accumulated over every projection, then added to the output. */
    private static final class Tile {
        private final Geometry geo;
        private final int i0, i1, j0, j1;
        private final float[] acc;
        private final double[] floorU = new double[DL], fracU = new double[DL], weight = new double[DL], vAt0 = new double[DL],
                vPerZ = new double[DL];

        Tile(Geometry geo, int i0, int i1, int j0, int j1) {
            this.geo = geo;
            this.i0 = i0;
            this.i1 = i1;
            this.j0 = j0;
            this.j1 = j1;
            this.acc = new float[(i1 - i0) * (j1 - j0) * geo.chunks * L];
        }

        void run(float[][] t, float[][] out) {
            // a few projections per pass over the tile: their bands' parts stay in cache while every column reads them
            for (int p0 = 0; p0 < geo.np; p0 += PROJECTIONS_PER_PASS) {
                int p1 = Math.min(geo.np, p0 + PROJECTIONS_PER_PASS);
                for (int j = j0, c = 0; j < j1; j++)
                    for (int i = i0; i < i1; i++, c++)
                        for (int p = p0; p < p1; p += DL)
                            column(t, geo.vol.x(i), geo.vol.y(j), p, Math.min(DL, p1 - p), c * geo.chunks * L);
            }
            int n = geo.vol.n(), w = i1 - i0;
            for (int j = j0; j < j1; j++)
                for (int i = i0; i < i1; i++) {
                    int base = ((j - j0) * w + i - i0) * geo.chunks * L + geo.first, pixel = j * n + i;
                    for (int k = 0; k < geo.nz; k++) out[k][pixel] += acc[base + k];
                }
        }

        /** Column (x, y) for projections p to p + count − 1: where it projects in each, then its chunks. */
        private void column(float[][] t, double x, double y, int p, int count, int base) {
            double[][] m = geo.m;
            DoubleVector iw = ONE_D.div(row(m[8], p, x).add(row(m[9], p, y)).add(at(m[11], p)));
            DoubleVector u = row(m[0], p, x).add(row(m[1], p, y)).add(at(m[3], p)).mul(iw);
            // v = vAt0 + z·vPerZ
            row(m[4], p, x).add(row(m[5], p, y)).add(at(m[7], p)).mul(iw).intoArray(vAt0, 0);
            at(m[6], p).mul(iw).intoArray(vPerZ, 0);
            DoubleVector fl = floor(u);
            fl.intoArray(floorU, 0);
            u.sub(fl).intoArray(fracU, 0);
            iw.mul(iw).intoArray(weight, 0);
            for (int l = 0; l < count; l++) {
                int iu = (int) floorU[l];
                if (iu < -1 || iu >= geo.cols) continue;
                chunks(t[p + l], base, (iu + 1) * geo.stride + geo.rowOffset, (float) fracU[l], (float) weight[l], vAt0[l], vPerZ[l]);
            }
        }

        /**
         * The column's chunks in one projection: o indexes detector row 0 of column iu in the transposed band (column
         * iu + 1 follows at o + stride). Two chunks at a time: independent work side by side keeps the core busy.
         */
        private void chunks(float[] t, int base, int o, float fus, float w2s, double vAt0, double vPerZ) {
            int stride = geo.stride;
            double dv = vPerZ * geo.vol.voxel();
            Lanes ln = new Lanes(dv);
            FloatVector fu = FloatVector.broadcast(F, fus), w2 = FloatVector.broadcast(F, w2s);
            FloatVector whole = floor(LANE.mul(ln.hi)), frac = LANE.mul(ln.hi).sub(whole).add(LANE.mul(ln.lo)), offset = whole.sub(LANE);
            FloatVector eFirst = FloatVector.broadcast(F, ln.eLo + 1f);
            int eLo = ln.eLo, reach = ln.eHi + L - 1, k = 0;
            for (; k + 1 < geo.chunks; k += 2) {
                double vb = vAt0 + geo.z[k] * vPerZ, start = Math.floor(vb), vb2 = vAt0 + geo.z[k + 1] * vPerZ, start2 = Math.floor(vb2);
                int r = (int) start, r2 = (int) start2;
                boolean in = r <= geo.vHi && r + reach >= geo.vLo, in2 = r2 <= geo.vHi && r2 + reach >= geo.vLo;
                if (!in || !in2) {
                    if (in) one(t, base + k * L, o + r, fus, w2s, dv, fraction(vb - start));
                    if (in2) one(t, base + k * L + L, o + r2, fus, w2s, dv, fraction(vb2 - start2));
                    continue;
                }
                float f = fraction(vb - start), f2 = fraction(vb2 - start2);
                FloatVector sv = frac.add(f), sv2 = frac.add(f2);
                FloatVector carry = ZERO.blend(ONE, sv.compare(VectorOperators.GE, 1f)), fv = sv.sub(carry), e = offset.add(carry);
                FloatVector carry2 = ZERO.blend(ONE, sv2.compare(VectorOperators.GE, 1f)), fv2 = sv2.sub(carry2), e2 = offset.add(carry2);
                int last = Math.max(ln.last(f), ln.last(f2)), at = o + r + eLo, at2 = o + r2 + eLo;
                FloatVector a = FloatVector.fromArray(F, t, at);
                FloatVector top = FloatVector.fromArray(F, t, at + stride).sub(a).fma(fu, a);
                a = FloatVector.fromArray(F, t, at2);
                FloatVector top2 = FloatVector.fromArray(F, t, at2 + stride).sub(a).fma(fu, a);
                a = FloatVector.fromArray(F, t, ++at);
                FloatVector bottom = FloatVector.fromArray(F, t, at + stride).sub(a).fma(fu, a), next = bottom;
                a = FloatVector.fromArray(F, t, ++at2);
                FloatVector bottom2 = FloatVector.fromArray(F, t, at2 + stride).sub(a).fma(fu, a), next2 = bottom2, ev = eFirst;
                for (int ee = eLo + 1; ee <= last; ee++) {
                    FloatVector cur = next, cur2 = next2;
                    a = FloatVector.fromArray(F, t, ++at);
                    next = FloatVector.fromArray(F, t, at + stride).sub(a).fma(fu, a);
                    a = FloatVector.fromArray(F, t, ++at2);
                    next2 = FloatVector.fromArray(F, t, at2 + stride).sub(a).fma(fu, a);
                    VectorMask<Float> mine = e.compare(VectorOperators.EQ, ev), mine2 = e2.compare(VectorOperators.EQ, ev);
                    top = top.blend(cur, mine);
                    bottom = bottom.blend(next, mine);
                    top2 = top2.blend(cur2, mine2);
                    bottom2 = bottom2.blend(next2, mine2);
                    ev = ev.add(ONE);
                }
                int ai = base + k * L;
                bottom.sub(top).fma(fv, top).fma(w2, FloatVector.fromArray(F, acc, ai)).intoArray(acc, ai);
                bottom2.sub(top2).fma(fv2, top2).fma(w2, FloatVector.fromArray(F, acc, ai + L)).intoArray(acc, ai + L);
            }
            if (k < geo.chunks) {
                double vb = vAt0 + geo.z[k] * vPerZ, start = Math.floor(vb);
                int r = (int) start;
                if (r <= geo.vHi && r + reach >= geo.vLo) one(t, base + k * L, o + r, fus, w2s, dv, fraction(vb - start));
            }
        }

        /**
         * A chunk alone (the last of an odd count, or beside one that misses the band), as in {@link #chunks}: its own
         * vectors and lanes, so that no object crosses the call (it would be allocated); acc[ai ..], rows from or, the
         * first lane at fraction f.
         */
        private void one(float[] t, int ai, int or, float fus, float w2s, double dv, float f) {
            Lanes ln = new Lanes(dv);
            int stride = geo.stride, at = or + ln.eLo;
            FloatVector fu = FloatVector.broadcast(F, fus), whole = floor(LANE.mul(ln.hi));
            FloatVector sv = LANE.mul(ln.hi).sub(whole).add(LANE.mul(ln.lo)).add(f);
            FloatVector carry = ZERO.blend(ONE, sv.compare(VectorOperators.GE, 1f)), fv = sv.sub(carry), e = whole.sub(LANE).add(carry);
            FloatVector a = FloatVector.fromArray(F, t, at);
            FloatVector top = FloatVector.fromArray(F, t, at + stride).sub(a).fma(fu, a);
            a = FloatVector.fromArray(F, t, ++at);
            FloatVector bottom = FloatVector.fromArray(F, t, at + stride).sub(a).fma(fu, a), next = bottom;
            FloatVector ev = FloatVector.broadcast(F, ln.eLo + 1f);
            for (int ee = ln.eLo + 1, last = ln.last(f); ee <= last; ee++) {
                FloatVector cur = next;
                a = FloatVector.fromArray(F, t, ++at);
                next = FloatVector.fromArray(F, t, at + stride).sub(a).fma(fu, a);
                VectorMask<Float> mine = e.compare(VectorOperators.EQ, ev);
                top = top.blend(cur, mine);
                bottom = bottom.blend(next, mine);
                ev = ev.add(ONE);
            }
            bottom.sub(top).fma(fv, top).fma(FloatVector.broadcast(F, w2s), FloatVector.fromArray(F, acc, ai)).intoArray(acc, ai);
        }
    }

    /**
     * The lane offsets l·dv of a column in one projection: dv split into hi (12 significant bits, so that l·hi is exact)
     * and lo; lane l's row offset from the chunk's is floor(l·hi) plus a carry from the fraction, so its e (offset less l)
     * lies within [eLo, eHi].
     */
    private static final class Lanes {
        final float hi, lo, frac7;
        final int eLo, eHi, e7;
        final boolean rising;

        Lanes(double dv) {
            hi = Float.intBitsToFloat(Float.floatToRawIntBits((float) dv) & 0xFFFFF000);
            lo = (float) (dv - hi);
            e7 = (int) Math.floor(7.0 * hi) - 7;
            eLo = Math.min(0, e7);
            eHi = Math.max(0, e7) + 1;
            // dv ≥ 1: e rises with the lane from e_0 = 0 (a 2⁻¹¹ margin per lane against rounding), so lane 7's e bounds a
            // chunk's; its fraction from the lanes' own float operations
            rising = hi >= 1;
            float l7 = 7 * hi, whole7 = l7 + ROUND_F - ROUND_F;
            if (whole7 > l7) whole7 -= 1;
            frac7 = l7 - whole7 + 7 * lo;
        }

        /** The largest e of a chunk whose first lane lies at fraction f (when dv < 1, a bound: eHi). */
        int last(float f) {
            return rising ? e7 + (frac7 + f >= 1 ? 1 : 0) : eHi;
        }
    }

    /** A fraction in [0, 1) as a float below 1. */
    private static float fraction(double f) {
        return (float) (f * BELOW_ONE);
    }

    /** Matrix element e of four projections from p. */
    private static DoubleVector at(double[] me, int p) {
        return DoubleVector.fromArray(D, me, p);
    }

    /** Matrix element e of four projections from p times a coordinate. */
    private static DoubleVector row(double[] me, int p, double s) {
        return at(me, p).mul(s);
    }

    private static FloatVector floor(FloatVector x) {
        FloatVector r = x.add(ROUND_F).sub(ROUND_F);
        return r.sub(ONE, r.compare(VectorOperators.GT, x));
    }

    private static DoubleVector floor(DoubleVector x) {
        DoubleVector r = x.add(ROUND_D).sub(ROUND_D);
        return r.sub(ONE_D, r.compare(VectorOperators.GT, x));
    }
}
