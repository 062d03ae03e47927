package org.tomospark.job.cli;

import org.tomospark.executor.cone.ConeDemoDataset;
import org.tomospark.executor.phantom.DemoDataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Writes the simulated phantom scan as DataExchange HDF5 and optionally a TIFF stack. */
@Command(name = "demo-data", mixinStandardHelpOptions = true,
        description = "Write the simulated 3-D Shepp-Logan scan (uint16 counts, flats, darks, theta) as DataExchange HDF5.")
public final class DemoDataCommand implements Callable<Integer> {
    @Option(names = "--output", required = true, paramLabel = "FILE.h5") Path output;
    @Option(names = "--tiff", paramLabel = "DIR", description = "Also write a TIFF stack (proj_/flat_/dark_NNNNN.tif, theta.txt).")
            Path tiff;
    @Option(names = "--geometry", defaultValue = "parallel", paramLabel = "KIND",
            description = "parallel, or cone: a cone-beam scan (DSO 200 mm, DSD 400 mm, 0.4 mm pixels) with its /geometry group.")
    String geometry;
    @Option(names = "--width", description = "Detector columns (default 512; cone 256).") Integer width;
    @Option(names = "--rows", description = "Detector rows (default 32; cone 192).") Integer rows;
    @Option(names = "--projections", description = "Angles (default 512; cone 360).") Integer projections;
    @Option(names = "--range", description = "180 or 360 degrees (default 180; cone 360, and 180 means a short scan of 180 "
            + "degrees plus the fan angle).") Double range;
    @Option(names = "--matrices", description = "Cone: also write /geometry/projection_matrices.") boolean matrices;
    @Option(names = "--axis-offset", defaultValue = "0", description = "Axis minus detector centre, pixels.") double axisOffset;
    @Option(names = "--noise", defaultValue = "true", negatable = true, description = "Poisson noise (default on).") boolean noise;
    @Option(names = "--seed", defaultValue = "42") long seed;

    @Override
    public Integer call() throws IOException {
        if (!Double.isFinite(axisOffset))
            throw new IllegalArgumentException("--axis-offset: invalid value '" + axisOffset + "' (expected a finite number of pixels)");
        if (range != null && range != 180 && range != 360)
            throw new IllegalArgumentException("--range: invalid value '" + range + "' (expected 180 or 360)");
        // the demo writes new files only: a file already there, whoever made it, stays as it is
        if (Files.exists(output, LinkOption.NOFOLLOW_LINKS))
            throw new IllegalArgumentException(output + ": already exists; demo-data writes a new file and replaces none: "
                    + "remove it or choose another --output");
        if (tiff != null && Files.exists(tiff, LinkOption.NOFOLLOW_LINKS)
                && (!Files.isDirectory(tiff, LinkOption.NOFOLLOW_LINKS) || !isEmpty(tiff)))
            throw new IllegalArgumentException(tiff + ": already exists and is not an empty folder; demo-data writes its TIFF "
                    + "stack into a new or empty folder and replaces nothing: choose another --tiff");
        if (geometry.equals("cone")) {
            ConeDemoDataset d = ConeDemoDataset.demo();
            d = d.withSize(or(width, d.cols()), or(rows, d.rows()), or(projections, d.projections())).withNoise(noise)
                    .withShortScan(range != null && range == 180).withMatrices(matrices);
            d.writeHdf5(output);
            System.err.println("wrote " + output + " (cone beam: " + d.projections() + " x " + d.rows() + " x " + d.cols() + ", "
                    + d.geometry() + ")");
            return 0;
        }
        if (!geometry.equals("parallel"))
            throw new IllegalArgumentException("--geometry: expected parallel or cone, got '" + geometry + "'");
        DemoDataset.Spec spec = new DemoDataset.Spec(or(width, 512), or(rows, 32), or(projections, 512), range == null ? 180 : range,
                axisOffset, 1.5, 20000, 100, 10, 10, noise, seed);
        DemoDataset d = new DemoDataset(spec);
        d.writeHdf5(output);
        System.err.println("wrote " + output + " (" + spec.projections() + " x " + spec.rows() + " x " + spec.width() + ", centre "
                + d.scanGeometry().centerOfRotation() + ")");
        if (tiff != null) {
            d.writeTiffStack(tiff);
            System.err.println("wrote TIFF stack " + tiff);
        }
        return 0;
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static int or(Integer v, int fallback) {
        return v == null ? fallback : v;
    }
}
