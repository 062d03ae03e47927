package org.tomospark.job.local;

import org.tomospark.executor.config.Settings;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.JobKeys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The built-in demo: a simulated phantom scan written once as a DataExchange file under the temporary
 * directory and then read like any other input.
 */
public final class DemoInput {
    private DemoInput() {
    }

    public static DemoDataset.Spec spec(Settings s) {
        return DemoDataset.Spec.demo().withSize(s.get(JobKeys.DEMO_WIDTH), s.get(JobKeys.DEMO_ROWS), s.get(JobKeys.DEMO_PROJECTIONS))
                .withNoise(s.get(JobKeys.DEMO_NOISE)).withAxisOffset(s.get(JobKeys.DEMO_AXIS_OFFSET))
                .withRange(s.get(JobKeys.DEMO_RANGE));
    }

    /** Path of the demo file for these settings, generating it if needed. */
    public static Path ensure(Settings s) {
        DemoDataset.Spec spec = spec(s);
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "tomospark-demo");
        String name = String.format("demo-%dx%dx%d-%s-%s%s.h5", spec.width(), spec.rows(), spec.projections(),
                spec.poisson() ? "noise" : "clean", Double.toString(spec.axisOffset()).replace('.', 'p'),
                spec.rangeDeg() == 180 ? "" : "-360");
        Path f = dir.resolve(name);
        if (Files.isRegularFile(f)) return f;
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, name, ".part");
            Files.delete(tmp);
            new DemoDataset(spec).writeHdf5(tmp);
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot write the demo dataset", e);
        }
    }
}
