package org.tomospark.executor.phantom;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.inputs.DataExchangeWriter;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.preprocess.RawStack;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferUShort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.IntStream;
import javax.imageio.ImageIO;

/**
 * Simulated scan of the 3-D modified Shepp–Logan phantom: analytic (exact, pixel-integrated) line
 * integrals turned into uint16 detector counts {@code dark + I0·gain·exp(−p)}, with flats
 * {@code dark + I0·gain}, darks, optional Poisson noise and an optional axis offset. The detector gain
 * varies smoothly across columns so that flat-field correction matters. The detector rows span
 * z ∈ [−0.5, 0.5] of the phantom, so neighbouring slices differ.
 */
public final class DemoDataset {

    /**
     * @param width       detector columns (and reconstructed slice size)
     * @param rows        detector rows (slices)
     * @param projections number of angles
     * @param rangeDeg    180 or 360
     * @param axisOffset  rotation axis minus detector centre ((width−1)/2), in pixels
     * @param maxIntegral the largest line integral (sets the attenuation scale)
     * @param i0          open-beam counts
     * @param darkLevel   dark counts
     * @param flats       number of flat frames
     * @param darks       number of dark frames
     * @param poisson     add Poisson noise
     * @param seed        noise seed
     */
    public record Spec(int width, int rows, int projections, double rangeDeg, double axisOffset, double maxIntegral,
                       double i0, double darkLevel, int flats, int darks, boolean poisson, long seed) {
        public Spec {
            if (width < 8) throw new IllegalArgumentException("demo.width must be >= 8, got " + width);
            if (rows < 1) throw new IllegalArgumentException("demo.rows must be >= 1, got " + rows);
            if (projections < 2) throw new IllegalArgumentException("demo.projections must be >= 2, got " + projections);
            if (rangeDeg != 180 && rangeDeg != 360) throw new IllegalArgumentException("demo.range must be 180 or 360, got " + rangeDeg);
            if (!(maxIntegral > 0 && maxIntegral < 10)) throw new IllegalArgumentException("demo.maxIntegral must be in (0, 10)");
            if (i0 + darkLevel > 65000 || i0 <= 0 || darkLevel < 0)
                throw new IllegalArgumentException("demo.i0 must be > 0 and i0 + dark below the uint16 range");
        }

        /** The built-in demo: 512 columns, 32 rows, 512 projections over 180°, with noise. */
        public static Spec demo() {
            return new Spec(512, 32, 512, 180, 0, 1.5, 20000, 100, 10, 10, true, 42);
        }

        public Spec withSize(int w, int r, int p) {
            return new Spec(w, r, p, rangeDeg, axisOffset, maxIntegral, i0, darkLevel, flats, darks, poisson, seed);
        }

        public Spec withNoise(boolean n) {
            return new Spec(width, rows, projections, rangeDeg, axisOffset, maxIntegral, i0, darkLevel, flats, darks, n, seed);
        }

        public Spec withAxisOffset(double o) {
            return new Spec(width, rows, projections, rangeDeg, o, maxIntegral, i0, darkLevel, flats, darks, poisson, seed);
        }

        public Spec withRange(double r) {
            return new Spec(width, rows, projections, r, axisOffset, maxIntegral, i0, darkLevel, flats, darks, poisson, seed);
        }
    }

    private final Spec spec;
    private final Phantom3D phantom;
    private final ScanGeometry scan;

    public DemoDataset(Spec spec) {
        this.spec = spec;
        double centreRow = (spec.rows() - 1) / 2.0;
        Phantom3D unit = new Phantom3D(Phantom3D.modifiedSheppLogan(), spec.width() / 2.0, centreRow,
                Math.max(1.0, spec.rows()), 1.0);
        this.scan = ScanGeometry.builder().detectorWidth(spec.width()).anglesRange(spec.rangeDeg(), spec.projections())
                .centerOfRotation((spec.width() - 1) / 2.0 + spec.axisOffset()).build();
        float[] s = unit.sinogram(centreRow, scan, true);
        double max = 0;
        for (float v : s) max = Math.max(max, v);
        this.phantom = unit.withAttenuationScale(spec.maxIntegral() / max);
    }

    public Spec spec() {
        return spec;
    }

    /** The phantom in attenuation per pixel: reconstructions should equal its values. */
    public Phantom3D phantom() {
        return phantom;
    }

    /** The true acquisition geometry (angles and the offset axis). */
    public ScanGeometry scanGeometry() {
        return scan;
    }

    public double[] thetaDeg() {
        double[] d = new double[spec.projections()];
        for (int i = 0; i < d.length; i++) d[i] = Math.toDegrees(scan.angleRad(i));
        return d;
    }

    /** Detector gain (flat-field shape) at a pixel. */
    double gain(int row, int col) {
        return 1.0 + 0.15 * Math.sin(2 * Math.PI * col / spec.width() * 1.5) + 0.02 * Math.cos(row * 0.7);
    }

    /** Counts in [angle][row][col], flats and darks, all uint16 values in ints. */
    public record Counts(int[][][] data, int[][][] white, int[][][] dark, double[] thetaDeg) {
    }

    public Counts counts() {
        int w = spec.width(), rows = spec.rows(), n = spec.projections();
        int[][][] data = new int[n][rows][w];
        float[][] sinos = new float[rows][];
        IntStream.range(0, rows).parallel().forEach(r -> sinos[r] = phantom.sinogram(r, scan, true));
        IntStream.range(0, n).parallel().forEach(p -> {
            Random rnd = new Random(spec.seed() * 1_000_003L + p);
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < w; c++) {
                    double mean = spec.i0() * gain(r, c) * Math.exp(-sinos[r][p * w + c]);
                    data[p][r][c] = clamp(spec.darkLevel() + sample(mean, rnd) + darkNoise(rnd));
                }
        });
        Random rnd = new Random(spec.seed() ^ 0x5DEECE66DL);
        int[][][] white = new int[spec.flats()][rows][w];
        for (int[][] f : white)
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < w; c++) f[r][c] = clamp(spec.darkLevel() + sample(spec.i0() * gain(r, c), rnd) + darkNoise(rnd));
        int[][][] dark = new int[spec.darks()][rows][w];
        for (int[][] f : dark)
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < w; c++) f[r][c] = clamp(spec.darkLevel() + darkNoise(rnd));
        return new Counts(data, white, dark, thetaDeg());
    }

    private double sample(double mean, Random rnd) {
        if (!spec.poisson()) return mean;
        // Gaussian approximation of Poisson, exact enough above ~20 counts; exact Knuth sampling below
        if (mean > 30) return Math.max(0, mean + Math.sqrt(mean) * rnd.nextGaussian());
        double l = Math.exp(-mean), prod = rnd.nextDouble();
        int k = 0;
        while (prod > l) {
            k++;
            prod *= rnd.nextDouble();
        }
        return k;
    }

    private double darkNoise(Random rnd) {
        return spec.poisson() ? 2.0 * rnd.nextGaussian() : 0.0;
    }

    private static int clamp(double v) {
        return (int) Math.max(0, Math.min(65535, Math.round(v)));
    }

    /** Writes the scan as a DataExchange HDF5 file. */
    public void writeHdf5(Path file) {
        Counts c = counts();
        DataExchangeWriter.writeUint16(file, c.data(), c.white(), c.dark(), c.thetaDeg(), "tomospark demo phantom");
    }

    /**
     * Writes the scan as a TIFF stack: {@code proj_00000.tif …}, {@code flat_00000.tif …},
     * {@code dark_00000.tif …} (16-bit unsigned) and {@code theta.txt} (degrees, one per line).
     */
    public void writeTiffStack(Path dir) {
        Counts c = counts();
        try {
            Files.createDirectories(dir);
            writeFrames(dir, "proj", c.data());
            writeFrames(dir, "flat", c.white());
            writeFrames(dir, "dark", c.dark());
            StringBuilder sb = new StringBuilder();
            for (double t : c.thetaDeg()) sb.append(t).append('\n');
            Files.writeString(dir.resolve("theta.txt"), sb);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot write TIFF stack", e);
        }
    }

    private static void writeFrames(Path dir, String prefix, int[][][] frames) throws IOException {
        for (int i = 0; i < frames.length; i++) {
            int h = frames[i].length, w = frames[i][0].length;
            BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_USHORT_GRAY);
            short[] px = ((DataBufferUShort) img.getRaster().getDataBuffer()).getData();
            for (int r = 0; r < h; r++) for (int col = 0; col < w; col++) px[r * w + col] = (short) frames[i][r][col];
            Path f = dir.resolve(String.format("%s_%05d.tif", prefix, i));
            if (!ImageIO.write(img, "tiff", f.toFile())) throw new IOException("no TIFF writer");
        }
    }

    /** An in-memory source over the simulated counts (for tests and benchmarks without files). */
    public ProjectionSource asSource() {
        Counts c = counts();
        return new InMemorySource("demo-phantom", c);
    }

    static final class InMemorySource implements ProjectionSource {
        private final String name;
        private final Counts c;
        private final ScanMetadata meta;

        InMemorySource(String name, Counts c) {
            this.name = name;
            this.c = c;
            this.meta = new ScanMetadata(name, c.data().length, c.data()[0].length, c.data()[0][0].length,
                    ScanMetadata.SampleType.UINT16, c.thetaDeg(), c.white().length, c.dark().length);
        }

        @Override
        public ScanMetadata metadata() {
            return meta;
        }

        private RawStack band(int[][][] a, int rowStart, int rows) {
            if (a.length == 0) return null;
            if (rowStart < 0 || rows < 1 || rowStart + rows > meta.rows())
                throw new IllegalArgumentException(name + ": rows " + rowStart + "+" + rows + " outside " + meta.rows());
            int w = meta.width();
            short[] s = new short[a.length * rows * w];
            int i = 0;
            for (int[][] f : a) for (int r = 0; r < rows; r++) for (int col = 0; col < w; col++) s[i++] = (short) f[rowStart + r][col];
            return RawStack.ofUint16(a.length, rows, w, s);
        }

        @Override
        public RawStack readProjections(int rowStart, int rows) {
            return band(c.data(), rowStart, rows);
        }

        @Override
        public RawStack readFlats(int rowStart, int rows) {
            return band(c.white(), rowStart, rows);
        }

        @Override
        public RawStack readDarks(int rowStart, int rows) {
            return band(c.dark(), rowStart, rows);
        }

        @Override
        public void close() {
        }
    }
}
