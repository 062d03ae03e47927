package org.tomospark.bench;

import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.tomospark.job.RunFailedException;
import org.tomospark.notebook.Reconstruction;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How soon a notebook's Cancel stops a run: the notebook API's run on a local Spark session, in a job group, cancelled
 * ({@code cancelJobGroup}, as Zeppelin's Cancel button: task threads are not interrupted) a given time after the slice
 * groups' job started; the time from the cancel to the run's return. Default planning, so the groups are those a user
 * gets; a first, complete run says how long they take.
 *
 * <pre>
 * CancelLatencyBench --scan FILE.h5 --out DIR [--backend java|cuda|opencl] [--master local[*]] [--after 2,5,10]
 *                    [--center C] [--no-full]
 * </pre>
 */
public final class CancelLatencyBench {
    private CancelLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        Path scan = null, out = null;
        String backend = "java", master = "local[*]";
        List<Double> after = new ArrayList<>(List.of(2.0, 5.0, 10.0));
        double center = Double.NaN;
        boolean full = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scan" -> scan = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--backend" -> backend = args[++i];
                case "--master" -> master = args[++i];
                case "--center" -> center = Double.parseDouble(args[++i]);
                case "--no-full" -> full = false;
                case "--after" -> {
                    after.clear();
                    for (String s : args[++i].split(",")) after.add(Double.parseDouble(s));
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (scan == null || out == null) throw new IllegalArgumentException("--scan and --out are required");
        SparkConf conf = new SparkConf().setMaster(master).setAppName("cancel-latency")
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1").set("spark.ui.enabled", "false");
        SparkContext sc = new SparkContext(conf);
        try {
            Reconstruction.Builder b = Reconstruction.builder(sc).input(scan.toString()).backend(backend).progress(false)
                    .preview(false).overwrite();
            if (!Double.isNaN(center)) b = b.center(center);
            Files.createDirectories(out);
            if (full) {
                Reconstruction.Result r = b.output(out.resolve("full").toString()).run();
                System.out.printf(Locale.ROOT, "complete run: job %.2f s, %s groups of %s rows, task median %s s, slowest %s s%n",
                        r.report().number("timings.jobSeconds"), r.report().at("groups.run"), r.report().at("groups.rowsPerGroup"),
                        r.report().at("groups.taskSecondsMedian"), r.report().at("groups.taskSecondsMax"));
            }
            System.out.println("| cancel after the job started, s | cancel to return, s |");
            System.out.println("|---|---|");
            for (double a : after) {
                double latency = cancelled(sc, b.output(out.resolve("cancel-" + a).toString()), a);
                System.out.printf(Locale.ROOT, "| %.1f | %.2f |%n", a, latency);
            }
        } finally {
            sc.stop();
        }
    }

    /** Runs b, cancels its job group {@code after} seconds into its slice groups' job: seconds from cancel to return. */
    static double cancelled(SparkContext sc, Reconstruction.Builder b, double after) {
        String group = "zeppelin|bench|note|paragraph-" + after;
        AtomicLong cancelledAt = new AtomicLong();
        AtomicInteger jobs = new AtomicInteger();
        SparkListener canceller = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                // the run's first job watches the group while the driver plans; the second is its slice groups'
                if (jobs.incrementAndGet() != 2) return;
                Thread t = new Thread(() -> {
                    try {
                        Thread.sleep((long) (after * 1000));
                    } catch (InterruptedException e) {
                        return;
                    }
                    cancelledAt.set(System.nanoTime());
                    sc.cancelJobGroup(group);
                }, "canceller");
                t.setDaemon(true);
                t.start();
            }
        };
        sc.setJobGroup(group, "a notebook paragraph", false);
        sc.addSparkListener(canceller);
        try {
            b.run();
            System.out.printf(Locale.ROOT, "the run ended before the cancel at %.1f s%n", after);
            return Double.NaN;
        } catch (RunFailedException e) {
            long returned = System.nanoTime();
            if (cancelledAt.get() == 0) throw e;
            return (returned - cancelledAt.get()) / 1e9;
        } finally {
            sc.removeSparkListener(canceller);
            sc.clearJobGroup();
        }
    }
}
