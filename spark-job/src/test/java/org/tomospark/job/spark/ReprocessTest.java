package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.ExitCode;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.WorkflowSettings;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.BatchReport;
import org.tomospark.job.batch.Reprocess;
import org.tomospark.job.batch.ScanInputs;
import org.tomospark.job.batch.ScanOutcome;
import org.tomospark.job.batch.ScanStatus;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.OutputLock;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tomospark reprocess} over a folder of six small scans: one already reconstructed, one half done (a run that
 * stopped after some of its slices), one corrupt (an HDF5 file cut short), one given its centre in a tomopy-cli
 * rotation_axis.json, and two new. Every scan's slices are checked bit for bit against a single {@code reconstruct} run
 * of that scan with the same parameters (the table's centre for the one it names).
 */
class ReprocessTest {
    private static final String[] SCANS = {"a_done", "b_half", "c_corrupt", "d_table", "e_new", "f_new"};
    private static final String TABLE_CENTER = "46.25";
    private static Path dir;
    private static Path scans;

    @BeforeAll
    static void scans() throws IOException {
        TestScans.spark();
        dir = TestScans.tmp("reprocess");
        scans = Files.createDirectories(dir.resolve("scans"));
        for (int i = 0; i < SCANS.length; i++) {
            // scans that differ: another axis offset each
            DemoDataset.Spec spec = DemoDataset.Spec.demo().withSize(96, 16, 120).withAxisOffset(0.25 * i);
            new DemoDataset(spec).writeHdf5(scans.resolve(SCANS[i] + ".h5"));
        }
        byte[] whole = Files.readAllBytes(scans.resolve("c_corrupt.h5"));
        Files.write(scans.resolve("c_corrupt.h5"), Arrays.copyOf(whole, whole.length / 2));
        Files.writeString(scans.resolve("notes.txt"), "not a scan: the folder's other files are left alone\n");
    }

    /** The options every run of this test shares (reconstruct's and reprocess's alike). */
    private static List<String> options(String center) {
        return List.of("--center", center, "--filter", "shepp-logan", "--backend", "java", "--conf", "group.rows=4",
                "--conf", "job.progress=false");
    }

    private static CliRun single(String scan, Path out) {
        return single(scan, out, "47.5");
    }

    private static CliRun single(String scan, Path out, String center) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", "spark", "--input",
                scans.resolve(scan + ".h5").toString(), "--output", out.toString()));
        a.addAll(options(center));
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return r;
    }

    private static CliRun batch(Path root, String... extra) {
        List<String> a = new ArrayList<>(List.of("reprocess", scans.toString(), "--output-root", root.toString()));
        a.addAll(options("47.5"));
        a.addAll(List.of(extra));
        return CliRun.of(a.toArray(String[]::new));
    }

    @Test
    void sixScansOneSkippedOneResumedOneFailedThreeReconstructedThenNothingToDo() throws Exception {
        Path root = dir.resolve("root");
        Path refs = dir.resolve("refs");
        // the references: single runs of each scan that will be reconstructed, the table's centre for d
        for (String s : List.of("b_half", "e_new", "f_new")) single(s, refs.resolve(s));
        single("d_table", refs.resolve("d_table"), TABLE_CENTER);
        // a: done before by a single run into the batch's output root
        single("a_done", root.resolve("a_done"));
        // b: a run that stopped half-way: half of its slices committed, no manifest, report or _SUCCESS
        single("b_half", root.resolve("b_half"));
        Path b = root.resolve("b_half");
        for (int row = 0; row < 16; row += 2) {
            Files.delete(b.resolve(String.format("slice_%05d.tif", row)));
            Files.delete(b.resolve(OutputCommit.markerName(row)));
        }
        for (String f : List.of("_SUCCESS", "manifest.json", "report.json", "preview.png")) Files.delete(b.resolve(f));
        Path table = dir.resolve("rotation_axis.json");
        Files.writeString(table, "{\"0\": {\"d_table.h5\": " + TABLE_CENTER + "}}");
        Map<String, FileTime> aTimes = times(root.resolve("a_done"));

        CliRun first = batch(root, "--table", table.toString());
        assertEquals(5, first.code(), first.err());
        Map<String, Map<String, Object>> rep = scansOf(root);
        assertEquals(List.of(SCANS), new ArrayList<>(rep.keySet()), "one entry per scan, notes.txt is no scan");
        assertEquals("skipped", rep.get("a_done").get("status"));
        assertEquals("resumed", rep.get("b_half").get("status"));
        assertEquals(8, ((Number) rep.get("b_half").get("computed")).intValue(), "only the missing half is computed");
        assertEquals("failed", rep.get("c_corrupt").get("status"));
        String err = (String) rep.get("c_corrupt").get("error");
        assertTrue(err.contains("c_corrupt.h5") && err.contains("truncated"), err);
        assertEquals(2, ((Number) rep.get("c_corrupt").get("exitCode")).intValue());
        for (String s : List.of("d_table", "e_new", "f_new"))
            assertEquals("reconstructed", rep.get(s).get("status"), s);
        assertEquals(Double.parseDouble(TABLE_CENTER), ((Number) rep.get("d_table").get("center")).doubleValue());
        assertEquals(47.5, ((Number) rep.get("e_new").get("center")).doubleValue());
        Map<String, Object> counts = asMap(report(root).get("counts"));
        assertEquals(Map.of("reconstructed", 3, "resumed", 1, "skipped", 1, "redone", 0, "outdated", 0, "failed", 1),
                counts);
        assertEquals(5, ((Number) report(root).get("exitCode")).intValue());
        assertTrue(first.err().contains("c_corrupt  failed") && first.err().contains("truncated"), first.err());

        Configuration conf = new Configuration();
        for (String s : List.of("b_half", "d_table", "e_new", "f_new"))
            TestScans.assertBitIdentical(TestScans.readSlices(refs.resolve(s).toString(), conf),
                    TestScans.readSlices(root.resolve(s).toString(), conf));
        for (String s : List.of("a_done", "b_half", "d_table", "e_new", "f_new"))
            assertTrue(Files.exists(root.resolve(s).resolve("_SUCCESS")), s);
        assertEquals(aTimes, times(root.resolve("a_done")), "the scan already done is left untouched");
        assertFalse(Files.exists(root.resolve("c_corrupt").resolve("_SUCCESS")));
        assertTrue(TestScans.sliceFiles(root.resolve("c_corrupt")).isEmpty());
        byte[] dManifest = Files.readAllBytes(root.resolve("d_table/manifest.json"));
        Map<String, Object> dSettings = asMap(Json.read(dManifest, "manifest").get("settings"));
        assertEquals(TABLE_CENTER, dSettings.get("center"), "the table's centre is in the scan's manifest");
        assertFalse(Files.exists(root.resolve(OutputLock.NAME)), "the batch gave up its claim on the root");

        // a second run does no work: every done scan skipped, untouched; the corrupt one fails again
        Map<String, FileTime> before = new TreeMap<>();
        for (String s : List.of("a_done", "b_half", "d_table", "e_new", "f_new")) before.putAll(times(root.resolve(s)));
        CliRun second = batch(root, "--table", table.toString());
        assertEquals(5, second.code(), second.err());
        rep = scansOf(root);
        for (String s : List.of("a_done", "b_half", "d_table", "e_new", "f_new")) {
            assertEquals("skipped", rep.get(s).get("status"), s);
            assertEquals(0, ((Number) rep.get(s).get("computed")).intValue(), s);
        }
        assertEquals("failed", rep.get("c_corrupt").get("status"));
        Map<String, FileTime> after = new TreeMap<>();
        for (String s : List.of("a_done", "b_half", "d_table", "e_new", "f_new")) after.putAll(times(root.resolve(s)));
        assertEquals(before, after, "nothing rewritten by the second run");
        double secs = ((Number) report(root).get("seconds")).doubleValue();
        System.out.printf("reprocess: second run over %d scans took %.1f s (in a running Spark context)%n",
                SCANS.length, secs);

        // other parameters for e: left alone and reported as outdated, then redone with --overwrite
        Files.writeString(table, "{\"0\": {\"d_table.h5\": " + TABLE_CENTER + "}, \"1\": {\"e_new.h5\": 47.0}}");
        Path list = dir.resolve("scans.txt");
        Files.writeString(list, "# one scan\n" + scans.resolve("e_new.h5") + "\n");
        Map<String, FileTime> eTimes = times(root.resolve("e_new"));
        String[] listBatch = {"reprocess", "@" + list, "--output-root", root.toString(), "--table", table.toString(),
            "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--conf", "job.progress=false"};
        CliRun outdated = CliRun.of(listBatch);
        assertEquals(5, outdated.code(), outdated.err());
        rep = scansOf(root);
        assertEquals(List.of("e_new"), new ArrayList<>(rep.keySet()));
        assertEquals("outdated", rep.get("e_new").get("status"));
        assertTrue(String.valueOf(rep.get("e_new").get("reason")).contains("--overwrite"), rep.toString());
        assertEquals(eTimes, times(root.resolve("e_new")));
        List<String> overwrite = new ArrayList<>(List.of(listBatch));
        overwrite.add("--overwrite");
        CliRun redone = CliRun.of(overwrite.toArray(String[]::new));
        assertEquals(0, redone.code(), redone.err());
        rep = scansOf(root);
        assertEquals("redone", rep.get("e_new").get("status"));
        assertEquals(47.0, ((Number) rep.get("e_new").get("center")).doubleValue());
        Path eRef = refs.resolve("e_new-47");
        single("e_new", eRef, "47");
        TestScans.assertBitIdentical(TestScans.readSlices(eRef.toString(), conf),
                TestScans.readSlices(root.resolve("e_new").toString(), conf));

        // an output made by an older version: redone with --redo-if-version-below, the newer ones skipped
        Path aManifest = root.resolve("a_done/manifest.json");
        Files.writeString(aManifest, Files.readString(aManifest).replace("\"version\" : \"0.1.0-SNAPSHOT\"",
                "\"version\" : \"0.0.1\""));
        Files.writeString(list, scans.resolve("a_done.h5") + "\n" + scans.resolve("f_new.h5") + "\n");
        List<String> older = new ArrayList<>(List.of("reprocess", "@" + list, "--output-root", root.toString(),
                "--redo-if-version-below", "0.0.5"));
        older.addAll(options("47.5"));
        CliRun redo = CliRun.of(older.toArray(String[]::new));
        assertEquals(0, redo.code(), redo.err());
        rep = scansOf(root);
        assertEquals("redone", rep.get("a_done").get("status"));
        assertTrue(String.valueOf(rep.get("a_done").get("reason")).contains("0.0.1"), rep.toString());
        assertEquals("skipped", rep.get("f_new").get("status"));
        assertTrue(Files.readString(aManifest).contains("\"version\" : \"0.1.0-SNAPSHOT\""),
                "made again by this version");
    }

    /**
     * find-centers over the folder finds each scan's axis (the phantoms' axes are known) by both methods, and its
     * table, given to a batch run from the notebook API, sets each scan's centre; the corrupt scan gets an error and no
     * centre.
     */
    @Test
    void findCentersWritesATableThatANotebookBatchUses() throws Exception {
        Path table = dir.resolve("centers.json");
        CliRun found = CliRun.of("find-centers", scans.toString(), "--output", table.toString(), "--slices", "6:10");
        assertEquals(5, found.code(), found.err());
        Map<String, Object> t = Json.read(Files.readAllBytes(table), "centers.json");
        assertEquals(List.of("a_done.h5", "b_half.h5", "c_corrupt.h5", "d_table.h5", "e_new.h5", "f_new.h5"),
                new ArrayList<>(t.keySet()));
        for (int i = 0; i < SCANS.length; i++) {
            Map<String, Object> e = asMap(t.get(SCANS[i] + ".h5"));
            if (i == 2) {
                assertTrue(String.valueOf(e.get("error")).contains("truncated"), e.toString());
                assertFalse(e.containsKey("center"));
                continue;
            }
            double axis = 47.5 + 0.25 * i;
            assertEquals(axis, ((Number) e.get("center")).doubleValue(), 0.05, SCANS[i]);
            Map<String, Object> scores = asMap(e.get("scores"));
            assertEquals(((Number) e.get("center")).doubleValue(),
                    ((Number) asMap(scores.get("vo")).get("center")).doubleValue(), "vo is the default method");
            assertEquals(axis, ((Number) asMap(scores.get("correlation")).get("center")).doubleValue(), 0.05, SCANS[i]);
            assertTrue(asMap(scores.get("correlation")).get("score") instanceof Number, scores.toString());
        }

        Path list = dir.resolve("two.txt");
        Files.writeString(list, scans.resolve("f_new.h5") + "\n" + scans.resolve("c_corrupt.h5") + "\n");
        Path root = dir.resolve("notebook-root");
        BatchReport r = reprocess(root.toString(), List.of("@" + list), System.out, BatchKeys.TABLE.name(), table.toString());
        assertEquals(ExitCode.SCANS_FAILED, r.exitCode());
        assertEquals(List.of("f_new", "c_corrupt"), r.scans().stream().map(o -> o.scan().name()).toList());
        ScanOutcome f = r.scans().get(0);
        assertEquals(ScanStatus.RECONSTRUCTED, f.status());
        assertEquals(((Number) asMap(t.get("f_new.h5")).get("center")).doubleValue(), f.center(), "the table's centre");
        assertEquals(ScanStatus.FAILED, r.scans().get(1).status());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("a_done.h5")), r.warnings().toString());
        assertTrue(Files.exists(root.resolve("batch-report.json")));
    }

    /** Two batches started at once on one output root: one proceeds, the other is refused, naming the lock. */
    @Test
    void twoBatchesAtOnceOnOneRootOneProceedsTheOtherIsRefused() throws Exception {
        Path root = dir.resolve("two-at-once");
        Path one = dir.resolve("one.txt");
        Files.writeString(one, scans.resolve("e_new.h5") + "\n");
        ByteArrayOutputStream firstLog = new ByteArrayOutputStream();
        // the first batch's tasks wait a while, so that it still holds the root when the second starts
        PrintStream log = new PrintStream(firstLog, true);
        CompletableFuture<BatchReport> first = CompletableFuture.supplyAsync(
                () -> reprocess(root.toString(), List.of("@" + one), log, "job.test.taskDelayMs", "3000"));
        long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(root.resolve(OutputLock.NAME)) && !first.isDone()) {
            assertTrue(System.currentTimeMillis() < deadline, "the first batch never claimed the root");
            Thread.sleep(10);
        }
        assertFalse(first.isDone(), "the first batch ended before the second could start");
        CliRun second = batch(root);
        assertEquals(3, second.code(), second.err());
        assertTrue(second.err().contains(OutputLock.NAME) && second.err().contains("in use by another run")
                && second.err().contains("tomospark reprocess of 1 scans"), second.err());
        BatchReport r = first.get(120, TimeUnit.SECONDS);
        assertEquals(ExitCode.OK, r.exitCode(), firstLog.toString());
        assertEquals(List.of(ScanStatus.RECONSTRUCTED), r.scans().stream().map(ScanOutcome::status).toList());
        assertEquals(List.of("e_new"), scansOf(root).keySet().stream().toList(), "the report is the first batch's");
        try (Stream<Path> s = Files.list(root)) {
            assertEquals(List.of("batch-report.json", "e_new"),
                    s.map(p -> p.getFileName().toString()).sorted().toList(),
                    "the refused batch wrote nothing; the first gave up its claim");
        }
    }

    /**
     * A batch as {@code tomospark reprocess} runs it, in this JVM on the tests' Spark context: centre 47.5, the
     * Shepp-Logan filter and the java backend for every scan, then these config keys and values.
     */
    static BatchReport reprocess(String root, List<String> inputs, PrintStream log, String... keysAndValues) {
        Settings s = WorkflowSettings.center(Settings.empty(), "47.5").with(CoreKeys.FILTER.name(), "shepp-logan")
                .with(CoreKeys.BACKEND.name(), "java").with(BatchKeys.OUTPUT_ROOT.name(), root)
                .with(BatchKeys.INPUTS.name(), ScanInputs.join(inputs));
        for (int i = 0; i < keysAndValues.length; i += 2) s = s.with(keysAndValues[i], keysAndValues[i + 1]);
        return Reprocess.run(TestScans.spark(), s, log);
    }

    private static Map<String, Object> report(Path root) throws IOException {
        return Json.read(Files.readAllBytes(root.resolve("batch-report.json")), "batch-report.json");
    }

    /** The report's scans by name, in the report's order. */
    private static Map<String, Map<String, Object>> scansOf(Path root) throws IOException {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        for (Object o : (List<?>) report(root).get("scans")) {
            Map<String, Object> s = asMap(o);
            m.put((String) s.get("name"), s);
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        assertNotNull(o);
        return (Map<String, Object>) o;
    }

    /** Modification time of every file of an output, by path. */
    private static Map<String, FileTime> times(Path out) {
        Map<String, FileTime> m = new HashMap<>();
        try (Stream<Path> s = Files.walk(out)) {
            s.filter(Files::isRegularFile).forEach(p -> {
                try {
                    m.put(p.toString(), Files.getLastModifiedTime(p));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertNull(m.get(out.resolve(OutputLock.NAME).toString()), "no claim left in " + out);
        return new TreeMap<>(m);
    }
}
