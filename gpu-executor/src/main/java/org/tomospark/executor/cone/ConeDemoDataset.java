package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.FieldOfView;
import org.tomospark.executor.inputs.DataExchangeWriter;

import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;

import java.nio.file.Path;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A simulated cone-beam scan of the 3-D Shepp–Logan phantom ({@link ConePhantom}: exact ray–ellipsoid chords averaged
 * over 2 × 2 rays per pixel), written as a DataExchange file with its {@code /geometry} group: uint16 counts
 * {@code dark + I0·exp(−p)} with optional Poisson noise, flats, darks, {@code /exchange/theta} in degrees, the six
 * circular scalars and, on request, the per-projection matrices of the same trajectory.
 *
 * @param cols        detector columns (u)
 * @param rows        detector rows (v)
 * @param projections angles
 * @param shortScan   180° plus the fan angle (and one step) instead of 360°
 * @param dsoMm       source-axis distance
 * @param dsdMm       source-detector distance
 * @param pixelMm     detector pixel (square)
 * @param matrices    also write /geometry/projection_matrices
 * @param noise       Poisson noise on the counts
 * @param seed        the noise's seed
 */
public record ConeDemoDataset(int cols, int rows, int projections, boolean shortScan, double dsoMm, double dsdMm, double pixelMm,
                              boolean matrices, boolean noise, long seed) {
    /** Open-beam and dark counts; flat and dark frames. */
    static final double I0 = 20000, DARK = 100;
    static final int FRAMES = 5;
    /** Attenuation of the phantom's unit density, 1/mm. */
    public static final double MU = 0.02;

    public ConeDemoDataset {
        if (cols < 8 || rows < 4)
            throw new IllegalArgumentException("demo detector must be at least 8 x 4 pixels, got " + cols + " x " + rows);
        if (projections < 8) throw new IllegalArgumentException("demo projections must be >= 8, got " + projections);
    }

    /** The built-in cone-beam demo: 256 × 192 pixels of 0.4 mm, 360 projections over 360°, DSO 200 mm, DSD 400 mm. */
    public static ConeDemoDataset demo() {
        return new ConeDemoDataset(256, 192, 360, false, 200, 400, 0.4, false, true, 42);
    }

    public ConeDemoDataset withSize(int c, int r, int p) {
        return new ConeDemoDataset(c, r, p, shortScan, dsoMm, dsdMm, pixelMm, matrices, noise, seed);
    }

    public ConeDemoDataset withShortScan(boolean s) {
        return new ConeDemoDataset(cols, rows, projections, s, dsoMm, dsdMm, pixelMm, matrices, noise, seed);
    }

    public ConeDemoDataset withMatrices(boolean m) {
        return new ConeDemoDataset(cols, rows, projections, shortScan, dsoMm, dsdMm, pixelMm, m, noise, seed);
    }

    public ConeDemoDataset withNoise(boolean n) {
        return new ConeDemoDataset(cols, rows, projections, shortScan, dsoMm, dsdMm, pixelMm, matrices, n, seed);
    }

    /** The scan's circular geometry, the central ray on the detector's centre. */
    public ConeGeometry geometry() {
        ConeGeometry.Builder b = ConeGeometry.builder().dso(dsoMm).dsd(dsdMm).pixel(pixelMm, pixelMm)
                .centre((cols - 1) / 2.0, (rows - 1) / 2.0).detector(cols, rows);
        if (!shortScan) return b.anglesRange(360, projections).build();
        double fan = Math.toDegrees(b.anglesRange(360, projections).build().fanHalfAngle()) * 2;
        // n angles over 180° + fan, the last one on its end: the covered range (span plus a step) exceeds it by a step
        double span = 180 + fan;
        double[] deg = new double[projections];
        for (int i = 0; i < projections; i++) deg[i] = span * i / (projections - 1);
        return b.anglesDeg(deg).build();
    }

    /** The phantom: Shepp–Logan filling 80% of the field of view's radius and 80% of the volume's half height. */
    public ConePhantom phantom() {
        ConeGeometry g = geometry();
        double radius = FieldOfView.radiusMm(g);
        double halfHeight = rows * pixelMm * dsoMm / dsdMm / 2;
        return ConePhantom.sheppLogan(0.8 * Math.min(radius, halfHeight), MU);
    }

    /** Writes the scan to {@code file} (DataExchange, with /geometry). */
    public void writeHdf5(Path file) {
        ConeGeometry g = geometry();
        ConePhantom ph = phantom();
        int n = g.numProjections();
        short[][][] data = new short[n][rows][cols];
        IntStream.range(0, n).parallel().forEach(p -> {
            float[] line = ph.project(g, p, 2);
            Random rnd = new Random(seed * 1_000_003L + p);
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++) data[p][r][c] = counts(DARK + I0 * Math.exp(-line[r * cols + c]), rnd);
        });
        Random rnd = new Random(seed ^ 0x5DEECE66DL);
        short[][][] white = new short[FRAMES][rows][cols], dark = new short[FRAMES][rows][cols];
        for (int f = 0; f < FRAMES; f++)
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++) {
                    white[f][r][c] = counts(DARK + I0, rnd);
                    dark[f][r][c] = counts(DARK, rnd);
                }
        double[] theta = new double[n];
        for (int p = 0; p < n; p++) theta[p] = Math.toDegrees(g.angle(p));
        DataExchangeWriter.writeUint16(file, data, white, dark, theta, "tomospark cone-beam demo phantom",
                f -> writeGeometry(f, g, matrices));
    }

    /** The /geometry group of {@code g}: the six scalars and, when {@code withMatrices}, the projection matrices. */
    public static void writeGeometry(WritableHdfFile f, ConeGeometry g, boolean withMatrices) {
        WritableGroup geo = f.putGroup("geometry");
        geo.putDataset("dso_mm", g.dso());
        geo.putDataset("dsd_mm", g.dsd());
        geo.putDataset("du_mm", g.du());
        geo.putDataset("dv_mm", g.dv());
        geo.putDataset("cu_px", g.cu());
        geo.putDataset("cv_px", g.cv());
        if (withMatrices) {
            int n = g.numProjections();
            double[][][] m = new double[n][3][4];
            for (int p = 0; p < n; p++)
                for (int r = 0; r < 3; r++) System.arraycopy(g.circularMatrix(p).m(), r * 4, m[p][r], 0, 4);
            geo.putDataset(ConeGeometryReader.MATRICES, m);
        }
    }

    private short counts(double mean, Random rnd) {
        double v = noise ? mean + Math.sqrt(mean) * rnd.nextGaussian() : mean;
        return (short) (int) Math.max(0, Math.min(65535, Math.round(v)));
    }
}
