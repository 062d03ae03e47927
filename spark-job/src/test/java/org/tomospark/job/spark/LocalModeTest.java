package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.testing.Checksums;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Spark job in local mode against the core library's single-machine run on the same phantom. */
class LocalModeTest {

    @Test
    void severalPartitionsAndOneGiveTheSingleMachineSlicesBitForBit() throws Exception {
        Map<Integer, float[]> ref = TestScans.reference();
        String in = TestScans.hdf5().toUri().toString();
        int before = ExecutorResources.processorsCreated();

        Path many = TestScans.tmp("out4").resolve("rec");
        SparkJobSpec spec4 = TestScans.spec(in, many.toUri().toString())
                .withParams(TestScans.params().toBuilder().groupRows(4).build());
        SparkReconstruction.Result r4 = SparkReconstruction.run(TestScans.spark(), spec4, null);
        assertEquals(4, r4.groups().size(), "16 rows in groups of 4: four tasks");
        assertEquals(16, r4.slicesComputed());
        TestScans.assertBitIdentical(ref, TestScans.readSlices(many.toUri().toString(), new Configuration()));
        // one processor (backend) per concurrent task slot in this JVM, reused across the four tasks
        assertTrue(ExecutorResources.processorsCreated() - before <= 2,
                "processors created: " + (ExecutorResources.processorsCreated() - before));
        // the job's timeline: to the first task, the tasks' span and after the last task make up the job's time
        Map<?, ?> g4 = (Map<?, ?>) r4.report().get("groups");
        double to = (Double) g4.get("toFirstTaskSeconds"), span = (Double) g4.get("taskSpanSeconds");
        double after = (Double) g4.get("afterLastTaskSeconds");
        double job = (Double) ((Map<?, ?>) r4.report().get("timings")).get("jobSeconds");
        assertTrue(to >= 0 && span > 0 && after >= 0, g4.toString());
        assertEquals(job, to + span + after, 0.01, g4.toString());
        assertTrue((Double) g4.get("setupSecondsMax") >= (Double) g4.get("setupSecondsMedian"), g4.toString());
        assertTrue((Double) g4.get("setupSecondsMax") <= (Double) g4.get("taskSecondsMax"), g4.toString());
        assertTrue((Double) g4.get("queueSecondsMax") >= 0, g4.toString());
        // the time to the first task taken apart: the scheduler launched it after the job's submission and before it ran
        // (one clock in local mode), and no part of it is longer than the whole
        double launch = (Double) g4.get("firstLaunchSeconds");
        assertTrue(launch >= 0 && launch <= to + 0.01, g4.toString());
        assertTrue((Double) g4.get("taskDeserializeSecondsMax") >= 0, g4.toString());
        double plan = (Double) g4.get("planFetchSecondsMax");
        assertTrue(plan >= 0 && plan <= (Double) g4.get("taskSecondsMax"), g4.toString());

        Path one = TestScans.tmp("out1").resolve("rec");
        SparkJobSpec spec1 = TestScans.spec(in, one.toUri().toString())
                .withParams(TestScans.params().toBuilder().groupRows(16).build());
        SparkReconstruction.Result r1 = SparkReconstruction.run(TestScans.spark(), spec1, null);
        assertEquals(1, r1.groups().size());
        TestScans.assertBitIdentical(ref, TestScans.readSlices(one.toUri().toString(), new Configuration()));

        // the commit protocol's end state: manifest with a checksum per slice, then _SUCCESS, no temporaries
        for (Path out : List.of(many, one)) {
            assertTrue(Files.exists(out.resolve("_SUCCESS")));
            assertFalse(Files.exists(out.resolve("_temporary")));
            assertEquals(List.of(), TestScans.sliceFiles(out).stream().filter(n -> !n.matches("slice_\\d{5}\\.tif")).toList());
            Map<String, Object> man = Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest");
            @SuppressWarnings("unchecked") List<Map<String, Object>> slices =
                    (List<Map<String, Object>>) man.get("slices");
            assertEquals(16, slices.size());
            for (Map<String, Object> s : slices)
                assertEquals(Checksums.crc32c(Files.readAllBytes(out.resolve((String) s.get("file")))), s.get("checksum"));
            assertTrue(((Map<?, ?>) man.get("input")).get("fingerprint") != null);
            assertEquals("java", ((Map<?, ?>) man.get("params")).get("backend"));
        }
        // the manifest records the input identity and parameters: both runs agree apart from the grouping
        assertEquals(Json.read(Files.readAllBytes(many.resolve("manifest.json")), "m").get("runSignature"),
                Json.read(Files.readAllBytes(one.resolve("manifest.json")), "m").get("runSignature"));
    }

    @Test
    void autoGroupingPlansOneGroupPerTaskSlotAndWritesRawVolume() throws Exception {
        Map<Integer, float[]> ref = TestScans.reference();
        Path out = TestScans.tmp("auto").resolve("rec");
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withSpark(SparkOptions.defaults().withProgress(false).withOutputRaw(true)).withPreview(true);
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), spec, null);
        assertEquals(2, r.groups().size(), "local[2]: the planner keeps both task slots busy (16 rows -> 2 groups of 8)");
        TestScans.assertBitIdentical(ref, TestScans.readSlices(out.toString(), new Configuration()));
        byte[] raw = Files.readAllBytes(out.resolve("volume.raw"));
        assertEquals(16 * 96 * 96 * 4, raw.length);
        ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        float[] s5 = new float[96 * 96];
        bb.position(5 * 96 * 96 * 4);
        bb.asFloatBuffer().get(s5);
        TestScans.assertBitIdentical(Map.of(5, ref.get(5)), Map.of(5, s5));
        assertTrue(Files.size(out.resolve("preview.png")) > 100);
        assertTrue(Files.exists(out.resolve(OutputCommit.REPORT)));
    }

    @Test
    void tiffStackAndRawInputsGiveTheSameSlices() throws Exception {
        Map<Integer, float[]> ref = TestScans.reference();
        // TIFF stack: 16-bit projections, flats and darks, theta.txt (as DemoDataset writes them)
        Path tiffs = TestScans.tmp("tiffs");
        TestScans.DATA.writeTiffStack(tiffs);
        Path outT = TestScans.tmp("outT").resolve("rec");
        SparkJobSpec st = TestScans.spec(tiffs.toUri().toString(), outT.toUri().toString())
                .withParams(TestScans.params().toBuilder().groupRows(8).build());
        SparkReconstruction.run(TestScans.spark(), st, null);
        TestScans.assertBitIdentical(ref, TestScans.readSlices(outT.toUri().toString(), new Configuration()));

        // raw binary: big-endian uint16 [projection][row][column], flats and darks in their own files
        DemoDataset.Counts c = TestScans.DATA.counts();
        Path rawDir = TestScans.tmp("raw");
        Files.write(rawDir.resolve("scan.raw"), be16(c.data(), 64));
        Files.write(rawDir.resolve("flats.raw"), be16(c.white(), 64));
        Files.write(rawDir.resolve("darks.raw"), be16(c.dark(), 64));
        StringBuilder th = new StringBuilder();
        for (double t : c.thetaDeg()) th.append(t).append('\n');
        Files.writeString(rawDir.resolve("theta.txt"), th);
        InputOptions ro = InputOptions.raw(120, 16, 96, "uint16", true, 64, rawDir.resolve("flats.raw").toString(),
                rawDir.resolve("darks.raw").toString(), rawDir.resolve("theta.txt").toString());
        Path outR = TestScans.tmp("outR").resolve("rec");
        SparkJobSpec sr = TestScans.spec(rawDir.resolve("scan.raw").toString(), outR.toString()).withInputOptions(ro);
        SparkReconstruction.run(TestScans.spark(), sr, null);
        TestScans.assertBitIdentical(ref, TestScans.readSlices(outR.toString(), new Configuration()));
    }

    /** Frames as big-endian uint16 after a header of {@code header} bytes. */
    static byte[] be16(int[][][] frames, int header) {
        int n = frames.length * frames[0].length * frames[0][0].length;
        ByteBuffer bb = ByteBuffer.allocate(header + 2 * n).order(ByteOrder.BIG_ENDIAN);
        bb.position(header);
        for (int[][] f : frames) for (int[] row : f) for (int v : row) bb.putShort((short) v);
        return bb.array();
    }

    @Test
    void localModeGivesEachConcurrentTaskItsOwnConfiguredDevice() throws Exception {
        // local mode cannot assign task GPUs: job.devices lists them, one per concurrent task (java ignores the address)
        Path out = TestScans.tmp("devices").resolve("rec");
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withParams(TestScans.params().toBuilder().groupRows(2).build())
                .withSpark(SparkOptions.defaults().withProgress(false).withDevices(List.of("7", "9")));
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), spec, null);
        assertEquals(8, r.groups().size());
        Set<String> used = new TreeSet<>();
        for (GroupOutcome g : r.groups()) used.add(g.device());
        assertTrue(used.stream().allMatch(d -> d.equals("7 (local)") || d.equals("9 (local)")), used.toString());
        assertEquals(1, ExecutorResources.maxConcurrentUse("7"), "device 7 shared by concurrent tasks");
        assertTrue(ExecutorResources.maxConcurrentUse("9") <= 1);
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertEquals(List.of("7", "9"), ((Map<?, ?>) r.report().get("spark")).get("localDevices"));
        // auto without any GPU assignment falls back to java (and says so in the log and the report)
        SparkJobSpec autoSpec = TestScans.spec(TestScans.hdf5().toString(), TestScans.tmp("auto-java").resolve("rec").toString())
                .withParams(TestScans.params().toBuilder().backend("auto").build());
        SparkReconstruction.Result a = SparkReconstruction.run(TestScans.spark(), autoSpec, null);
        assertTrue(a.groups().stream().allMatch(g -> g.backend().equals("java")));
    }

    @Test
    void workflowStagesMatchTheSingleMachineRun() throws Exception {
        // centre auto, stripe removal, Paganin phase retrieval (halo rows across groups), column and row binning
        Settings s = Settings.empty();
        CoreKeys.CENTER.name();
        String[][] kv = {{"backend", "java"}, {"filter", "shepp-logan"}, {"center", "auto"}, {"stripe.method", "sorting"},
                {"phase.energy", "30"}, {"phase.distance", "0.2"}, {"phase.pixelSize", "2e-6"}, {"phase.deltaOverBeta", "200"},
                {"bin.rows", "2"}, {"bin.columns", "2"}, {"group.rows", "2"}};
        for (String[] e : kv) s = s.with(e[0], e[1]);
        ReconstructionParams p = CoreKeys.params(s);
        Map<Integer, float[]> ref = new TreeMap<>();
        try (var src = DataExchangeSource.open(TestScans.hdf5())) {
            VolumeReconstructor.run(src, p, (row, px, w, h) -> ref.put(row, px.toArray()), null, null);
        }
        assertEquals(8, ref.size());
        Path out = TestScans.tmp("workflow").resolve("rec");
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), TestScans.spec(TestScans.hdf5().toString(),
                out.toString()).withParams(p), null);
        assertEquals(4, r.groups().size(), "8 output slices in groups of 2 (4 detector rows each)");
        assertEquals(8, r.slicesComputed());
        TestScans.assertBitIdentical(ref, TestScans.readSlices(out.toString(), new Configuration()));
        Map<?, ?> wf = (Map<?, ?>) r.report().get("workflow");
        assertEquals("auto", ((Map<?, ?>) wf.get("center")).get("source"));
        assertTrue(wf.containsKey("phaseRetrieval") && wf.containsKey("binning"), String.valueOf(wf));
    }
}
