package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.executor.testing.Checksums;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run stopped part-way, then --resume: only the missing slices are computed, and the output is identical. */
class ResumeTest {

    static int markers(Path out) throws Exception {
        Path c = out.resolve(OutputCommit.COMMITTED);
        if (!Files.isDirectory(c)) return 0;
        try (var s = Files.list(c)) {
            return (int) s.filter(p -> p.getFileName().toString().matches("slice_\\d+\\.commit")).count();
        }
    }

    @Test
    @Timeout(180)
    void resumeWithANarrowerRangeLeavesNoEarlierVolumeFiles() throws Exception {
        Path out = TestScans.tmp("resume-range").resolve("rec");
        SparkJobSpec full = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withSpark(SparkOptions.defaults().withProgress(false).withOutputRaw(true)).withPreview(true);
        SparkReconstruction.run(TestScans.spark(), full, null);
        assertEquals(16L * 96 * 96 * 4, Files.size(out.resolve("volume.raw")));
        // the same input and parameters, rows 0..7 only, without volume.raw: the kept slices are reused, and the 16-slice
        // volume.raw and the earlier preview, report and manifest must not survive beside the new run's files
        SparkJobSpec narrow = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withParams(TestScans.params().toBuilder().rows(0, 8).build()).withResume(true).withPreview(false);
        // finished, the output holds rows 0..7 already: nothing to do, and nothing of it changes
        byte[] raw = Files.readAllBytes(out.resolve("volume.raw"));
        SparkReconstruction.Result done = SparkReconstruction.run(TestScans.spark(), narrow, null);
        assertEquals(0, done.slicesComputed());
        assertArrayEquals(raw, Files.readAllBytes(out.resolve("volume.raw")));
        assertTrue(Files.exists(out.resolve("preview.png")) && Files.exists(out.resolve("_SUCCESS")));
        // unfinished (no _SUCCESS, as a run killed while it finished leaves it), the narrower run is real work
        Files.delete(out.resolve("_SUCCESS"));
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), narrow, null);
        assertEquals(8, r.slicesSkipped());
        assertFalse(Files.exists(out.resolve("volume.raw")), "stale volume.raw of the earlier 16-slice run");
        assertFalse(Files.exists(out.resolve("preview.png")), "stale preview of the earlier run");
        // the report and manifest are the narrow run's: 8 slices, rows 0..7, all reused
        Map<String, Object> rep = Json.read(Files.readAllBytes(out.resolve("report.json")), "report");
        assertEquals(Map.of("total", 8, "computed", 0, "skipped", 8), rep.get("slices"));
        Map<String, Object> man = Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest");
        @SuppressWarnings("unchecked") List<Map<String, Object>> ms =
                (List<Map<String, Object>>) man.get("slices");
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), ms.stream().map(x -> ((Number) x.get("row")).intValue()).toList());
        assertTrue(ms.stream().allMatch(x -> Boolean.TRUE.equals(x.get("reused"))), ms.toString());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertFalse(Files.exists(out.resolve("_temporary")));
        TestScans.assertBitIdentical(Map.of(3, TestScans.reference().get(3)),
                Map.of(3, TestScans.readSlices(out.toString(), new Configuration()).get(3)));
    }

    @Test
    @Timeout(180)
    void resumeRecomputesOnlyTheMissingSlices() throws Exception {
        Path out = TestScans.tmp("resume").resolve("rec");
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withParams(TestScans.params().toBuilder().groupRows(4).build());

        // 1. stop a run part-way: tasks are slowed down and the job is cancelled once the first group has committed
        SparkJobSpec slow = spec.withSpark(SparkOptions.defaults().withProgress(false).withTaskDelayMs(1500));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread run = new Thread(() -> {
            try {
                SparkReconstruction.run(TestScans.spark(), slow, null);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        run.start();
        while (markers(out) < 4 && run.isAlive()) Thread.sleep(20);
        TestScans.spark().cancelAllJobs();
        run.join(60_000);
        Thread.sleep(2000); // an interrupted task may still be finishing a rename
        assertNotNull(failure.get(), "the cancelled run must fail");
        assertTrue(failure.get().getMessage().contains("unfinished"), failure.get().getMessage());
        assertFalse(Files.exists(out.resolve("_SUCCESS")));
        assertFalse(Files.exists(out.resolve("manifest.json")));
        int committed = markers(out);
        assertTrue(committed >= 4 && committed < 16, "committed after the stop: " + committed);

        // 2. damage it like a crash would: one slice whose bytes no longer match its marker, one slice without marker
        List<String> present = TestScans.sliceFiles(out).stream().sorted().toList();
        String corrupt = present.get(0), unmarked = present.get(1);
        Files.write(out.resolve(corrupt), new byte[]{1, 2, 3});
        Files.delete(out.resolve(OutputCommit.COMMITTED).resolve(unmarked.replace(".tif", ".commit")));
        int valid = committed - 2;

        // 3. a plain re-run is refused, and so is --resume with other parameters
        RuntimeException e = assertThrows(RuntimeException.class, () -> SparkReconstruction.run(TestScans.spark(), spec, null));
        assertTrue(e.getMessage().contains("--resume"), e.getMessage());
        e = assertThrows(RuntimeException.class, () -> SparkReconstruction.run(TestScans.spark(),
                spec.withResume(true).withParams(spec.params().toBuilder().center(47).build()), null));
        assertTrue(e.getMessage().contains("other parameters"), e.getMessage());

        // 4. --resume computes exactly the missing ones
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), spec.withResume(true), null);
        assertEquals(valid, r.slicesSkipped(), "slices reused");
        assertEquals(16 - valid, r.slicesComputed(), "slices recomputed");
        Map<?, ?> slices = (Map<?, ?>) r.report().get("slices");
        assertEquals(16 - valid, slices.get("computed"));
        assertEquals(valid, slices.get("skipped"));
        int computedByTasks = r.groups().stream().mapToInt(g -> g.slices().size()).sum();
        assertEquals(16 - valid, computedByTasks, "tasks committed only the missing slices");

        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        Map<String, Object> man = Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest");
        @SuppressWarnings("unchecked") List<Map<String, Object>> ms =
                (List<Map<String, Object>>) man.get("slices");
        assertEquals(16, ms.size());
        assertEquals(valid, ms.stream().filter(s -> Boolean.TRUE.equals(s.get("reused"))).count());
        for (Map<String, Object> s : ms)
            assertEquals(Checksums.crc32c(Files.readAllBytes(out.resolve((String) s.get("file")))), s.get("checksum"));

        // 5. resuming a complete output recomputes nothing, and leaves every file as it was
        List<String> files = List.of("manifest.json", "report.json", "_SUCCESS", "_committed/_run.json");
        Map<String, Long> mtimes = new HashMap<>();
        Map<String, byte[]> bytes = new HashMap<>();
        for (String f : files) {
            mtimes.put(f, Files.getLastModifiedTime(out.resolve(f)).toMillis());
            bytes.put(f, Files.readAllBytes(out.resolve(f)));
        }
        Thread.sleep(1100);
        SparkReconstruction.Result again = SparkReconstruction.run(TestScans.spark(), spec.withResume(true), null);
        assertEquals(0, again.slicesComputed());
        assertEquals(16, again.slicesSkipped());
        assertTrue(again.summary().startsWith("Nothing to do"), again.summary());
        for (String f : files) {
            assertEquals(mtimes.get(f), Files.getLastModifiedTime(out.resolve(f)).toMillis(), f + " rewritten");
            Assertions.assertArrayEquals(bytes.get(f), Files.readAllBytes(out.resolve(f)), f + " changed");
        }
    }
}
