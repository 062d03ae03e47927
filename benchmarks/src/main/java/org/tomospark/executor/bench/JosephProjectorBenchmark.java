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
import org.tomospark.executor.iterative.JosephProjector;
import org.tomospark.executor.testing.Noise;

import java.util.concurrent.TimeUnit;

/**
 * JMH benchmark of the iterative methods' Java projector pair: one operation projects and back-projects
 * {@code slices} slices of {@code size}² pixels over {@code size} projections of {@code size} columns, {@code k} slices
 * per pass; {@code fbp} back-projects the same slices with the java backend's filtered back-projection kernel (8
 * slices per pass, its auto variant) for comparison in the same run. Run it with {@code ./submit/bench-iterative}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xmx6g"})
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
public class JosephProjectorBenchmark {
    @Param({"512"})
    public int size;

    @Param({"8"})
    public int slices;

    /** Slices per pass of the projector pair. */
    @Param({"1", "8"})
    public int k;

    private JosephProjector projector;
    private float[][] images;
    private float[][] sinograms;
    private int[] angles;
    private ScanGeometry scan;
    private SliceGeometry grid;

    @Setup(Level.Trial)
    public void setup() {
        scan = ScanGeometry.builder().detectorWidth(size).anglesRange(180, size).build();
        grid = SliceGeometry.square(size);
        projector = new JosephProjector(scan, grid, k);
        angles = projector.allAngles();
        images = Noise.centred(slices / k, grid.pixels() * k, 1, i -> 1);
        sinograms = new float[slices / k][size * size * k];
    }

    /** One iteration's projector work: A then Aᵀ for every pass. */
    @Benchmark
    public void forwardAndBack(Blackhole bh) {
        for (int p = 0; p < images.length; p++) {
            projector.forward(images[p], sinograms[p], angles);
            projector.back(sinograms[p], images[p], angles);
        }
        bh.consume(images);
    }

    @Benchmark
    public void forward(Blackhole bh) {
        for (int p = 0; p < images.length; p++) projector.forward(images[p], sinograms[p], angles);
        bh.consume(sinograms);
    }

    @Benchmark
    public void back(Blackhole bh) {
        for (int p = 0; p < images.length; p++) projector.back(sinograms[p], images[p], angles);
        bh.consume(images);
    }

    /** The filtered back-projection kernel on the same problem (k is ignored: the backend's 8 per pass). */
    @State(Scope.Benchmark)
    public static class Fbp {
        JavaBackend backend;
        float[][] sinos;
        float[][] out;

        @Setup(Level.Trial)
        public void setup(JosephProjectorBenchmark b) {
            backend = new JavaBackend();
            backend.setup(BackendOptions.defaults().withSlicesPerPass(8));
            backend.validate(new BackprojectionJob(b.scan, b.grid, b.slices));
            sinos = Noise.centred(b.slices, b.size * b.size, 1, i -> 1);
            out = new float[b.slices][b.grid.pixels()];
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            backend.close();
        }
    }

    @Benchmark
    public void fbpBackproject(Fbp f, Blackhole bh) {
        f.backend.process(new SliceBatch(0, f.sinos, size, size, true), f.out);
        bh.consume(f.out);
    }

    /** Voxel updates of one projection (forward or back) of every slice. */
    public static long updates(int size, int slices) {
        return (long) size * size * size * slices;
    }
}
