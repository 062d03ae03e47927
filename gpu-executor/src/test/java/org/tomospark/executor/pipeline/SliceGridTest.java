package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.params.ReconstructionParams;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both slice grids against a reference drawn here, independently of the project's geometry code: one disc, whose
 * sinogram is its exact chord lengths and whose picture is drawn on each grid by the grid's textbook definition
 * (ASTRA: the axis at (N−1)/2; scikit-image: at N//2). The reconstruction's centroid must land where the grid puts
 * the disc, to a few hundredths of a pixel; the two grids are half a pixel apart, so each fails the other's reference.
 */
class SliceGridTest {
    static final int N = 128, NPROJ = 400;
    static final double CENTER = 63.5, X0 = 11.3, Y0 = -7.6, R = 18;

    /** The disc's sinogram: each detector pixel's mean chord length over 16 points across it. */
    static float[] sinogram() {
        float[] s = new float[NPROJ * N];
        for (int p = 0; p < NPROJ; p++) {
            double th = Math.PI * p / NPROJ;
            double s0 = X0 * Math.cos(th) + Y0 * Math.sin(th);
            for (int j = 0; j < N; j++) {
                double sum = 0;
                for (int k = 0; k < 16; k++) {
                    double t = j - CENTER - 0.5 + (k + 0.5) / 16 - s0;
                    sum += t * t < R * R ? 2 * Math.sqrt(R * R - t * t) : 0;
                }
                s[p * N + j] = (float) (sum / 16);
            }
        }
        return s;
    }

    static float[] reconstruct(SliceGrid grid) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(N).anglesRange(180, NPROJ).centerOfRotation(CENTER)
                .build();
        SliceGeometry g = SliceGeometry.square(N).withGrid(grid);
        float[] sino = sinogram();
        new RampFilter(N, NPROJ, FilterSpec.of(FilterWindow.RAMLAK)).filterRows(sino, NPROJ, null);
        float[][] out = {new float[g.pixels()]};
        try (JavaBackend b = new JavaBackend()) {
            b.setup(BackendOptions.defaults().withSlicesPerPass(1));
            b.validate(new BackprojectionJob(scan, g, 1));
            b.process(new SliceBatch(0, new float[][]{sino}, NPROJ, N, true), out);
        }
        return out[0];
    }

    /** The disc's column and row centroid in an N×N image (values above half the peak, so ringing does not count). */
    static double[] centroid(float[] img) {
        double sw = 0, sj = 0, si = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double v = img[i * N + j];
                if (v < 0.5) continue;
                sw += v;
                sj += v * j;
                si += v * i;
            }
        return new double[]{sj / sw, si / sw};
    }

    /** The disc drawn on a grid with the axis at pixel (a, a): pixel (i, j) at x = j − a, y = a − i, 8×8 samples. */
    static float[] drawn(double a) {
        float[] img = new float[N * N];
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int in = 0;
                for (int u = 0; u < 8; u++)
                    for (int v = 0; v < 8; v++) {
                        double x = j - a - 0.5 + (v + 0.5) / 8, y = a - i + 0.5 - (u + 0.5) / 8;
                        if ((x - X0) * (x - X0) + (y - Y0) * (y - Y0) < R * R) in++;
                    }
                img[i * N + j] = in / 64f;
            }
        return img;
    }

    @ParameterizedTest
    @EnumSource(SliceGrid.class)
    void theDiscLandsWhereTheGridPutsIt(SliceGrid grid) {
        double axis = grid == SliceGrid.ASTRA ? (N - 1) / 2.0 : Math.floorDiv(N, 2);
        double other = grid == SliceGrid.ASTRA ? Math.floorDiv(N, 2) : (N - 1) / 2.0;
        float[] rec = reconstruct(grid);
        double[] c = centroid(rec);
        assertEquals(axis + X0, c[0], 0.03, grid + ": column of the disc's centre");
        assertEquals(axis - Y0, c[1], 0.03, grid + ": row of the disc's centre");
        double[] t = centroid(drawn(axis));
        assertEquals(t[0], c[0], 0.03, grid + ": column against the drawn reference");
        double own = relL2(rec, drawn(axis)), wrong = relL2(rec, drawn(other));
        assertTrue(own < 0.12 && wrong > 1.5 * own, grid + ": relative L2 " + own + " against its own grid's disc, "
                + wrong + " against the other grid's");
    }

    @ParameterizedTest
    @EnumSource(SliceGrid.class)
    void theKeyChoosesTheGrid(SliceGrid grid) {
        ReconstructionParams p = CoreKeys.params(Settings.empty().with(CoreKeys.SLICE_GRID.name(), grid.id()));
        assertEquals(grid, p.volume().sliceGrid());
        SliceGeometry g = p.sliceGeometry(N);
        assertEquals(grid == SliceGrid.ASTRA ? 63.5 : 64.0, g.centerX());
        assertEquals(63.0, p.toBuilder().sliceSize(127).build().sliceGeometry(N).centerY(), "odd N: both grids agree");
    }

    private static double relL2(float[] a, float[] b) {
        double num = 0, den = 0;
        for (int i = 0; i < a.length; i++) {
            num += (a[i] - b[i]) * (double) (a[i] - b[i]);
            den += b[i] * (double) b[i];
        }
        return Math.sqrt(num / den);
    }
}
