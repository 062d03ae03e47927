package org.tomospark.job.spark;

import org.tomospark.executor.testing.FileSnapshot;
import org.tomospark.job.cli.CliRun;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * --center auto and --resume, both engines: the run signature holds the centre found (which depends on the row range),
 * so the direct and Spark engines sign the same run alike and resume each other's outputs, and a resume over another
 * range that finds another centre is refused instead of mixing slices of two centres.
 */
class CenterAutoResumeTest {
    static CliRun cli(String... args) {
        return CliRun.of(args);
    }

    static CliRun rec(String engine, Path out, String... more) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", engine, "--input", TestScans.hdf5().toString(), "--output",
                out.toString(), "--backend", "java", "--filter", "shepp-logan", "--center", "auto"));
        a.addAll(List.of(more));
        return cli(a.toArray(String[]::new));
    }

    static double center(Path out) throws Exception {
        Map<String, Object> r = Json.read(Files.readAllBytes(out.resolve("report.json")), "report");
        @SuppressWarnings("unchecked") Map<String, Object> workflow = (Map<String, Object>) r.get("workflow");
        @SuppressWarnings("unchecked") Map<String, Object> c = (Map<String, Object>) workflow.get("center");
        assertEquals("auto", c.get("source"), "the report says the centre was found automatically: " + c);
        assertEquals("vo", c.get("method"), c.toString());
        return ((Number) c.get("value")).doubleValue();
    }

    static String runSignature(Path out) throws Exception {
        return String.valueOf(Json.read(Files.readAllBytes(out.resolve(OutputCommit.COMMITTED).resolve(OutputCommit.RUN)), "run")
                .get("signature"));
    }

    static long slices(Path out) throws Exception {
        try (Stream<Path> s = Files.list(out)) {
            return s.filter(p -> p.getFileName().toString().matches("slice_\\d+\\.tif")).count();
        }
    }

    @Test
    @Timeout(300)
    void resumeOverAnotherRangeWithAnotherAutoCentreIsRefusedByBothEngines() throws Exception {
        TestScans.spark();
        Path part = TestScans.tmp("auto-range").resolve("rec");
        Path whole = TestScans.tmp("auto-whole").resolve("rec");
        CliRun a = rec("direct", part, "--slices", "0:8");
        assertEquals(0, a.code(), a.err());
        CliRun b = rec("direct", whole);
        assertEquals(0, b.code(), b.err());
        double c8 = center(part), c16 = center(whole);
        // the centre is searched around the middle of the row range: rows 0..7 and 0..15 give different centres here
        assertNotEquals(c8, c16, 1e-9, "test data: the two ranges must find different centres");
        assertNotEquals(runSignature(part), runSignature(whole));
        byte[] kept = Files.readAllBytes(part.resolve("slice_00003.tif"));
        for (String engine : List.of("direct", "spark")) {
            CliRun r = rec(engine, part, "--resume");
            assertEquals(2, r.code(), engine + ": " + r.err());
            assertTrue(r.err().contains("--resume refused"), engine + ": " + r.err());
            assertEquals(8, slices(part), "nothing written by the refused " + engine + " resume");
        }
        assertArrayEquals(kept, Files.readAllBytes(part.resolve("slice_00003.tif")));
        // the same range again finds the same centre: resumable
        Files.delete(part.resolve("slice_00005.tif"));
        CliRun same = rec("direct", part, "--slices", "0:8", "--resume");
        assertEquals(0, same.code(), same.err());
        assertTrue(same.err().contains("(7 skipped)"), same.err());
        assertEquals(c8, center(part));
    }

    @Test
    @Timeout(300)
    void eachEngineResumesTheOthersAutoCentreOutput() throws Exception {
        TestScans.spark();
        for (String[] pair : List.of(new String[]{"direct", "spark"}, new String[]{"spark", "direct"})) {
            Path out = TestScans.tmp("auto-" + pair[0] + "-" + pair[1]).resolve("rec");
            CliRun first = rec(pair[0], out);
            assertEquals(0, first.code(), first.err());
            String sig = runSignature(out);
            double c = center(out);
            byte[] s2 = Files.readAllBytes(out.resolve("slice_00002.tif"));
            Files.write(out.resolve("slice_00002.tif"), new byte[]{1, 2, 3}); // damaged: the resume has one slice to compute
            CliRun second = rec(pair[1], out, "--resume");
            assertEquals(0, second.code(), pair[1] + " resuming " + pair[0] + ": " + second.err());
            assertEquals(sig, runSignature(out), "the same run signature from both engines");
            assertEquals(sig, Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest").get("runSignature"));
            assertEquals(c, center(out));
            Map<String, Object> rep = Json.read(Files.readAllBytes(out.resolve("report.json")), "report");
            assertEquals(Map.of("total", 16, "computed", 1, "skipped", 15), rep.get("slices"), pair[1] + " resuming " + pair[0]);
            assertEquals(pair[1], rep.get("engine"));
            assertArrayEquals(s2, Files.readAllBytes(out.resolve("slice_00002.tif")), "recomputed bit-identically");
        }
    }

    @Test
    @Timeout(300)
    void sparkResumeOfACompleteOutputWithPreviewAndRawVolumeLeavesItUntouched() throws Exception {
        TestScans.spark();
        Path out = TestScans.tmp("noop-spark").resolve("rec");
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withSpark(SparkOptions.defaults().withProgress(false).withOutputRaw(true)).withPreview(true);
        SparkReconstruction.run(TestScans.spark(), spec, null);
        List<String> files = List.of("manifest.json", "report.json", "preview.png", "volume.raw", "_SUCCESS", "_committed/_run.json");
        Map<String, FileSnapshot> before = FileSnapshot.of(out, files);
        assertEquals(16L * 96 * 96 * 4, before.get("volume.raw").bytes().length);
        Thread.sleep(1100);
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), spec.withResume(true), null);
        assertTrue(r.summary().startsWith("Nothing to do"), r.summary());
        assertEquals(0, r.slicesComputed());
        assertEquals(16, r.slicesSkipped());
        FileSnapshot.assertUnchanged(out, before);
        // without volume.raw requested: still nothing to do, a finished output is not rewritten
        SparkJobSpec noRaw = spec.withResume(true).withSpark(SparkOptions.defaults().withProgress(false));
        assertTrue(SparkReconstruction.run(TestScans.spark(), noRaw, null).summary().startsWith("Nothing to do"));
        FileSnapshot.assertUnchanged(out, before);
        // unfinished (no _SUCCESS), it is real work: volume.raw goes, as this run does not write one
        Files.delete(out.resolve("_SUCCESS"));
        SparkReconstruction.Result r2 = SparkReconstruction.run(TestScans.spark(), noRaw, null);
        assertFalse(r2.summary().startsWith("Nothing to do"), r2.summary());
        assertEquals(16, r2.slicesSkipped());
        assertFalse(Files.exists(out.resolve("volume.raw")));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
    }
}
