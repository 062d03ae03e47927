package org.tomospark.executor.fourier;

import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * Everything about a gridrec reconstruction that depends on the geometry only, computed once.
 *
 * <p>Sizes. Each sinogram row is zero-padded to {@code rowLength} = the ramp filter's FFT length (a power of two
 * ≥ 2·width), so that the ramp filter's circular convolution equals the linear one on the detector, as in the
 * image-space filter. The Fourier grid has {@code grid} = M cells per axis, with M ≥ 2σ·(half the ROI's extent) so the
 * ROI lies in the kernel's alias-free band, and M large enough that the object inside the detector's field of view
 * never aliases onto the ROI. Frequency k of a row (cycles per row length) lands at grid position
 * {@code ρ·k·(cos θ, −sin θ)}, ρ = M / rowLength: the grid's column axis pairs with the image's columns, its row axis
 * with the image's rows (which grow downwards, hence −sin θ).
 *
 * <p>Origin. The grid's image origin is the ROI's centre pixel ({@code centreRow}, {@code centreCol}), so the kernel's
 * roll-off is smallest where the ROI is. Projection p's row is therefore shifted by the phase ramp
 * {@code exp(2πi·k·T_p / rowLength)}, with T_p the detector coordinate of the origin pixel
 * ({@code x·cosθ + y·sinθ + centreOfRotation + axisCorrection[p]}).
 *
 * <p>The gridding scatters onto a padded grid of {@code padded} = M + W + 1 cells per axis, frequency 0 at cell
 * {@code origin}, so that no tap needs a wrap-around; the border cells are folded back onto the periodic grid
 * before the inverse transform.
 */
final class GridPlan {
    final int width;
    final int projections;
    final int rowLength;
    final int grid;
    final int padded;
    final int origin;
    final int roiRows;
    final int roiCols;
    final int centreRow;
    final int centreCol;
    final FilterSpec filter;
    final KaiserBessel kernel;
    /**
     * Ramp filter response from DC to Nyquist with its window and the π/(2N) back-projection weight, times
     * sinc(f)^1.5 when the images are to match FBP's ({@link Gridrec.DetectorResponse#FBP_MATCHED}).
     */
    final float[] ramp;
    /** Per projection: grid column step per unit of k (ρ·cos θ) and grid row step (−ρ·sin θ). */
    final float[] colStep;
    final float[] rowStep;
    /** Per projection: cos and sin of 2π·T_p / rowLength, the phase ramp's step per unit of k. */
    final double[] phaseCos;
    final double[] phaseSin;
    /** Deapodisation factors per ROI column and row; the row factors carry the 1/rowLength of the inverse DFT. */
    final float[] deapodCol;
    final float[] deapodRow;

    GridPlan(ScanGeometry scan, SliceGeometry slice, FilterSpec filter, KaiserBessel kernel, boolean fbpMatched) {
        this.width = scan.detectorWidth();
        this.projections = scan.numProjections();
        this.filter = filter;
        this.kernel = kernel;
        this.rowLength = FilterSpec.paddedLength(width);
        this.roiRows = slice.roiRows();
        this.roiCols = slice.roiCols();
        this.centreRow = roiRows / 2;
        this.centreCol = roiCols / 2;
        double x0 = slice.roiCol() + centreCol - slice.centerX();
        double y0 = slice.centerY() - (slice.roiRow() + centreRow);
        this.grid = gridSize(scan, kernel, Math.max(centreRow, centreCol), Math.hypot(x0, y0));
        this.padded = grid + kernel.width() + 1;
        this.origin = grid / 2 + kernel.width() / 2;
        this.ramp = new RampFilter(width, projections, filter).response();
        if (fbpMatched) {
            for (int k = 1; k < ramp.length; k++) {
                double a = Math.PI * k / rowLength, sinc = Math.sin(a) / a;
                ramp[k] *= (float) (sinc * Math.sqrt(sinc));
            }
        }
        double rho = (double) grid / rowLength;
        colStep = new float[projections];
        rowStep = new float[projections];
        phaseCos = new double[projections];
        phaseSin = new double[projections];
        for (int p = 0; p < projections; p++) {
            double a = scan.angleRad(p), c = Math.cos(a), s = Math.sin(a);
            colStep[p] = (float) (rho * c);
            rowStep[p] = (float) (-rho * s);
            double t = x0 * c + y0 * s + scan.centerOfRotation() + scan.axisCorrection(p);
            double phi = 2 * Math.PI * (t / rowLength - Math.floor(t / rowLength));
            phaseCos[p] = Math.cos(phi);
            phaseSin[p] = Math.sin(phi);
        }
        deapodCol = new float[roiCols];
        deapodRow = new float[roiRows];
        for (int j = 0; j < roiCols; j++) deapodCol[j] = (float) (1 / kernel.transform(j - centreCol, grid));
        for (int i = 0; i < roiRows; i++) deapodRow[i] = (float) (1 / (rowLength * kernel.transform(i - centreRow, grid)));
    }

    /**
     * The grid size: at least 2σ times the ROI's half extent (alias-free band), and at least the distance from the
     * ROI's centre to the far side of the field of view plus the ROI's half diagonal (the object never aliases into
     * the ROI), rounded up to an even size with no prime factor above 5.
     */
    static int gridSize(ScanGeometry scan, KaiserBessel kernel, int halfExtent, double roiToAxis) {
        double maxCorr = 0;
        for (double c : scan.axisCorrections()) maxCorr = Math.max(maxCorr, Math.abs(c));
        double cor = scan.centerOfRotation();
        double fov = Math.max(cor, scan.detectorWidth() - 1 - cor) + maxCorr + 1;
        double band = 2 * kernel.oversampling() * Math.max(halfExtent, 1);
        double reach = roiToAxis + fov + Math.sqrt(2) * halfExtent + kernel.width();
        return smooth((int) Math.ceil(Math.max(Math.max(band, reach), 4 * kernel.width())));
    }

    /** The smallest even number ≥ n whose prime factors are 2, 3 and 5 (sizes the FFT handles by fast radices). */
    static int smooth(int n) {
        for (int m = n + (n & 1); ; m += 2) {
            int r = m;
            for (int f : new int[]{2, 3, 5}) while (r % f == 0) r /= f;
            if (r == 1) return m;
        }
    }

    /** Bytes of one pair's workspace: the padded grid and the shared row/column buffer. */
    long workspaceBytes() {
        return 4L * (2L * padded * padded + bufferFloats());
    }

    /** Floats of the buffer that holds the filtered rows first and the half-transformed columns later. */
    long bufferFloats() {
        return Math.max(2L * projections * (rowLength + 1), 2L * roiCols * grid);
    }
}
