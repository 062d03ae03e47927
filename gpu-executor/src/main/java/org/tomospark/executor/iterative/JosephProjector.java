package org.tomospark.executor.iterative;

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
 * computed once and applied to all k slices of the pass. Arithmetic: geometry in double, sums in float.
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
        for (int p = 0; p < nproj; p++) {
            cos[p] = t.cos(p);
            sin[p] = t.sin(p);
            off[p] = t.offset(p);
        }
    }

    @Override
    public int slicesPerPass() {
        return k;
    }

    @Override
    public int pixels() {
        return rows * cols;
    }

    @Override
    public int numProjections() {
        return nproj;
    }

    @Override
    public int detectorWidth() {
        return width;
    }

    @Override
    public void forward(float[] image, float[] sino, int[] angles) {
        check(image, sino);
        boolean anySteep = Arrays.stream(angles).anyMatch(p -> Math.abs(sin[p]) > Math.abs(cos[p]));
        float[] transposed = anySteep ? transpose(image) : null;
        IntStream.range(0, angles.length).parallel().forEach(a -> {
            int p = angles[a];
            float[] row = new float[width * k];
            if (Math.abs(cos[p]) >= Math.abs(sin[p])) forwardAlongRows(image, p, row);
            else forwardAlongColumns(transposed, p, row);
            System.arraycopy(row, 0, sino, p * width * k, width * k);
        });
    }

    /** Rays that cross every image row: at row i, ray u passes column jf = (u − off + i·sin) / cos. */
    private void forwardAlongRows(float[] image, int p, float[] acc) {
        final double c = cos[p], s = sin[p], inv = 1.0 / c;
        final float w = (float) (1.0 / Math.abs(c));
        for (int i = 0; i < rows; i++) {
            double base = off[p] - i * s;
            final int rowBase = i * cols, u1 = lastColumn(base - c, base + cols * c);
            for (int uu = firstColumn(base - c, base + cols * c); uu <= u1; uu++) {
                double jf = (uu - base) * inv;
                double fl = Math.floor(jf);
                int j0 = (int) fl;
                float f = (float) (jf - fl);
                addPair(image, rowBase, j0, cols, w * (1f - f), w * f, acc, uu * k);
            }
        }
    }

    /** Rays that cross every image column: at column j, ray u passes row if = (off + j·cos − u) / sin. */
    private void forwardAlongColumns(float[] transposed, int p, float[] acc) {
        final double c = cos[p], s = sin[p], inv = 1.0 / s;
        final float w = (float) (1.0 / Math.abs(s));
        for (int j = 0; j < cols; j++) {
            double base = off[p] + j * c;
            final int colBase = j * rows, u1 = lastColumn(base + s, base - rows * s);
            for (int uu = firstColumn(base + s, base - rows * s); uu <= u1; uu++) {
                double fi = (base - uu) * inv;
                double fl = Math.floor(fi);
                int i0 = (int) fl;
                float f = (float) (fi - fl);
                addPair(transposed, colBase, i0, rows, w * (1f - f), w * f, acc, uu * k);
            }
        }
    }

    /** acc[o+s] += w0·line[n0] + w1·line[n0+1] for the k slices, pixels outside [0, n) reading as zero. */
    private void addPair(float[] img, int lineBase, int n0, int n, float w0, float w1, float[] acc, int o) {
        if (n0 >= 0 && n0 < n) {
            int b = (lineBase + n0) * k;
            for (int s = 0; s < k; s++) acc[o + s] += w0 * img[b + s];
        }
        if (n0 + 1 >= 0 && n0 + 1 < n) {
            int b = (lineBase + n0 + 1) * k;
            for (int s = 0; s < k; s++) acc[o + s] += w1 * img[b + s];
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

    private float[] transpose(float[] image) {
        float[] t = new float[image.length];
        IntStream.range(0, rows).parallel().forEach(i -> {
            for (int j = 0; j < cols; j++)
                System.arraycopy(image, (i * cols + j) * k, t, (j * rows + i) * k, k);
        });
        return t;
    }

    @Override
    public void back(float[] sino, float[] image, int[] angles) {
        check(image, sino);
        IntStream.range(0, rows).parallel().forEach(i -> {
            float[] acc = new float[cols * k];
            for (int p : angles) backRow(sino, p, i, acc);
            System.arraycopy(acc, 0, image, i * cols * k, cols * k);
        });
    }

    /**
     * The gather of one image row from one projection: pixel (i, j) lies at detector coordinate t and takes columns
     * floor(t) and floor(t)+1 with the hat weights of the forward projection.
     */
    private void backRow(float[] sino, int p, int i, float[] acc) {
        final double c = cos[p], base = off[p] - i * sin[p];
        final double g = Math.max(Math.abs(c), Math.abs(sin[p])), ig = 1.0 / g;
        final int rowBase = p * width * k;
        for (int j = 0; j < cols; j++) {
            double t = base + j * c;
            if (t <= -1 || t >= width) continue;
            double fl = Math.floor(t);
            int u0 = (int) fl;
            double d = t - fl;
            float w0 = (float) (Math.max(0.0, 1.0 - d * ig) * ig);
            float w1 = (float) (Math.max(0.0, 1.0 - (1.0 - d) * ig) * ig);
            int o = j * k;
            if (u0 >= 0 && w0 > 0) {
                int b = rowBase + u0 * k;
                for (int s = 0; s < k; s++) acc[o + s] += w0 * sino[b + s];
            }
            if (u0 + 1 < width && w1 > 0) {
                int b = rowBase + (u0 + 1) * k;
                for (int s = 0; s < k; s++) acc[o + s] += w1 * sino[b + s];
            }
        }
    }

    private void check(float[] image, float[] sino) {
        if (image.length != rows * cols * k)
            throw new IllegalArgumentException("image holds " + image.length + " floats, expected " + rows + "x" + cols + "x" + k);
        if (sino.length != nproj * width * k)
            throw new IllegalArgumentException("sinogram holds " + sino.length + " floats, expected " + nproj + "x" + width + "x" + k);
    }
}
