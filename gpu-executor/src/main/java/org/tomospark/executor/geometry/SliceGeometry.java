package org.tomospark.executor.geometry;

/**
 * Immutable output-slice grid and region of interest.
 *
 * <p>The full slice is {@code width × height} pixels of one detector pixel each. Pixel (row i, col j)
 * lies at {@code x = j − cx, y = cy − i}, with the rotation axis at {@code (cx, cy)}: {@code ((width−1)/2,
 * (height−1)/2)} on the {@link SliceGrid#ASTRA} grid, {@code (width//2, height//2)} on the {@link SliceGrid#SKIMAGE}
 * one. Row 0 is the top of the image (largest y), as in scikit-image. Only the ROI
 * {@code [roiRow, roiRow+roiRows) × [roiCol, roiCol+roiCols)} is reconstructed, and the output image is
 * {@code roiRows × roiCols}.
 */
public record SliceGeometry(int width, int height, int roiCol, int roiRow, int roiCols, int roiRows, SliceGrid grid) {

    /** On the {@link SliceGrid#ASTRA} grid. */
    public SliceGeometry(int width, int height, int roiCol, int roiRow, int roiCols, int roiRows) {
        this(width, height, roiCol, roiRow, roiCols, roiRows, SliceGrid.ASTRA);
    }

    public SliceGeometry {
        if (width < 1) throw new IllegalArgumentException("slice width must be >= 1, got " + width);
        if (height < 1) throw new IllegalArgumentException("slice height must be >= 1, got " + height);
        if (roiCol < 0 || roiRow < 0 || roiCols < 1 || roiRows < 1 || roiCol + roiCols > width || roiRow + roiRows > height)
            throw new IllegalArgumentException("roi [col " + roiCol + ", row " + roiRow + ", " + roiCols + "x" + roiRows
                    + "] does not fit in the " + width + "x" + height + " slice");
        if (grid == null) grid = SliceGrid.ASTRA;
    }

    /** A full (no ROI) square slice. */
    public static SliceGeometry square(int n) {
        return new SliceGeometry(n, n, 0, 0, n, n);
    }

    public static SliceGeometry full(int width, int height) {
        return new SliceGeometry(width, height, 0, 0, width, height);
    }

    public SliceGeometry withRoi(int col, int row, int cols, int rows) {
        return new SliceGeometry(width, height, col, row, cols, rows, grid);
    }

    /** The same slice and ROI on another grid. */
    public SliceGeometry withGrid(SliceGrid g) {
        return new SliceGeometry(width, height, roiCol, roiRow, roiCols, roiRows, g);
    }

    /** The rotation axis's column. */
    public double centerX() {
        return grid.axisPixel(width);
    }

    /** The rotation axis's row. */
    public double centerY() {
        return grid.axisPixel(height);
    }

    public int pixels() {
        return roiCols * roiRows;
    }
}
