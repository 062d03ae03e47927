package org.tomospark.job.local;

import org.tomospark.executor.cone.ConeDemoDataset;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.JobKeys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

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

    /**
     * The cone-beam demo (geometry=cone): {@link ConeDemoDataset#demo()}, its size from the demo.* keys where they are set,
     * a short scan when demo.range is 180.
     */
    public static ConeDemoDataset coneSpec(Settings s) {
        ConeDemoDataset d = ConeDemoDataset.demo();
        d = d.withSize(s.isSet(JobKeys.DEMO_WIDTH) ? s.get(JobKeys.DEMO_WIDTH) : d.cols(),
                s.isSet(JobKeys.DEMO_ROWS) ? s.get(JobKeys.DEMO_ROWS) : d.rows(),
                s.isSet(JobKeys.DEMO_PROJECTIONS) ? s.get(JobKeys.DEMO_PROJECTIONS) : d.projections());
        return d.withNoise(s.get(JobKeys.DEMO_NOISE)).withShortScan(s.isSet(JobKeys.DEMO_RANGE) && s.get(JobKeys.DEMO_RANGE) == 180);
    }

    /** Path of the demo file for these settings (parallel beam, or cone beam with geometry=cone), generating it if needed. */
    public static Path ensure(Settings s) {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "tomospark-demo");
        if (s.get(CoreKeys.GEOMETRY).equals("cone")) {
            ConeDemoDataset d = coneSpec(s);
            String name = String.format("demo-cone-%dx%dx%d-%s%s.h5", d.cols(), d.rows(), d.projections(), d.noise() ? "noise" : "clean",
                    d.shortScan() ? "-short" : "");
            return generate(dir, name, d::writeHdf5);
        }
        DemoDataset.Spec spec = spec(s);
        String name = String.format("demo-%dx%dx%d-%s-%s%s.h5", spec.width(), spec.rows(), spec.projections(),
                spec.poisson() ? "noise" : "clean", Double.toString(spec.axisOffset()).replace('.', 'p'),
                spec.rangeDeg() == 180 ? "" : "-360");
        return generate(dir, name, new DemoDataset(spec)::writeHdf5);
    }

    /** dir/name, written by {@code writer} under a temporary name and moved into place unless it exists. */
    private static Path generate(Path dir, String name, Consumer<Path> writer) {
        Path f = dir.resolve(name);
        if (Files.isRegularFile(f)) return f;
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, name, ".part");
            Files.delete(tmp);
            writer.accept(tmp);
            Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot write the demo dataset", e);
        }
    }
}
