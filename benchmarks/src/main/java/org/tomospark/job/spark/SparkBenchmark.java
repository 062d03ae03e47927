package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Benchmark (not a test): the Spark job in local mode against the direct library call (the CLI's direct
 * engine), same HDF5 input, same parameters, both writing float32 TIFF slices to local disk; measured in
 * alternation in one JVM after a warm-up of each. Efficiency = direct wall time / Spark wall time.
 * <pre>java -cp ... org.tomospark.job.spark.SparkBenchmark [width rows projections rounds master]</pre>
 */
public final class SparkBenchmark {
    public static void main(String[] a) throws Exception {
        int w = a.length > 0 ? Integer.parseInt(a[0]) : 512, rows = a.length > 1 ? Integer.parseInt(a[1]) : 32;
        int proj = a.length > 2 ? Integer.parseInt(a[2]) : 512, rounds = a.length > 3 ? Integer.parseInt(a[3]) : 3;
        String masterUrl = a.length > 4 ? a[4] : "local[*]";
        Path dir = Files.createTempDirectory("tomobench");
        Path h5 = dir.resolve("scan.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(w, rows, proj)).writeHdf5(h5);
        ReconstructionParams params = ReconstructionParams.builder().backend("java").build();
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

        SparkConf conf = new SparkConf().setMaster(masterUrl).setAppName("tomospark-bench").set("spark.driver.host", "127.0.0.1")
                .set("spark.ui.enabled", "false");
        TomoKryoRegistrator.configure(conf);
        SparkContext sc = new SparkContext(conf);
        long updates = (long) w * w * proj * rows;
        List<Double> direct = new ArrayList<>(), spark = new ArrayList<>();
        String sparkGroups = "";
        for (int r = -1; r < rounds; r++) { // round -1 warms both up
            Path od = dir.resolve("direct"), os = dir.resolve("spark");
            long t0 = System.nanoTime();
            new DirectEngine(HadoopConf.create(), quiet).run(new JobRequest(h5.toString(), od.toString(), params, true, false, false,
                    Settings.empty()));
            long t1 = System.nanoTime();
            SparkReconstruction.Result res = SparkReconstruction.run(sc, SparkJobSpec.of(h5.toString(), os.toString(), params)
                    .withOverwrite(true).withSpark(SparkOptions.defaults().withProgress(false)), null);
            long t2 = System.nanoTime();
            sparkGroups = res.groups().size() + " groups of " + ((Map<?, ?>) res.report().get("groups")).get("rowsPerGroup") + " rows";
            if (r >= 0) {
                direct.add((t1 - t0) / 1e9);
                spark.add((t2 - t1) / 1e9);
            }
            System.out.printf("round %d: direct %.3f s, spark %.3f s%n", r, (t1 - t0) / 1e9, (t2 - t1) / 1e9);
        }
        sc.stop();
        double md = median(direct), ms = median(spark);
        System.out.printf("dataset %dx%d detector, %d rows, %d projections (uint16 HDF5), %.2f G voxel updates%n", w, w, rows, proj,
                updates / 1e9);
        System.out.printf("cores %d, master %s, spark: %s%n", Runtime.getRuntime().availableProcessors(), masterUrl, sparkGroups);
        System.out.printf("direct median %.3f s (%.3f GU/s), spark median %.3f s (%.3f GU/s), efficiency %.1f %%%n", md, updates / md / 1e9,
                ms, updates / ms / 1e9, 100 * md / ms);
        System.out.println("direct runs " + direct + "\nspark runs  " + spark);
    }

    static double median(List<Double> l) {
        List<Double> s = new ArrayList<>(l);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
