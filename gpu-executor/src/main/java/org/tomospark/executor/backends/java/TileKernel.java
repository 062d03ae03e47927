package org.tomospark.executor.backends.java;

/**
 * Back-projects one tile of ROI pixels for a range of projections into an interleaved accumulator
 * ({@code acc[(r·tileCols + c)·k + s]}). Implementations: {@link ScalarTileKernel} and, where the JDK Vector
 * API is present, {@link VectorTileKernel}. Both read a compound sinogram with guard bins
 * ({@link #PAD_LEFT} zero bin before and {@link #PAD_RIGHT} after each row), clamp the bin index into the
 * guards and evaluate {@code v0 + f·(v1 − v0)} the same way, so they agree bit for bit and need no branches
 * on detector edges.
 */
interface TileKernel {
    int PAD_LEFT = 1;
    int PAD_RIGHT = 2;

    /**
     * @param packed  compound sinogram with guard bins, ((p·(width+3)) + 1 + bin)·k + s
     * @param k       slices per pass
     * @param width   detector width
     * @param cos,sin,off per-projection constants ({@link org.tomospark.executor.geometry.ProjectionTables})
     * @param p0,p1   projection range [p0, p1)
     * @param row0,col0 tile origin in ROI pixels; rows, cols tile size
     * @param acc     accumulator, rows·cols·k floats, added to
     */
    void run(float[] packed, int k, int width, double[] cos, double[] sin, double[] off, int p0, int p1,
             int row0, int col0, int rows, int cols, float[] acc);

    String name();
}
