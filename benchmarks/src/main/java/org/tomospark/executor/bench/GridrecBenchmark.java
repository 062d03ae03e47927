package org.tomospark.executor.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.fourier.Gridrec;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * JMH benchmark of gridrec against the image-space FBP in the same run: one operation reconstructs {@code slices}
 * unfiltered sinograms of {@code size} projections (over 180°) × {@code size} columns into {@code size}² slices, on
 * {@code threads} threads ("all": every available processor). Throughput in GU/s is
 * {@code slices·size³ / (ms per op · 10⁶)}; per core, divide by the threads.
 *
 * <ul>
 *   <li>{@code gridrec}: {@link Gridrec#reconstruct} on a fork-join pool of that many threads: the whole method (row FFTs,
 *   ramp filter, gridding, 2-D inverse FFT, deapodisation, crop); its workspaces are kept between operations, as a
 *   pipeline would keep the instance.</li>
 *   <li>{@code fbp}: the sinograms copied into scratch arrays, ramp-filtered on the host ({@link RampFilter#filterRows}
 *   on the same pool), then back-projected by {@link JavaBackend} with its defaults (8 slices per pass, Vector API
 *   kernel, linear interpolation) and {@code BackendOptions.threads} set to the same count.</li>
 * </ul>
 *
 * <p>Run it with the test classpath (JavaBench's table runner knows only the back-projection benchmark):
 * <pre>
 * mvn -q -B -pl gpu-executor dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -DincludeScope=test
 * java --add-modules=jdk.incubator.vector \
 *     -cp gpu-executor/target/test-classes:gpu-executor/target/classes:$(cat gpu-executor/target/test-classpath.txt) \
 *     org.openjdk.jmh.Main GridrecBenchmark -p size=2048 -wi 1 -i 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xmx6g"})
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
public class GridrecBenchmark {
    @Param({"1024"})
    public int size;

    @Param({"8"})
    public int slices;

    @Param({"gridrec", "fbp"})
    public String method;

    /** Threads: a number, or "all" for every available processor. */
    @Param({"1", "all"})
    public String threads;

    private ForkJoinPool pool;
    private Gridrec gridrec;
    private RampFilter ramp;
    private JavaBackend backend;
    private float[][] sinos;
    private float[][] filtered;
    private float[][] out;

    @Setup(Level.Trial)
    public void setup() {
        int t = threads.equals("all") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(threads);
        pool = new ForkJoinPool(t);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(size).anglesRange(180, size).build();
        SliceGeometry g = SliceGeometry.square(size);
        FilterSpec spec = FilterSpec.of(FilterWindow.RAMLAK);
        sinos = Noise.centred(slices, size * size, 1, i -> 1);
        out = new float[slices][g.pixels()];
        if (method.equals("gridrec")) {
            gridrec = new Gridrec(scan, g, spec);
        } else if (method.equals("fbp")) {
            ramp = new RampFilter(size, size, spec);
            filtered = new float[slices][size * size];
            backend = new JavaBackend();
            backend.setup(BackendOptions.defaults().withThreads(t));
            backend.validate(new BackprojectionJob(scan, g, slices));
        } else {
            throw new IllegalArgumentException("method must be gridrec or fbp, got " + method);
        }
    }

    @Benchmark
    public void reconstruct(Blackhole bh) {
        if (gridrec != null) {
            gridrec.reconstruct(sinos, out, pool);
        } else {
            for (int s = 0; s < slices; s++) {
                System.arraycopy(sinos[s], 0, filtered[s], 0, size * size);
                ramp.filterRows(filtered[s], size, pool);
            }
            backend.process(new SliceBatch(0, filtered, size, size, true), out);
        }
        bh.consume(out);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (backend != null) backend.close();
        pool.shutdown();
    }

    /** Voxel updates of one operation. */
    public static long updates(int size, int slices) {
        return (long) size * size * size * slices;
    }
}
