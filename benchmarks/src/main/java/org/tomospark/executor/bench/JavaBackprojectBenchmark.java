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
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.testing.Noise;

import java.util.concurrent.TimeUnit;

/**
 * JMH benchmark of the Java back-projection backend: one operation back-projects {@code slices} sinograms
 * of {@code size} projections × {@code size} columns into {@code size}² slices. Run it with
 * {@code ./submit/bench-java}, which converts the scores into GU/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xmx6g"})
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
public class JavaBackprojectBenchmark {
    @Param({"1024"})
    public int size;

    @Param({"8"})
    public int slices;

    /** "k/variant": slices per pass and kernel variant. */
    @Param({"1/scalar", "8/scalar", "4/vector", "8/vector", "16/vector"})
    public String mode;

    private JavaBackend backend;
    private float[][] sinos;
    private float[][] out;

    @Setup(Level.Trial)
    public void setup() {
        String[] m = mode.split("/");
        int k = Integer.parseInt(m[0]);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(size).anglesRange(180, size).build();
        SliceGeometry g = SliceGeometry.square(size);
        backend = new JavaBackend();
        backend.setup(BackendOptions.defaults().withSlicesPerPass(k).withVariant(m[1]));
        backend.validate(new BackprojectionJob(scan, g, slices));
        sinos = Noise.centred(slices, size * size, 1, i -> 1);
        out = new float[slices][g.pixels()];
    }

    @Benchmark
    public void backproject(Blackhole bh) {
        backend.process(new SliceBatch(0, sinos, size, size, true), out);
        bh.consume(out);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        backend.close();
    }

    /** Voxel updates of one operation. */
    public static long updates(int size, int slices) {
        return (long) size * size * size * slices;
    }
}
