package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Joseph's projector for the parallel-beam slice geometry of the back-projector, in plain Java over k interleaved
 * slices.
 *
 * <p>Each ray (projection p, detector column u) steps along the image axis it is most parallel to (rows when
 * |cos θ| ≥ |sin θ|, else columns) and interpolates linearly between the two pixels it passes between, weighted by the
 * path length 1/max(|cos θ|, |sin θ|). The matrix element is therefore {@code a(p,u; i,j) = Λ((u − t)/g) / g}, with
 * {@code t = offset[p] + j·cos[p] − i·sin[p]} the detector coordinate of pixel (i, j) from the back-projector's own
 * {@link ProjectionTables} (same centre, axis corrections, ROI and grid), {@code g = max(|cos|, |sin|)} and Λ the unit
 * hat function. Joseph's method was chosen over distance-driven projection because it is cheap (two pixels per ray and
 * image line, no footprint overlaps to sort), because its adjoint is the exact transpose of that sparse matrix and can be
 * evaluated as a gather over pixels (at most two detector columns per pixel and angle, no atomics), and because it
 * interpolates along the dominant axis, which keeps the weights well conditioned at every angle.
 *
 * <p>The forward projection is threaded over projections (each thread owns its sinogram rows), the adjoint over image
 * rows (each thread owns its pixels); both run on the caller's fork-join pool. The weights of a ray or a pixel are
 * computed once and applied to all k slices of the pass. Arithmetic: each line's start in double, its steps in
 * {@link Fixed} point (32 fractional bits: one conversion a step instead of four, positions within 1e-6 of a pixel
 * at 4096 steps), weights and sums in float. The guard bins absorb a position that the steps carry just past an edge.
 */
public final class JosephProjector implements Projector {
    private final int k;
    private final int width;
    private final int rows;
    private final int cols;
    private final int nproj;
    private final double[] cos;
    private final double[] sin;
    private final double[] off;
    private final PairSum pairs;

    private static final int GUARD = Guarded.GUARD;
    /** The adjoint's tile of pixels summed over all angles at a time (8 slices: 64 KiB of sums). */
    private static final int TILE_ROWS = 16, TILE_COLS = 128;

    /**
     * @param scan  the (effective) acquisition geometry
     * @param slice the image grid: its ROI is the image the operators act on
     * @param k     slices per pass
     */
    public JosephProjector(ScanGeometry scan, SliceGeometry slice, int k) {
        if (k < 1) throw new IllegalArgumentException("slices per pass must be >= 1, got " + k);
        ProjectionTables t = new ProjectionTables(scan, slice);
        this.k = k;
        this.width = scan.detectorWidth();
        this.rows = slice.roiRows();
        this.cols = slice.roiCols();
        this.nproj = scan.numProjections();
        this.cos = new double[nproj];
        this.sin = new double[nproj];
        this.off = new double[nproj];
        this.pairs = PairSum.of(k);
        for (int p = 0; p < nproj; p++) {
            cos[p] = t.cos(p);
            sin[p] = t.sin(p);
            off[p] = t.offset(p);
        }
    }

    /** Whether the inner step runs on the JDK Vector API (8 slices per pass, 256-bit vectors). */
    public boolean vectorised() {
        return pairs.vector();
    }

    @Override
    public Shape shape() {
        return new Shape(k, rows, cols, nproj, width);
    }

    @Override
    public void forward(float[] image, float[] sino, int[] angles) {
        check(image, sino);
        boolean anySteep = Arrays.stream(angles).anyMatch(p -> Math.abs(sin[p]) > Math.abs(cos[p]));
        boolean anyFlat = Arrays.stream(angles).anyMatch(p -> Math.abs(sin[p]) <= Math.abs(cos[p]));
        float[] byRows = anyFlat ? Guarded.lines(image, rows, cols, k, false) : null;
        float[] byColumns = anySteep ? Guarded.lines(image, rows, cols, k, true) : null;
        IntStream.range(0, angles.length).parallel().forEach(a -> {
            int p = angles[a];
            float[] row = new float[width * k];
            if (Math.abs(cos[p]) >= Math.abs(sin[p])) forwardAlongRows(byRows, p, row);
            else forwardAlongColumns(byColumns, p, row);
            System.arraycopy(row, 0, sino, p * width * k, width * k);
        });
    }

    /** Rays that cross every image row: at row i, ray u passes column jf = (u − off + i·sin) / cos. */
    private void forwardAlongRows(float[] image, int p, float[] acc) {
        final double c = cos[p], s = sin[p], inv = 1.0 / c;
        final float w = (float) (1.0 / Math.abs(c));
        for (int i = 0; i < rows; i++) {
            double base = off[p] - i * s;
            double a = base - c, b = base + cols * c;
            sumPairs(image, i * (cols + 2 * GUARD), base, inv, w, firstColumn(a, b), lastColumn(a, b), acc);
        }
    }

    /** Rays that cross every image column: at column j, ray u passes row if = (off + j·cos − u) / sin. */
    private void forwardAlongColumns(float[] transposed, int p, float[] acc) {
        final double c = cos[p], s = sin[p], inv = -1.0 / s;
        final float w = (float) (1.0 / Math.abs(s));
        for (int j = 0; j < cols; j++) {
            double base = off[p] + j * c;
            sumPairs(transposed, j * (rows + 2 * GUARD), base, inv, w, firstColumn(base + s, base - rows * s),
                    lastColumn(base + s, base - rows * s), acc);
        }
    }

    /**
     * For the rays u0 … u1 crossing one guarded image line at position pos = (u − base)·inv (pixels from the line's
     * first pixel, in (−1, n)): acc[u] += w·((1 − f)·line[⌊pos⌋] + f·line[⌊pos⌋ + 1]) for the k slices.
     */
    private void sumPairs(float[] img, int lineBase, double base, double inv, float w, int u0, int u1, float[] acc) {
        long pos = Fixed.of((u0 - base) * inv), step = Fixed.of(inv);
        for (int u = u0; u <= u1; u++, pos += step) {
            float f = Fixed.fraction(pos);
            float w0 = w * (1f - f), w1 = w * f;
            pairs.add(acc, u * k, img, (lineBase + Fixed.floor(pos) + GUARD) * k, w0, w1);
        }
    }

    /** The first detector column strictly inside the open interval between a and b, clipped to the detector. */
    private static int firstColumn(double a, double b) {
        return Math.max(0, (int) Math.floor(Math.min(a, b)) + 1);
    }

    /** The last detector column strictly inside the open interval between a and b, clipped to the detector. */
    private int lastColumn(double a, double b) {
        return Math.min(width - 1, (int) Math.ceil(Math.max(a, b)) - 1);
    }

    @Override
    public void back(float[] sino, float[] image, int[] angles) {
        check(image, sino);
        float[] guarded = Guarded.sinogram(sino, nproj, width, k, angles);
        int rowBlocks = (rows + TILE_ROWS - 1) / TILE_ROWS, colBlocks = (cols + TILE_COLS - 1) / TILE_COLS;
        // tiles of pixels, each summed over all angles: the detector columns a tile reads at one angle are read once from
        // memory and serve all its rows, and its sums stay in cache
        IntStream.range(0, rowBlocks * colBlocks).parallel().forEach(tile -> {
            int i0 = tile / colBlocks * TILE_ROWS, j0 = tile % colBlocks * TILE_COLS;
            int i1 = Math.min(rows, i0 + TILE_ROWS), j1 = Math.min(cols, j0 + TILE_COLS), n = j1 - j0;
            float[] acc = new float[(i1 - i0) * n * k];
            for (int p : angles)
                for (int i = i0; i < i1; i++) backRow(guarded, p, i, j0, j1 - 1, acc, (i - i0) * n * k);
            for (int i = i0; i < i1; i++) System.arraycopy(acc, (i - i0) * n * k, image, (i * cols + j0) * k, n * k);
        });
    }

    /**
     * The gather of pixels {@code from … to} of image row i from one projection, into acc from accBase on: pixel (i, j)
     * lies at detector coordinate t and takes columns floor(t) and floor(t)+1 with the hat weights of the forward
     * projection. Only pixels with t in (−1, width) reach a column; the guard bins stand in for the columns beyond the
     * detector.
     */
    private void backRow(float[] sino, int p, int i, int from, int to, float[] acc, int accBase) {
        final double c = cos[p], base = off[p] - i * sin[p];
        final double g = Math.max(Math.abs(c), Math.abs(sin[p])), ig = 1.0 / g;
        final int rowBase = p * (width + 2 * GUARD);
        int j0 = from, j1 = to;
        if (Math.abs(c) > 1e-12) {
            // t = base + j·c lies in (−1, width) for j strictly between these two
            double a = (-1 - base) / c, b = (width - base) / c;
            j0 = Math.max(from, (int) Math.floor(Math.min(a, b)) + 1);
            j1 = Math.min(to, (int) Math.ceil(Math.max(a, b)) - 1);
        } else if (base <= -1 || base >= width) {
            return;
        }
        // Λ(d/g)/g = max(0, 1/g − d/g²) and Λ((1 − d)/g)/g = max(0, 1/g − 1/g² + d/g²)
        final float ig1 = (float) ig, ig2 = (float) (ig * ig), ig12 = (float) (ig - ig * ig);
        long t = Fixed.of(base + j0 * c), step = Fixed.of(c);
        for (int j = j0; j <= j1; j++, t += step) {
            float e = Fixed.fraction(t) * ig2;
            float w0 = ig1 - e, w1 = ig12 + e;
            pairs.add(acc, accBase + (j - from) * k, sino, (rowBase + Fixed.floor(t) + GUARD) * k, w0 > 0f ? w0 : 0f,
                    w1 > 0f ? w1 : 0f);
        }
    }

    private void check(float[] image, float[] sino) {
        if (image.length != rows * cols * k)
            throw new IllegalArgumentException("image holds " + image.length + " floats, expected " + rows + "x" + cols + "x" + k);
        if (sino.length != nproj * width * k)
            throw new IllegalArgumentException("sinogram holds " + sino.length + " floats, expected " + nproj + "x" + width + "x" + k);
    }
}
