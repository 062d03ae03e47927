package org.tomospark.notebook;

import org.tomospark.job.spark.TestScans;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.job.RunFailedException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A notebook's cancel: the caller's job group (Zeppelin sets one per paragraph) is cancelled from another thread once
 * the run's first task has committed its slice. The run stops with an error that names {@code .resume()}, leaves only
 * whole slices (each bit-identical to the single-machine reconstruction) and no {@code _SUCCESS}, and gives the caller
 * back its job group, description and interrupt flag. While it ran, its job was in the caller's group, where a
 * notebook's progress bar looks for it. {@code .resume()} then finishes the output.
 */
class NotebookCancelTest {
    static final int W = 256, ROWS = 24, PROJ = 360;

    @Test
    void aCancelFromAnotherThreadStopsTheRunLeavingWholeSlicesAndNoSuccess() {
        Path dir = TestScans.tmp("nb-cancel");
        Path scan = dir.resolve("scan.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(W, ROWS, PROJ)).writeHdf5(scan);
        double center = (W - 1) / 2.0;
        Map<Integer, float[]> reference = TestScans.reconstructDirect(scan, ReconstructionParams.builder().backend("java")
                .filter(FilterSpec.of(FilterWindow.SHEPP_LOGAN)).center(center).build());
        Path out = dir.resolve("rec");
        Reconstruction.Builder b = Reconstruction.builder(TestScans.spark()).input(scan.toString())
                .output(out.toString()).backend("java").filter("shepp-logan").center(center).groupRows(1);

        SparkContext sc = TestScans.spark();
        String group = "paragraph_cancel";
        AtomicInteger jobsInGroup = new AtomicInteger(-1);
        SparkListener cancelAfterFirstTask = new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                // a slice group's task that committed its slice (the group's watch during planning ends killed)
                if (end.taskInfo().successful() && jobsInGroup.compareAndSet(-1, sc.statusTracker().getJobIdsForGroup(group).length))
                    sc.cancelJobGroup(group);
            }
        };
        sc.setJobGroup(group, "a notebook paragraph", false);
        sc.addSparkListener(cancelAfterFirstTask);
        RunFailedException e;
        try {
            e = assertThrows(RunFailedException.class, b::run);
        } finally {
            sc.removeSparkListener(cancelAfterFirstTask);
        }
        assertEquals(group, sc.getLocalProperty("spark.jobGroup.id"), "the caller's job group is kept");
        assertEquals("a notebook paragraph", sc.getLocalProperty("spark.job.description"));
        assertEquals("false", sc.getLocalProperty("spark.job.interruptOnCancel"));
        sc.clearJobGroup();
        // the run's job, and the job that watched the group while the driver planned
        assertEquals(2, jobsInGroup.get(), "the run's jobs were in the caller's group");
        assertTrue(e.getMessage().contains("kept for .resume()"), e.getMessage());

        assertFalse(Files.exists(out.resolve("_SUCCESS")));
        Map<Integer, float[]> kept = TestScans.readSlices(out.toString(), new Configuration());
        assertTrue(kept.size() >= 1 && kept.size() < ROWS, kept.size() + " of " + ROWS + " slices kept");
        Map<Integer, float[]> expected = new TreeMap<>(reference);
        expected.keySet().retainAll(kept.keySet());
        TestScans.assertBitIdentical(expected, kept);

        Reconstruction.Result r = b.resume().run();
        assertEquals(kept.size(), r.slicesSkipped());
        assertEquals(ROWS - kept.size(), r.slicesComputed());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        TestScans.assertBitIdentical(reference, TestScans.readSlices(out.toString(), new Configuration()));
    }

    /**
     * Zeppelin's Cancel leaves task threads uninterrupted (interruptOnCancel = false): the tasks see Spark's kill flag
     * between their back-projection tiles and passes, and the run returns within seconds, not when its groups end. The
     * groups here take tens of seconds each on this machine's two cores.
     */
    @Test
    void aCancelStopsTasksMidGroupWithoutInterruptingThem() throws Exception {
        Path dir = TestScans.tmp("nb-cancel-mid");
        Path scan = dir.resolve("scan.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(768, 16, 1200)).writeHdf5(scan);
        Path out = dir.resolve("rec");
        Reconstruction.Builder b = Reconstruction.builder(TestScans.spark()).input(scan.toString())
                .output(out.toString()).backend("java").filter("shepp-logan").center(383.5).groupRows(8);
        SparkContext sc = TestScans.spark();
        String group = "paragraph_cancel_mid";
        AtomicLong cancelled = new AtomicLong();
        AtomicInteger jobs = new AtomicInteger();
        SparkListener cancelOnceRunning = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                // the run's second job is its slice groups' (the first watched the group while the driver planned)
                if (jobs.incrementAndGet() != 2) return;
                Thread t = new Thread(() -> {
                    try {
                        Thread.sleep(2500); // well into the groups' back-projection
                    } catch (InterruptedException e) {
                        return;
                    }
                    cancelled.set(System.nanoTime());
                    sc.cancelJobGroup(group);
                });
                t.setDaemon(true);
                t.start();
            }
        };
        sc.setJobGroup(group, "a notebook paragraph", false);
        sc.addSparkListener(cancelOnceRunning);
        RunFailedException e;
        long returned;
        try {
            e = assertThrows(RunFailedException.class, b::run);
            returned = System.nanoTime();
        } finally {
            sc.removeSparkListener(cancelOnceRunning);
            sc.clearJobGroup();
        }
        double seconds = (returned - cancelled.get()) / 1e9;
        System.out.printf(Locale.ROOT, "cancel to return, mid-group (768 x 1200, java, 2 groups of 8 rows): %.2f s%n", seconds);
        assertTrue(cancelled.get() > 0 && seconds < 5, "returned " + seconds + " s after the cancel: " + e.getMessage());
        assertFalse(Files.exists(out.resolve("_SUCCESS")));
    }

    /**
     * A cancel while the driver works alone (here: the centre search, before any job of the run exists) stops the run
     * there: nothing is written, and the run says so.
     */
    @Test
    void aCancelDuringTheCentreSearchStopsTheRunBeforeItsJob() {
        Path dir = TestScans.tmp("nb-cancel-centre");
        Path scan = dir.resolve("scan.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(W, ROWS, PROJ)).writeHdf5(scan);
        Path out = dir.resolve("rec");
        Reconstruction.Builder b = Reconstruction.builder(TestScans.spark()).input(scan.toString())
                .output(out.toString()).backend("java").filter("shepp-logan").centerAuto("vo");
        SparkContext sc = TestScans.spark();
        String group = "paragraph_cancel_centre";
        AtomicInteger jobs = new AtomicInteger();
        SparkListener cancelTheWatch = new SparkListener() {
            @Override
            public void onJobStart(SparkListenerJobStart start) {
                // the first job of the run is the driver's watch: cancel the group as soon as it exists
                if (jobs.getAndIncrement() == 0) sc.cancelJobGroup(group);
            }
        };
        sc.setJobGroup(group, "a notebook paragraph", false);
        sc.addSparkListener(cancelTheWatch);
        RunFailedException e;
        try {
            e = assertThrows(RunFailedException.class, b::run);
        } finally {
            sc.removeSparkListener(cancelTheWatch);
            sc.clearJobGroup();
        }
        assertTrue(e.getMessage().contains("cancelled before the Spark job started"), e.getMessage());
        assertEquals(1, jobs.get(), "no job of slice groups was started");
        assertFalse(Files.exists(out), "nothing written");
    }
}
