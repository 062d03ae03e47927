package org.tomospark.job.cli;

import org.tomospark.executor.phantom.DemoDataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Writes the simulated phantom scan as DataExchange HDF5 and optionally a TIFF stack. */
@Command(name = "demo-data", mixinStandardHelpOptions = true,
        description = "Write the simulated 3-D Shepp-Logan scan (uint16 counts, flats, darks, theta) as DataExchange HDF5.")
public final class DemoDataCommand implements Callable<Integer> {
    @Option(names = "--output", required = true, paramLabel = "FILE.h5") Path output;
    @Option(names = "--tiff", paramLabel = "DIR", description = "Also write a TIFF stack (proj_/flat_/dark_NNNNN.tif, theta.txt).")
            Path tiff;
    @Option(names = "--width", defaultValue = "512") int width;
    @Option(names = "--rows", defaultValue = "32") int rows;
    @Option(names = "--projections", defaultValue = "512") int projections;
    @Option(names = "--range", defaultValue = "180", description = "180 or 360 degrees.") double range;
    @Option(names = "--axis-offset", defaultValue = "0", description = "Axis minus detector centre, pixels.") double axisOffset;
    @Option(names = "--noise", defaultValue = "true", negatable = true, description = "Poisson noise (default on).") boolean noise;
    @Option(names = "--seed", defaultValue = "42") long seed;

    @Override
    public Integer call() {
        DemoDataset.Spec spec = new DemoDataset.Spec(width, rows, projections, range, axisOffset, 1.5, 20000, 100, 10, 10, noise, seed);
        DemoDataset d = new DemoDataset(spec);
        d.writeHdf5(output);
        System.err.println("wrote " + output + " (" + projections + " x " + rows + " x " + width + ", centre "
                + d.scanGeometry().centerOfRotation() + ")");
        if (tiff != null) {
            d.writeTiffStack(tiff);
            System.err.println("wrote TIFF stack " + tiff);
        }
        return 0;
    }
}
