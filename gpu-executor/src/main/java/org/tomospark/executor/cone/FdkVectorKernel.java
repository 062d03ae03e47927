package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

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
 *       and below the band and zero columns either side; eight consecutive rows of a column are one vector load.</li>
 *   <li>Work goes by groups of four projections of a pixel column (x, y). Per group, in double, four projections at
 *       once: as in the scalar path, u, its column weight fu, 1/w², and v = v0 + z·dv/voxel down the column; where
 *       each chunk of eight slices starts (v rounded down, and its fraction); which rows of the band the chunks read.</li>
 *   <li>Those rows of the two detector columns iu and iu + 1 are interpolated in u once, into a short array h per
 *       projection (contiguous loads, the four projections side by side).</li>
 *   <li>Per chunk whose first lane lies at v = vb: lane l samples v = vb + l·dv, row floor(vb) + l + e_l. The offset e_l
 *       takes few values, the same range in every column and projection of the volume ({@link #offsets}: from the
 *       volume's least and most rows per voxel step). For each value, the rows floor(vb) + e + l of h are one load;
 *       each lane keeps the one of its own e (a blend), then the chunk is interpolated in v. Up to four values
 *       (dv within about [0.86, 1.57)) in straight code; the cost grows with |dv − 1|, so volumes whose voxels span
 *       more than {@link #MAX_DV} detector rows take the scalar path. A chunk takes the group's four projections in one
 *       loop, its sum kept in a register.</li>
 *   <li>Chunks start at multiples of eight slices of the volume, whatever the slab: a voxel's arithmetic does not depend
 *       on where its slab starts, so a slab's slices equal the same slices of the whole volume bit for bit.</li>
 *   <li>Precision: l·dv splits exactly into whole rows and a fraction (dv = hi + lo, hi a whole number of 1/1024 rows,
 *       so that l·hi is exact in float, plus the small rest), and each chunk's start is taken in double: the fraction
 *       within a few float ulps, as the scalar path's.</li>
 *   <li>Work: tiles of 16 × 16 columns are handed out one at a time to the threads of the caller's fork-join pool; a
 *       tile accumulates its columns over all projections in order in its own array, so every voxel's sum is the same
 *       whatever the number of threads.</li>
 *   <li>The JIT keeps vectors in registers only within one compilation, and whether it inlines a call depends on a
 *       budget of nodes and on what it compiled before (a helper compiled on its own first, with its vectors boxed, is
 *       too large to inline later): only tiny helpers take or return vectors, the chunk loop's vectors live within one
 *       pass of its loop over projections; conversions to float go through the 256-bit species only (one class in the
 *       JIT's type profiles); scalar rounding and conversion to float, which on x86 wait for their register's previous
 *       value, are done on vectors.</li>
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
    /** Relative margin on the row steps against their rounding. */
    private static final double MARGIN = 0x1p-20;
    private static final FloatVector LANE = FloatVector.fromArray(F, new float[]{0, 1, 2, 3, 4, 5, 6, 7}, 0);
    private static final FloatVector ONE = FloatVector.broadcast(F, 1f);
    private static final DoubleVector ONE_D = DoubleVector.broadcast(D, 1), ZERO_D = DoubleVector.zero(D);
    private static final DoubleVector LANE_D = DoubleVector.fromArray(D, new double[]{0, 1, 2, 3}, 0);

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
        // zero rows a chunk may read beyond the band: its eight lanes, its lanes' offsets, the interpolation's second row
        int[] e = offsets(steps);
        int pad = L + 2 + Math.max(3, e[1] - e[0]), stride = bandRows + 2 * pad;
        float[][] t = new float[np][];
        IntStream.range(0, np).parallel().forEach(p -> t[p] = transposed(q[p], cols, bandRows, pad, stride));
        Geometry geo = new Geometry(g, vol, steps, np, k0, out.length, bandFirst, bandRows, pad, stride);
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

    /**
     * The least and the most lane offset e over every column and projection, for row steps (detector rows per voxel) from
     * steps[0] to steps[1]: lane l's e is floor(l·hi) − l plus a carry of 0 or 1, hi being dv rounded down to a whole
     * number of 1/1024 rows; so it lies between min(0, e7) and max(0, e7) + 1, e7 = floor(7·hi) − 7, which grows with
     * dv. The steps are widened by a margin against their rounding.
     */
    static int[] offsets(double[] steps) {
        int least = e7(steps[0] * (1 - MARGIN)), most = e7(steps[1] * (1 + MARGIN));
        return new int[]{Math.min(0, least), Math.max(0, most) + 1};
    }

    private static int e7(double dv) {
        return (int) Math.floor(7 * (Math.floor(dv * 1024) * 0x1p-10)) - 7;
    }

    /**
     * Detector column c (−1 to cols) at (c + 1)·stride, band row r at + pad + r; zeros around, and two more columns of
     * zeros after the last, so that an interpolation of a fixed number of rows ({@link Geometry#rows}) from any column
     * reads within the array.
     */
    private static float[] transposed(float[] band, int cols, int bandRows, int pad, int stride) {
        float[] d = new float[(cols + 4) * stride + L];
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
        /**
         * Every lane's offset e (its row less the chunk's first row and its lane number) lies within [eLo, eLo + values − 1]
         * in every column and projection; rows: how many rows of h a column's chunks read, at most.
         */
        final int eLo, values, rows;

        Geometry(ConeGeometry g, ConeVolume vol, double[] steps, int np, int k0, int nz, int bandFirst, int bandRows, int pad,
                 int stride) {
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
            int[] e = offsets(steps);
            this.eLo = e[0];
            this.values = e[1] - e[0] + 1;
            // the last chunk's first row lies (chunks − 1)·8·dv rows beyond the first's, give or take one; then its lanes'
            // rows, and at least four offsets (sample's straight code)
            this.rows = Math.min(stride, (int) Math.ceil((chunks - 1) * L * steps[1] * (1 + MARGIN)) + 1 + Math.max(4, values) + L);
        }
    }

    /** A tile of columns: its slab accumulated over every projection, then added to the output. */
    private static final class Tile {
        private final Geometry geo;
        private final int i0, i1, j0, j1;
        private final float[] acc;
        /** Per projection of a group of four: floor(u), v at z = 0 and dv/dz. */
        private final double[] floorU = new double[DL], vAt0 = new double[DL], vPerZ = new double[DL];
        /** Per projection: where the rows its chunks read start in the transposed band. */
        private final double[] from = new double[DL];
        /** Per projection, in a float vector's low half: u's fraction, 1/w², and dv = hi + lo. */
        private final float[] fu = new float[2 * DL], w2 = new float[2 * DL], hi = new float[2 * DL], lo = new float[2 * DL];
        /** Per projection, eight lanes each: the fraction of l·dv, and its whole rows less l and eLo. */
        private final float[] frac = new float[DL * L], offset = new float[DL * L];
        /**
         * Per chunk and projection (chunk · 4 + projection): its first lane's v rounded down, and the fraction; the index in
         * h of that row, or −1 where the band misses the chunk.
         */
        private final double[] starts, rowAt;
        private final float[] fractions;
        /** Per projection, hLength floats: the rows its chunks read, interpolated in u, from row first + eLo on. */
        private final float[] h;
        private final int hLength;

        Tile(Geometry geo, int i0, int i1, int j0, int j1) {
            this.geo = geo;
            this.i0 = i0;
            this.i1 = i1;
            this.j0 = j0;
            this.j1 = j1;
            this.acc = new float[(i1 - i0) * (j1 - j0) * geo.chunks * L];
            this.starts = new double[geo.chunks * DL];
            this.rowAt = new double[geo.chunks * DL];
            this.fractions = new float[geo.chunks * DL + DL];
            this.hLength = geo.stride + L;
            this.h = new float[DL * hLength];
        }

        void run(float[][] t, float[][] out) {
            // a few projections per pass over the tile: their bands' parts stay in cache while every column reads them
            for (int p0 = 0; p0 < geo.np; p0 += PROJECTIONS_PER_PASS) {
                int p1 = Math.min(geo.np, p0 + PROJECTIONS_PER_PASS);
                for (int j = j0, c = 0; j < j1; j++)
                    for (int i = i0; i < i1; i++, c++)
                        for (int p = p0; p < p1; p += DL) {
                            group(t, geo.vol.x(i), geo.vol.y(j), p, Math.min(DL, p1 - p));
                            chunks(c * geo.chunks * L);
                        }
            }
            int n = geo.vol.n(), w = i1 - i0;
            for (int j = j0; j < j1; j++)
                for (int i = i0; i < i1; i++) {
                    int base = ((j - j0) * w + i - i0) * geo.chunks * L + geo.first, pixel = j * n + i;
                    for (int k = 0; k < geo.nz; k++) out[k][pixel] += acc[base + k];
                }
        }

        /**
         * Column (x, y) for projections p to p + count − 1 (at most four): where it projects in each, four projections at
         * once in double; where its chunks start; the rows they read, interpolated in u.
         */
        private void group(float[][] t, double x, double y, int p, int count) {
            double[][] m = geo.m;
            DoubleVector iw = ONE_D.div(row(m[8], p, x).add(row(m[9], p, y)).add(at(m[11], p)));
            DoubleVector u = row(m[0], p, x).add(row(m[1], p, y)).add(at(m[3], p)).mul(iw);
            // v = vAt0 + z·vPerZ
            row(m[4], p, x).add(row(m[5], p, y)).add(at(m[7], p)).mul(iw).intoArray(vAt0, 0);
            at(m[6], p).mul(iw).intoArray(vPerZ, 0);
            DoubleVector fl = floor(u);
            fl.intoArray(floorU, 0);
            toFloat(u.sub(fl)).intoArray(fu, 0);
            toFloat(iw.mul(iw)).intoArray(w2, 0);
            prepare(count);
            interpolate(t, p, count);
        }

        /**
         * Where the group's chunks start, in the four projections at once (scalar rounding and conversions to float on x86
         * wait for their register's previous value, which would chain chunk to chunk); which rows they read, and where in h;
         * each projection's lanes.
         */
        private void prepare(int count) {
            DoubleVector vAt0 = DoubleVector.fromArray(D, this.vAt0, 0), vPerZ = DoubleVector.fromArray(D, this.vPerZ, 0);
            for (int k = 0; k < geo.chunks; k++) {
                DoubleVector vb = vPerZ.mul(geo.z[k]).add(vAt0), start = floor(vb);
                start.intoArray(starts, k * DL);
                toFloat(vb.sub(start).mul(BELOW_ONE)).intoArray(fractions, k * DL);
            }
            // dv = hi + lo, hi a whole number of 1/1024 rows (so that l·hi is exact in float)
            DoubleVector dv = vPerZ.mul(geo.vol.voxel()), hi = floor(dv.mul(1024)).mul(0x1p-10);
            toFloat(hi).intoArray(this.hi, 0);
            toFloat(dv.sub(hi)).intoArray(lo, 0);
            // the chunks' first rows rise (or fall) with z: those within the band lie between the first and the last chunk's;
            // none for a projection beyond the count, or whose column iu lies beyond [−1, cols)
            DoubleVector r0 = DoubleVector.fromArray(D, starts, 0), rn = DoubleVector.fromArray(D, starts, (geo.chunks - 1) * DL);
            DoubleVector a = r0.min(rn).max(geo.vLo - (geo.eLo + geo.values + L - 2)), b = r0.max(rn).min(geo.vHi);
            DoubleVector fl = DoubleVector.fromArray(D, floorU, 0);
            VectorMask<Double> any = a.compare(VectorOperators.LE, b).and(LANE_D.compare(VectorOperators.LT, (double) count))
                    .and(fl.compare(VectorOperators.GE, -1.0)).and(fl.compare(VectorOperators.LT, (double) geo.cols));
            // where the band misses the projection, its interpolation reads the start of the band's array: zeros
            ZERO_D.blend(fl.add(1).mul(geo.stride).add(geo.rowOffset + geo.eLo).add(a), any).intoArray(from, 0);
            // projection l's rows from a on lie in h from l·hLength on; a chunk whose first row lies within [a, b] reads them
            DoubleVector first = ZERO_D.blend(a, any), last = ONE_D.neg().blend(b, any), at = LANE_D.mul(hLength).sub(first);
            for (int k = 0; k < geo.chunks; k++) {
                DoubleVector start = DoubleVector.fromArray(D, starts, k * DL);
                VectorMask<Double> in = start.compare(VectorOperators.GE, first).and(start.compare(VectorOperators.LE, last));
                ONE_D.neg().blend(start.add(at), in).intoArray(rowAt, k * DL);
            }
            // each projection's lanes: the fraction of l·dv and its whole rows less l and eLo; floor written out, as a
            // helper that takes a vector, compiled on its own before, is not inlined into a method this large
            for (int l = 0; l < DL; l++) {
                FloatVector lh = LANE.mul(this.hi[l]), r = lh.add(ROUND_F).sub(ROUND_F);
                FloatVector whole = r.sub(ONE, r.compare(VectorOperators.GT, lh));
                lh.sub(whole).add(LANE.mul(lo[l])).intoArray(frac, l * L);
                whole.sub(LANE).sub(geo.eLo).intoArray(offset, l * L);
            }
        }

        /** The group's chunks, adding to the column's accumulators from base on. */
        private void chunks(int base) {
            if (geo.values <= 4) {
                fours(base);
                return;
            }
            for (int k = 0; k < geo.chunks; k++)
                for (int l = 0; l < DL; l++) addAny(base + k * L, l, k);
        }

        /**
         * h: the group's rows from `from` on of column iu interpolated towards column iu + 1's by fu, the four projections
         * side by side, geo.rows rows each (a projection beyond the count reads the first's band).
         */
        private void interpolate(float[][] t, int p, int count) {
            float[] t0 = t[p], t1 = count > 1 ? t[p + 1] : t0, t2 = count > 2 ? t[p + 2] : t0, t3 = count > 3 ? t[p + 3] : t0;
            float f0 = fu[0], f1 = fu[1], f2 = fu[2], f3 = fu[3];
            int a0 = (int) from[0], a1 = (int) from[1], a2 = (int) from[2], a3 = (int) from[3], stride = geo.stride, n = hLength;
            for (int i = 0; i < geo.rows; i += L) {
                interpolate(t0, a0 + i, stride, f0, i);
                interpolate(t1, a1 + i, stride, f1, n + i);
                interpolate(t2, a2 + i, stride, f2, 2 * n + i);
                interpolate(t3, a3 + i, stride, f3, 3 * n + i);
            }
        }

        /**
         * h[at ..] = t[o ..] + fu·(t[o + stride ..] − t[o ..]); fu comes as a float, so that no vector is passed where the
         * JIT does not inline it.
         */
        private void interpolate(float[] t, int o, int stride, float fu, int at) {
            FloatVector a = FloatVector.fromArray(F, t, o);
            FloatVector.fromArray(F, t, o + stride).sub(a).fma(FloatVector.broadcast(F, fu), a).intoArray(h, at);
        }

        /**
         * The chunks of the four projections, each weighted by 1/w², added to the column's accumulators from base on, unless
         * the band misses them; each chunk's sum kept in a register over the four. Lane i samples v = vb + i·dv, row
         * floor(vb) + i + e_i: the fraction sv of vb + i·dv (below 2) carries into e_i where it reaches 1. The lanes' rows
         * are blended from h by offset e (e_i less eLo, 0 to values − 1), then interpolated in v: up to four offsets (dv
         * within about [0.86, 1.57)), in straight code, where a blend whose offset no lane has changes nothing. Every array
         * read of a projection comes before its masks: a read's bounds check may deoptimize, and a mask live there would be
         * converted to booleans for the interpreter on every pass, not only when it happens.
         */
        private void fours(int base) {
            for (int k = 0; k < geo.chunks; k++) {
                int ai = base + k * L;
                FloatVector sum = FloatVector.fromArray(F, acc, ai);
                for (int l = 0; l < DL; l++) {
                    int a = firstRow(l, k);
                    if (a < 0) continue;
                    FloatVector r0 = FloatVector.fromArray(F, h, a), r1 = FloatVector.fromArray(F, h, a + 1);
                    FloatVector r2 = FloatVector.fromArray(F, h, a + 2), r3 = FloatVector.fromArray(F, h, a + 3);
                    FloatVector r4 = FloatVector.fromArray(F, h, a + 4), w = FloatVector.broadcast(F, w2[l]);
                    FloatVector sv = FloatVector.fromArray(F, frac, l * L).add(fractions[k * DL + l]);
                    FloatVector e0 = FloatVector.fromArray(F, offset, l * L);
                    VectorMask<Float> over = sv.compare(VectorOperators.GE, 1f);
                    FloatVector fv = sv.sub(1f, over), e = e0.add(1f, over);
                    VectorMask<Float> one = e.compare(VectorOperators.GE, 1f), two = e.compare(VectorOperators.GE, 2f);
                    VectorMask<Float> three = e.compare(VectorOperators.GE, 3f);
                    FloatVector top = r0.blend(r1, one).blend(r2, two).blend(r3, three);
                    FloatVector bottom = r1.blend(r2, one).blend(r3, two).blend(r4, three);
                    sum = bottom.sub(top).fma(fv, top).fma(w, sum);
                }
                sum.intoArray(acc, ai);
            }
        }

        /** As {@link #fours}, for one chunk k of projection l and any number of offsets. */
        private void addAny(int ai, int l, int k) {
            int at = firstRow(l, k);
            if (at < 0) return;
            FloatVector sv = FloatVector.fromArray(F, frac, l * L).add(fractions[k * DL + l]);
            VectorMask<Float> over = sv.compare(VectorOperators.GE, 1f);
            FloatVector fv = sv.sub(1f, over), e = FloatVector.fromArray(F, offset, l * L).add(1f, over);
            FloatVector top = FloatVector.fromArray(F, h, at), next = FloatVector.fromArray(F, h, at + 1), bottom = next;
            for (int s = 1; s < geo.values; s++) {
                VectorMask<Float> mine = e.compare(VectorOperators.GE, (float) s);
                top = top.blend(next, mine);
                next = FloatVector.fromArray(F, h, at + s + 1);
                bottom = bottom.blend(next, mine);
            }
            bottom.sub(top).fma(fv, top).fma(FloatVector.broadcast(F, w2[l]), FloatVector.fromArray(F, acc, ai)).intoArray(acc, ai);
        }

        /** The index in h of chunk k's first row in projection l, or −1 where the band misses the chunk. */
        private int firstRow(int l, int k) {
            return (int) rowAt[k * DL + l];
        }
    }

    /**
     * Four doubles as floats, in the low half of a 256-bit vector: one float species throughout keeps the JIT's type
     * profiles to one class (with two, it no longer knows a vector's class, and keeps it in memory).
     */
    private static FloatVector toFloat(DoubleVector x) {
        return (FloatVector) x.convertShape(VectorOperators.D2F, F, 0);
    }

    /** Matrix element e of four projections from p. */
    private static DoubleVector at(double[] me, int p) {
        return DoubleVector.fromArray(D, me, p);
    }

    /** Matrix element e of four projections from p times a coordinate. */
    private static DoubleVector row(double[] me, int p, double s) {
        return at(me, p).mul(s);
    }

    private static DoubleVector floor(DoubleVector x) {
        DoubleVector r = x.add(ROUND_D).sub(ROUND_D);
        return r.sub(ONE_D, r.compare(VectorOperators.GT, x));
    }
}
