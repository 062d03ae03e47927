package org.tomospark.executor.center;

import org.tomospark.executor.util.EnumIds;
import org.jtransforms.fft.DoubleFFT_2D;
import org.tomospark.executor.util.Cubic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Automatic centre-of-rotation finding on −log sinograms ({@code nproj × width}, row-major, the convention of
 * {@link org.tomospark.executor.geometry.ScanGeometry}: column j's centre at j, and the projection at θ+π is
 * the mirror image of the one at θ about the axis, {@code p(θ+π)(j) = p(θ)(2c − j)}).
 *
 * <ul>
 *   <li>{@link Method#VO}: Vo, Atwood &amp; Drakopoulos, Opt. Express 22 (2014) 19078. For a candidate centre
 *   the 180° sinogram is extended to 360° by appending its mirror image shifted by {@code 2c − (width−1)}; a
 *   consistent 360° sinogram of an object inside the field of view has no Fourier energy inside a double
 *   wedge (high angular, low detector frequency), so the centre minimises the mean |FFT| there. A coarse
 *   search on a column-binned sinogram is followed by a fine search (0.25 px steps, cubic interpolation) and
 *   a parabolic fit of the metric.</li>
 *   <li>{@link Method#CORRELATION}: pairs of projections 180° apart (exact pairs in 360° scans; in 180°
 *   scans the projection at θ₀+180° is linearly extrapolated in angle from the last two) are compared by
 *   zero-mean normalised cross-correlation of one with the mirror image of the other over their overlap,
 *   for every integer shift; the peak is refined by a parabolic fit. Works for half-acquisition scans too
 *   (any overlap of at least {@code minOverlap} columns).</li>
 * </ul>
 * Neither method needs the centre near the detector centre beyond the chosen search radius.
 */
public final class CenterFinder {
    private CenterFinder() {
    }

    /** The automatic methods. */
    public enum Method {
        VO("vo"), CORRELATION("correlation");

        private final String id;

        Method(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Method parse(String s) {
            return EnumIds.parse(values(), Method::id, s, "centre method");
        }
    }

    /**
     * @param center the centre of rotation in detector pixels
     * @param score  the method's figure of merit at the centre (VO: metric relative to its median over the
     *               coarse search, smaller is sharper; CORRELATION: peak normalised correlation, 1 is perfect)
     */
    public record Result(double center, Method method, double score) {
    }

    public static Result find(Method m, float[][] sinos, int nproj, int width, double[] anglesRad, double searchRadius) {
        return switch (m) {
            case VO -> vo(sinos, nproj, width, anglesRad, searchRadius);
            case CORRELATION -> correlation(sinos, nproj, width, anglesRad, searchRadius, Math.max(8, width / 10));
        };
    }

    // ------------------------------------------------------------------------------------------------ Vo

    /**
     * Vo's method on the mean of the given sinograms (rows of one band).
     *
     * @param searchRadius largest |c − (width−1)/2| searched, in pixels; ≤ 0 for width/4
     */
    public static Result vo(float[][] sinos, int nproj, int width, double[] anglesRad, double searchRadius) {
        double[][] s = half(meanSinogram(sinos, nproj, width), anglesRad);
        int n = s.length;
        double radius = searchRadius > 0 ? searchRadius : width / 4.0;
        // coarse: bin columns to at most ~256
        int bin = Math.max(1, (int) Math.round(width / 256.0));
        int mb = width / bin;
        double[][] sb = new double[n][mb];
        for (int p = 0; p < n; p++)
            for (int j = 0; j < mb; j++) {
                double acc = 0;
                for (int k = 0; k < bin; k++) acc += s[p][j * bin + k];
                sb[p][j] = acc / bin;
            }
        VoMetric coarse = new VoMetric(sb);
        // candidate centres in binned pixels, half-pixel steps (integer shifts)
        double mid = (mb - 1) / 2.0;
        int kMax = Math.min((int) Math.floor(2 * radius / bin), mb - 4);
        double[] cm = new double[2 * kMax + 1];
        IntStream.rangeClosed(-kMax, kMax).parallel().forEach(k -> cm[k + kMax] = coarse.metric(2 * (mid + k / 2.0) - (mb - 1)));
        int best = argmin(cm);
        double coarseBinned = mid + (best - kMax) / 2.0;
        double coarseFull = bin * coarseBinned + (bin - 1) / 2.0;
        double median = median(cm);
        // fine: full resolution, 0.25 px steps over ±max(1.5, bin/2 + 0.5) px (the coarse step is bin/2)
        VoMetric fine = new VoMetric(s);
        double half = Math.max(1.5, bin / 2.0 + 0.5);
        int steps = (int) Math.round(half / 0.25);
        double[] fm = new double[2 * steps + 1];
        double[] fc = new double[2 * steps + 1];
        IntStream.rangeClosed(-steps, steps).parallel().forEach(i -> {
            double c = coarseFull + i * 0.25;
            fc[i + steps] = c;
            fm[i + steps] = c < 1 || c > width - 2 ? Double.MAX_VALUE : fine.metric(2 * c - (width - 1));
        });
        int fb = argmin(fm);
        double c = fc[fb];
        if (fb > 0 && fb < fm.length - 1) c += 0.25 * parabolicOffset(fm[fb - 1], fm[fb], fm[fb + 1]);
        double fineMedian = median(fm);
        return new Result(c, Method.VO, fm[fb] / Math.max(1e-30, Math.max(median, fineMedian)));
    }

    /** The Fourier metric of one sinogram; thread-safe. */
    static final class VoMetric {
        final double[][] sino;      // n × m
        final double[][] flipped;   // n × m
        final int n, m, rows2;
        final boolean[] mask;       // rows2 × m, in FFT order
        final double mean;
        final ThreadLocal<DoubleFFT_2D> fft;

        VoMetric(double[][] sino) {
            this.sino = sino;
            this.n = sino.length;
            this.m = sino[0].length;
            this.rows2 = 2 * n;
            flipped = new double[n][m];
            double acc = 0;
            for (int p = 0; p < n; p++)
                for (int j = 0; j < m; j++) {
                    flipped[p][j] = sino[p][m - 1 - j];
                    acc += sino[p][j];
                }
            mean = acc / ((double) n * m);
            mask = doubleWedge(rows2, m, m / 2.0);
            fft = ThreadLocal.withInitial(() -> new DoubleFFT_2D(rows2, m));
        }

        /** Mean |FFT| of [sino; mirror shifted by s] inside the double-wedge mask. */
        double metric(double s) {
            double[] a = new double[2 * rows2 * m]; // interleaved complex, row-major
            for (int p = 0; p < n; p++) {
                int o = 2 * p * m;
                for (int j = 0; j < m; j++) a[o + 2 * j] = sino[p][j] - mean;
                int o2 = 2 * (p + n) * m;
                for (int j = 0; j < m; j++) {
                    double x = j - s;
                    double v = (x < 0 || x > m - 1) ? sino[p][j] : Cubic.at(flipped[p], x);
                    a[o2 + 2 * j] = v - mean;
                }
            }
            fft.get().complexForward(a);
            double sum = 0;
            int cnt = 0;
            for (int i = 0; i < rows2 * m; i++) {
                if (!mask[i]) continue;
                sum += Math.hypot(a[2 * i], a[2 * i + 1]);
                cnt++;
            }
            return sum / Math.max(1, cnt);
        }
    }

    /**
     * Double-wedge mask in FFT index order for a {@code rows × cols} 360° sinogram of an object of radius
     * {@code r} pixels: a feature of detector frequency kc/cols moving at most r px/rad gives angular
     * frequencies |kr| ≤ 2π·r·|kc|/cols, so |kc| < |kr|·cols/(2πr) holds no signal. The lowest angular
     * frequencies and the three central detector frequencies are left out.
     */
    static boolean[] doubleWedge(int rows, int cols, double r) {
        boolean[] mk = new boolean[rows * cols];
        for (int i = 0; i < rows; i++) {
            int kr = i <= rows / 2 ? i : i - rows;
            if (Math.abs(kr) <= 1) continue;
            double lim = Math.abs(kr) * cols / (2 * Math.PI * r);
            for (int j = 0; j < cols; j++) {
                int kc = j <= cols / 2 ? j : j - cols;
                if (Math.abs(kc) <= 1) continue;
                if (Math.abs(kc) < lim) mk[i * cols + j] = true;
            }
        }
        return mk;
    }

    // ------------------------------------------------------------------------------------------------ correlation

    /**
     * Projection-pair correlation (see the class comment).
     *
     * @param searchRadius largest |c − (width−1)/2| searched; ≤ 0 searches every shift with enough overlap
     * @param minOverlap   fewest overlapping columns a shift may have
     */
    public static Result correlation(float[][] sinos, int nproj, int width, double[] anglesRad, double searchRadius, int minOverlap) {
        double[] score = correlationCurve(sinos, nproj, width, anglesRad, minOverlap);
        int m = width;
        // shift s = 2c − (m−1) ranges over [−(m−1), m−1]; index s + m − 1
        double mid = (m - 1) / 2.0;
        int best = -1;
        for (int i = 0; i < score.length; i++) {
            int s = i - (m - 1);
            double c = (s + m - 1) / 2.0;
            if (searchRadius > 0 && Math.abs(c - mid) > searchRadius) continue;
            if (Double.isNaN(score[i])) continue;
            if (best < 0 || score[i] > score[best]) best = i;
        }
        if (best < 0) throw new IllegalArgumentException("centre search: no shift with enough overlap (width " + width + ")");
        double s = best - (m - 1);
        if (best > 0 && best < score.length - 1 && !Double.isNaN(score[best - 1]) && !Double.isNaN(score[best + 1]))
            s += parabolicOffset(-score[best - 1], -score[best], -score[best + 1]);
        return new Result((s + m - 1) / 2.0, Method.CORRELATION, score[best]);
    }

    /** Normalised correlation (summed over pairs and rows, divided by their number) for each shift index s + width − 1. */
    static double[] correlationCurve(float[][] sinos, int nproj, int width, double[] anglesRad, int minOverlap) {
        List<double[][]> pairs = new ArrayList<>();
        for (float[] sino : sinos) pairs.addAll(oppositePairs(sino, nproj, width, anglesRad));
        if (pairs.isEmpty())
            throw new IllegalArgumentException("centre search (correlation): no projection pair 180 degrees apart; the scan covers "
                    + Math.toDegrees(anglesRad[nproj - 1] - anglesRad[0]) + " degrees");
        int m = width;
        double[] out = new double[2 * m - 1];
        IntStream.range(0, 2 * m - 1).parallel().forEach(i -> {
            int s = i - (m - 1);
            // overlap: j in [0, m) with j − s in [0, m)
            int j0 = Math.max(0, s), j1 = Math.min(m, m + s);
            if (j1 - j0 < minOverlap) {
                out[i] = Double.NaN;
                return;
            }
            double acc = 0;
            for (double[][] pr : pairs) acc += ncc(pr[0], pr[1], s, j0, j1, m);
            out[i] = acc / pairs.size();
        });
        return out;
    }

    /** NCC of a(j) with the mirror of b, b(m−1−(j−s)), over j in [j0, j1). */
    private static double ncc(double[] a, double[] b, int s, int j0, int j1, int m) {
        double sa = 0, sb = 0;
        int n = j1 - j0;
        for (int j = j0; j < j1; j++) {
            sa += a[j];
            sb += b[m - 1 - (j - s)];
        }
        double ma = sa / n, mb = sb / n;
        double sab = 0, saa = 0, sbb = 0;
        for (int j = j0; j < j1; j++) {
            double x = a[j] - ma, y = b[m - 1 - (j - s)] - mb;
            sab += x * y;
            saa += x * x;
            sbb += y * y;
        }
        double d = Math.sqrt(saa * sbb);
        return d == 0 ? 0 : sab / d;
    }

    /**
     * Pairs {p(θ), p(θ+π)} of one sinogram. Every projection whose partner angle lies within the scanned
     * range (or at most 1.5 steps beyond either end) gets a partner, interpolated or extrapolated linearly
     * in angle from the two nearest projections. Up to 64 pairs, evenly spread.
     */
    static List<double[][]> oppositePairs(float[] sino, int nproj, int width, double[] ang) {
        List<double[][]> out = new ArrayList<>();
        double step = nproj > 1 ? (ang[nproj - 1] - ang[0]) / (nproj - 1) : 1;
        double lo = Math.min(ang[0], ang[nproj - 1]), hi = Math.max(ang[0], ang[nproj - 1]);
        double tol = 1.5 * Math.abs(step);
        List<double[]> cand = new ArrayList<>(); // {p, partner angle}
        for (int p = 0; p < nproj; p++) {
            double up = ang[p] + Math.PI, down = ang[p] - Math.PI;
            if (up >= lo - tol && up <= hi + tol) cand.add(new double[]{p, up});
            else if (down >= lo - tol && down <= hi + tol) cand.add(new double[]{p, down});
        }
        int stride = Math.max(1, (cand.size() + 63) / 64);
        for (int i = 0; i < cand.size(); i += stride) {
            int p = (int) cand.get(i)[0];
            double[] a = new double[width];
            for (int j = 0; j < width; j++) a[j] = sino[p * width + j];
            out.add(new double[][]{a, projectionAt(sino, nproj, width, ang, cand.get(i)[1])});
        }
        return out;
    }

    /** The projection at angle t, linear in angle between (or beyond) the two nearest measured angles. */
    static double[] projectionAt(float[] sino, int nproj, int width, double[] ang, double t) {
        int a = 0, b = -1;
        // nearest two distinct angles
        double da = Double.MAX_VALUE, db = Double.MAX_VALUE;
        for (int p = 0; p < nproj; p++) {
            double d = Math.abs(ang[p] - t);
            if (d < da) {
                b = a;
                db = da;
                a = p;
                da = d;
            } else if (d < db) {
                b = p;
                db = d;
            }
        }
        double[] out = new double[width];
        if (da < 1e-9 || b < 0 || ang[b] == ang[a]) {
            for (int j = 0; j < width; j++) out[j] = sino[a * width + j];
            return out;
        }
        double w = (t - ang[a]) / (ang[b] - ang[a]); // weight of b
        for (int j = 0; j < width; j++) out[j] = (1 - w) * sino[a * width + j] + w * sino[b * width + j];
        return out;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    static double[][] meanSinogram(float[][] sinos, int nproj, int width) {
        double[][] s = new double[nproj][width];
        for (float[] sino : sinos)
            for (int p = 0; p < nproj; p++)
                for (int j = 0; j < width; j++) s[p][j] += sino[p * width + j];
        for (double[] r : s) for (int j = 0; j < width; j++) r[j] /= sinos.length;
        return s;
    }

    /** The projections within the first 180° (all of a 180° scan). */
    static double[][] half(double[][] s, double[] ang) {
        int n = s.length;
        if (n < 2) throw new IllegalArgumentException("centre search needs at least 2 projections");
        double step = (ang[n - 1] - ang[0]) / (n - 1);
        int k = 0;
        while (k < n && Math.abs(ang[k] - ang[0]) < Math.PI - 0.5 * Math.abs(step)) k++;
        if (k < 4) throw new IllegalArgumentException("centre search needs at least 4 projections within 180 degrees");
        return Arrays.copyOf(s, k);
    }

    /** Vertex offset (in steps, within [−1, 1]) of the parabola through (−1, a), (0, b), (1, c). */
    public static double parabolicOffset(double a, double b, double c) {
        double den = a - 2 * b + c;
        if (!(den > 0)) return 0;
        double o = 0.5 * (a - c) / den;
        return Math.max(-1, Math.min(1, o));
    }

    static int argmin(double[] v) {
        int b = 0;
        for (int i = 1; i < v.length; i++) if (v[i] < v[b]) b = i;
        return b;
    }

    static double median(double[] v) {
        double[] c = Arrays.stream(v).filter(x -> x != Double.MAX_VALUE).sorted().toArray();
        return c.length == 0 ? 1 : c[c.length / 2];
    }

}
