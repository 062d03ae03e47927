package org.tomospark.executor.bench;

import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.util.Collection;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The Java FDK back-projection of one z-slab: {@code size}³ voxels of which a slab of {@code slab} slices, from
 * {@code projections} projections over 360° of a {@code size·2}-square detector (magnification 2, 0.4 mm pixels), the
 * band of rows the slab needs; random filtered data. GUPS = slab × size² × projections / s. {@code path}: the
 * circular column path on the Vector API ({@code vector}) or in plain loops ({@code scalar}, the same-run baseline).
 * Run it with {@code ./submit/bench-fdk} (its main prints a table).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xmx6g"})
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
public class FdkBenchmark {
    @Param({"128"})
    public int size;
    @Param({"256"})
    public int projections;
    @Param({"32"})
    public int slab;
    @Param({"vector", "scalar"})
    public String path;

    private FdkBackprojector bp;
    private float[][] q;
    private int[] band;
    private int k0;

    @Setup
    public void setup() {
        int det = 2 * size;
        ConeGeometry g = ConeGeometry.builder().dso(200).dsd(400).pixel(0.4, 0.4).centre((det - 1) / 2.0, (det - 1) / 2.0)
                .detector(det, det).anglesRange(360, projections).build();
        ConeVolume vol = new ConeVolume(size, size, 0.25 * 128 / size);
        bp = new FdkBackprojector(g, vol, path.equals("vector"));
        if (bp.vectorColumns() != path.equals("vector"))
            throw new IllegalStateException("path " + path + " is not available here: " + bp.description());
        k0 = (size - slab) / 2;
        band = SlabPlanner.rows(g, vol, k0, k0 + slab);
        Random r = new Random(1);
        q = new float[projections][band[1] * det];
        for (float[] p : q) for (int i = 0; i < p.length; i++) p[i] = r.nextFloat();
    }

    @Benchmark
    public float[][] backproject() {
        float[][] out = new float[slab][size * size];
        bp.backproject(q, band[0], band[1], k0, out);
        return out;
    }

    public static void main(String[] args) throws RunnerException, Exception {
        Options opt = new OptionsBuilder().parent(new CommandLineOptions(args)).include(FdkBenchmark.class.getSimpleName()).build();
        Collection<RunResult> results = new Runner(opt).run();
        System.out.println();
        System.out.println("| path | size | slab | projections | ms/op | GUPS |");
        System.out.println("|---|---|---|---|---|---|");
        for (RunResult r : results) {
            int size = Integer.parseInt(r.getParams().getParam("size")), slab = Integer.parseInt(r.getParams().getParam("slab"));
            int np = Integer.parseInt(r.getParams().getParam("projections"));
            double ms = r.getPrimaryResult().getScore(), err = r.getPrimaryResult().getScoreError();
            System.out.printf("| %s | %d | %d | %d | %.1f ± %.1f | %.3f |%n", r.getParams().getParam("path"), size, slab, np, ms, err,
                    (double) slab * size * size * np / (ms * 1e6));
        }
    }
}
