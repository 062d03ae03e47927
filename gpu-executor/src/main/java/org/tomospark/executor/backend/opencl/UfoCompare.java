package org.tomospark.executor.backend.opencl;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import javax.imageio.ImageIO;
import java.awt.Point;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferFloat;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Peer comparison with UFO (ufo-launch on the same OpenCL device), driven by submit/compare-ufo.sh.
 * <ul>
 *   <li>{@code write DIR W N SLICES}: writes phantom sinograms (N projections over 180 degrees, W bins, axis
 *       at (W-1)/2), raw to DIR/raw and ramp-filtered with {@link RampFilter} to DIR/filtered, one 32-bit
 *       float TIFF per slice;</li>
 *   <li>{@code compare DIR W N SLICES UFO_OUT_DIR SCALE FLIP}: reconstructs DIR/filtered with this
 *       backend (variant from -Dvariant, default auto, device from -Ddevice), times it, and prints the
 *       relative L2 difference to the UFO slices after multiplying ours by SCALE and flipping vertically
 *       if FLIP is true. UFO's slices are read as .raw (little-endian float32; UFO's TIFF writer emits
 *       BigTIFF, which the JDK reader does not read) or .tif.</li>
 * </ul>
 */
public final class UfoCompare {
    private UfoCompare() {
    }

    public static void main(String[] args) throws IOException {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        int w = Integer.parseInt(args[2]), n = Integer.parseInt(args[3]), slices = Integer.parseInt(args[4]);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(180, n).build();
        if (mode.equals("write")) {
            Files.createDirectories(dir.resolve("raw"));
            Files.createDirectories(dir.resolve("filtered"));
            RampFilter f = new RampFilter(w, n, FilterSpec.of(FilterWindow.RAMLAK));
            for (int s = 0; s < slices; s++) {
                float[] sino = phantom(scan, s);
                writeTiff(dir.resolve(String.format("raw/sino-%04d.tif", s)), sino, w, n);
                f.filterRows(sino, n, null);
                writeTiff(dir.resolve(String.format("filtered/sino-%04d.tif", s)), sino, w, n);
            }
            return;
        }
        Path ufoOut = Path.of(args[5]);
        double scale = Double.parseDouble(args[6]);
        boolean flip = Boolean.parseBoolean(args[7]);
        float[][] sinos = new float[slices][];
        for (int s = 0; s < slices; s++) sinos[s] = readTiff(dir.resolve(String.format("filtered/sino-%04d.tif", s)).toFile());
        BackprojectionJob job = new BackprojectionJob(scan, SliceGeometry.square(w), slices);
        BackendOptions o = BackendOptions.defaults().withVariant(System.getProperty("variant", "auto"))
                .withDevice(System.getProperty("device", "")).withSlicesPerPass(Integer.parseInt(System.getProperty("k", "4")))
                .withInterpolation(Interpolation.parse(System.getProperty("interp", "nearest")))
                .withExtra("opencl.coords", System.getProperty("coords", "auto"));
        float[][] out = new float[slices][w * w];
        long best = Long.MAX_VALUE;
        String desc;
        try (BackprojectionBackend b = Backends.open(System.getProperty("backend", "opencl"), o)) {
            desc = b.validate(job).description();
            for (int rep = 0; rep < 3; rep++) {
                long t0 = System.nanoTime();
                b.process(new SliceBatch(0, sinos, n, w, true), out);
                best = Math.min(best, System.nanoTime() - t0);
            }
        }
        File[] ufo = ufoOut.toFile().listFiles((d, name) -> name.endsWith(".tif") || name.endsWith(".raw"));
        if (ufo == null || ufo.length != slices)
            throw new IllegalStateException("expected " + slices + " UFO slices in " + ufoOut + ", found "
                    + (ufo == null ? 0 : ufo.length));
        Arrays.sort(ufo);
        double num = 0, den = 0, numIn = 0, denIn = 0;
        double cc = (w - 1) / 2.0, rad2 = (w / 2.0 - 1) * (w / 2.0 - 1);
        for (int s = 0; s < slices; s++) {
            float[] u = readTiff(ufo[s]);
            if (u.length != w * w) throw new IllegalStateException(ufo[s] + " has " + u.length + " pixels, expected " + w * w);
            for (int r = 0; r < w; r++)
                for (int c = 0; c < w; c++) {
                    double ours = out[s][(flip ? w - 1 - r : r) * w + c] * scale;
                    double d = ours - u[r * w + c];
                    num += d * d;
                    den += (double) u[r * w + c] * u[r * w + c];
                    if ((r - cc) * (r - cc) + (c - cc) * (c - cc) <= rad2) { // inside the detector's field of view
                        numIn += d * d;
                        denIn += (double) u[r * w + c] * u[r * w + c];
                    }
                }
        }
        System.out.printf(Locale.ROOT,
                "ours: %s%nours: %d slices in %.1f ms (best of 3, process() only) = %.3f GU/s%nrelative L2 (ours x %.6g%s vs UFO): whole "
                + "image %.3e, inside the field-of-view circle %.3e%n",
                desc, slices, best / 1e6, (double) w * w * n * slices / best, scale, flip ? ", flipped vertically" : "",
                        Math.sqrt(num / den), Math.sqrt(numIn / denIn));
    }

    /** Three discs, analytic projections (the same phantom shape as the tests). */
    static float[] phantom(ScanGeometry scan, int s) {
        int w = scan.detectorWidth(), n = scan.numProjections();
        double c = scan.centerOfRotation();
        float[] out = new float[n * w];
        double[][] discs = {{0, 0, 0.42 * w, 1.0}, {0.1 * w + s, -0.05 * w, 0.12 * w, 0.6}, {-0.15 * w, 0.1 * w - s, 0.07 * w, -0.3}};
        for (int p = 0; p < n; p++) {
            double a = scan.angleRad(p), ca = Math.cos(a), sa = Math.sin(a);
            for (int j = 0; j < w; j++) {
                double t = j - c, v = 0;
                for (double[] d : discs) {
                    double u = t - (d[0] * ca + d[1] * sa);
                    if (Math.abs(u) < d[2]) v += 2 * d[3] * Math.sqrt(d[2] * d[2] - u * u);
                }
                out[p * w + j] = (float) v;
            }
        }
        return out;
    }

    /** A 32-bit float grayscale TIFF through the JDK's built-in writer. */
    static void writeTiff(Path file, float[] data, int width, int height) throws IOException {
        ComponentColorModel cm = new ComponentColorModel(ColorSpace.getInstance(ColorSpace.CS_GRAY), false, false,
                Transparency.OPAQUE, DataBuffer.TYPE_FLOAT);
        WritableRaster raster = Raster.createWritableRaster(cm.createCompatibleSampleModel(width, height),
                new DataBufferFloat(data.clone(), data.length), new Point(0, 0));
        BufferedImage img = new BufferedImage(cm, raster, false, null);
        if (!ImageIO.write(img, "tiff", file.toFile())) throw new IOException("no TIFF writer for float images");
    }

    static float[] readTiff(File f) throws IOException {
        if (f.getName().endsWith(".raw")) { // UFO's raw writer: little-endian float32, no header
            ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(f.toPath())).order(ByteOrder.LITTLE_ENDIAN);
            float[] v = new float[bb.remaining() / 4];
            bb.asFloatBuffer().get(v);
            return v;
        }
        BufferedImage img = ImageIO.read(f);
        if (img == null) throw new IOException("cannot read " + f);
        Raster r = img.getRaster();
        return r.getPixels(0, 0, r.getWidth(), r.getHeight(), (float[]) null);
    }
}
