package org.tomospark.bench;

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
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.testing.Phantoms;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Peer comparison with UFO (ufo-launch on the same OpenCL device), driven by submit/compare-ufo.sh.
 * <ul>
 *   <li>{@code write DIR W N SLICES}: writes phantom sinograms ({@link Phantoms#discs}: N projections over 180
 *       degrees, W bins, axis at (W-1)/2), raw to DIR/raw and ramp-filtered with {@link RampFilter} to DIR/filtered,
 *       one 32-bit float TIFF per slice ({@link FloatTiff}, the encoder of the product's slices);</li>
 *   <li>{@code compare DIR W N SLICES UFO_OUT_DIR SCALE FLIP}: reconstructs DIR/filtered with this
 *       backend (variant from -Dvariant, default auto, device from -Ddevice), times it, and prints the
 *       relative L2 difference to the UFO slices after multiplying ours by SCALE and flipping vertically
 *       if FLIP is true. UFO's slices are read as .raw (little-endian float32; UFO's TIFF writer emits
 *       BigTIFF, which the JDK reader does not read) or as .tif with {@link FloatTiff}.</li>
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
            float[][] sinos = Phantoms.discs(slices, scan, false);
            for (int s = 0; s < slices; s++) {
                float[] sino = sinos[s];
                Files.write(dir.resolve(String.format("raw/sino-%04d.tif", s)), FloatTiff.encode(sino, w, n));
                f.filterRows(sino, n, null);
                Files.write(dir.resolve(String.format("filtered/sino-%04d.tif", s)), FloatTiff.encode(sino, w, n));
            }
            return;
        }
        Path ufoOut = Path.of(args[5]);
        double scale = Double.parseDouble(args[6]);
        boolean flip = Boolean.parseBoolean(args[7]);
        float[][] sinos = new float[slices][];
        for (int s = 0; s < slices; s++) sinos[s] = readImage(dir.resolve(String.format("filtered/sino-%04d.tif", s)));
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
        List<Path> ufo;
        try (Stream<Path> files = Files.list(ufoOut)) {
            ufo = files.filter(x -> x.toString().endsWith(".tif") || x.toString().endsWith(".raw")).sorted().toList();
        }
        if (ufo.size() != slices)
            throw new IllegalStateException("expected " + slices + " UFO slices in " + ufoOut + ", found " + ufo.size());
        double num = 0, den = 0, numIn = 0, denIn = 0;
        double cc = (w - 1) / 2.0, rad2 = (w / 2.0 - 1) * (w / 2.0 - 1);
        for (int s = 0; s < slices; s++) {
            float[] u = readImage(ufo.get(s));
            if (u.length != w * w) throw new IllegalStateException(ufo.get(s) + " has " + u.length + " pixels, expected " + w * w);
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
                "ours: %s%nours: %d slices in %.1f ms (best of 3, process() only) = %.3f GU/s%n"
                        + "relative L2 (ours x %.6g%s vs UFO): whole image %.3e, inside the field-of-view circle %.3e%n",
                desc, slices, best / 1e6, (double) w * w * n * slices / best, scale, flip ? ", flipped vertically" : "",
                Math.sqrt(num / den), Math.sqrt(numIn / denIn));
    }

    /** One image: UFO's raw output (little-endian float32, no header) or a float TIFF read by the project's reader. */
    static float[] readImage(Path f) throws IOException {
        if (f.getFileName().toString().endsWith(".raw")) {
            ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
            float[] v = new float[bb.remaining() / 4];
            bb.asFloatBuffer().get(v);
            return v;
        }
        return FloatTiff.decode(Files.readAllBytes(f)).pixels();
    }
}
