package org.tomospark.notebook;

import org.tomospark.job.spark.TestScans;
import org.tomospark.job.spark.JobGroupWatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.JobExecutionStatus;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.fs.Json;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped Zeppelin note and the README's notebook snippets, replayed as a REPL session runs them: one paragraph
 * after the other, each under its own Spark job group (as Zeppelin sets it), with the values of earlier paragraphs
 * kept. Each Scala paragraph has a Java translation below (between the marker comments); a test checks that the
 * paragraph and its translation call the same notebook API methods in the same order on the same URIs, so a change to
 * either that the other lacks fails. The note runs top to bottom twice, then again with a cancel of the first
 * paragraph's job group from another thread (Zeppelin's Cancel button), after which its Resume paragraph finishes the
 * output. The notebook module's {@code ZeppelinNoteReplTest} sends the Scala paragraphs themselves to a Scala 2.13
 * interpreter.
 */
class NotebookNoteTest {
    static final int W = 600, ROWS = 8, PROJ = 180;
    static final double TRUE_CENTER = 296;
    static final Path NOTE = Path.of("../notebooks/tomospark-zeppelin.json");
    static final Path README = Path.of("../README.md");
    static final Path SELF = Path.of("src/test/java/org/tomospark/notebook/NotebookNoteTest.java");
    static Path scan;
    static Map<Integer, float[]> reference;

    /** The interpreter's session, its output and the folder the hdfs URIs of the code are mapped into. */
    final SparkContext spark = TestScans.spark();
    final PrintStream out = System.out;
    Path root;

    /** Values of earlier paragraphs, as the REPL keeps them. */
    Reconstruction.Result result;
    Reconstruction.Result resumed;
    Reconstruction.Sweep sweep;
    Report lastReport;
    double c;

    @BeforeAll
    static void writeScan() {
        Path dir = TestScans.tmp("note-scan");
        scan = dir.resolve("sample.h5");
        double offset = TRUE_CENTER - (W - 1) / 2.0;
        new DemoDataset(DemoDataset.Spec.demo().withSize(W, ROWS, PROJ).withAxisOffset(offset)).writeHdf5(scan);
        reference = TestScans.reconstructDirect(scan, ReconstructionParams.builder().backend("java")
                .filter(FilterSpec.of(FilterWindow.SHEPP_LOGAN)).center(TRUE_CENTER).build());
    }

    /** Where an hdfs URI of the note or README lands here: its path under {@link #root}. */
    String uri(String hdfs) {
        String path = hdfs.replaceFirst("^hdfs://[^/]*/", "");
        return root.resolve(path).toString();
    }

    private void useRoot(String name) throws Exception {
        root = TestScans.tmp(name);
        Files.createDirectories(root.resolve("scans"));
        Files.copy(scan, root.resolve("scans/sample.h5"));
        Files.copy(scan, root.resolve("scans/a.h5"));
    }

    // ---- the note's %spark paragraphs, in Java

    // paragraph: Reconstruct
    void reconstruct() {
        result = Reconstruction.builder(spark)
                .input(uri("hdfs:///scans/sample.h5"))
                .output(uri("hdfs:///rec/sample"))
                .center(296)
                .filter("shepp-logan")
                .backend("auto")
                .overwrite()
                .run();
        out.println(result.summary());
        out.println("slices in " + result.output());
    }
    // end of paragraph

    // paragraph: Centre auto and a centre sweep
    void centreAutoAndSweep() {
        Reconstruction.Builder b = Reconstruction.builder(spark)
                .input(uri("hdfs:///scans/sample.h5"))
                .centerAuto("vo")
                .stripe("sorting")
                .filter("shepp-logan")
                .backend("auto");
        c = b.findCenter();
        out.printf("centre found: %.2f px%n", c);
        sweep = b.output(uri("hdfs:///rec/sample-sweep")).overwrite()
                .centerSweep(Math.floor(c) - 3, Math.floor(c) + 3, 0.5);
        out.println(sweep.images() + " and " + sweep.contactSheet() + " in " + sweep.output());
        result = b.output(uri("hdfs:///rec/sample-auto")).overwrite().run();
        out.println(result.summary());
        out.println(result.centerOfRotation());
    }
    // end of paragraph

    // paragraph: Report
    void report() {
        Report report = Reconstruction.report(spark, uri("hdfs:///rec/sample-auto"));
        report.forEach((k, v) -> out.println(k + ": " + v));
        out.println(report.number("timings.gups"));
        out.println(report.text("backend.id"));
        lastReport = report;
    }
    // end of paragraph

    // paragraph: Resume
    void resume() {
        resumed = Reconstruction.builder(spark).input(uri("hdfs:///scans/sample.h5")).output(uri("hdfs:///rec/sample"))
                .center(296).filter("shepp-logan").backend("auto").resume().run();
        out.println("computed " + resumed.slicesComputed() + ", reused " + resumed.slicesSkipped());
    }
    // end of paragraph

    // ---- the README's notebook snippets, in Java

    // snippet: 1
    void readme1() {
        Reconstruction.Result r = Reconstruction.builder(spark).input(uri("hdfs://nn:8020/scans/a.h5"))
                .output(uri("hdfs://nn:8020/rec/a")).center(296).filter("shepp-logan").backend("auto").run();
        out.println(r.summary());
        out.println(r.report().section("timings"));
        result = r;
    }
    // end of snippet

    // snippet: 2
    void readme2() {
        Reconstruction.Builder b = Reconstruction.builder(spark).input(uri("hdfs://nn:8020/scans/a.h5"))
                .centerAuto("vo").stripe("sorting");
        c = b.findCenter();
        Reconstruction.Sweep s = b.output(uri("hdfs://nn:8020/rec/a-sweep")).centerSweep(c - 3, c + 3, 0.5);
        out.println(s.images().size() + " images, " + s.contactSheet());
        Reconstruction.Result r = b.output(uri("hdfs://nn:8020/rec/a-auto")).run();
        out.println(r.centerOfRotation());
        sweep = s;
        result = r;
    }
    // end of snippet

    // ---- the checks

    static List<Map<String, Object>> sparkParagraphs() throws Exception {
        Map<String, Object> note = Json.read(Files.readAllBytes(NOTE), NOTE.toString());
        List<Map<String, Object>> l = new ArrayList<>();
        for (Object o : (List<?>) note.get("paragraphs")) {
            @SuppressWarnings("unchecked") Map<String, Object> p = (Map<String, Object>) o;
            if (((String) p.get("text")).startsWith("%spark")) l.add(p);
        }
        return l;
    }

    @Test
    void eachParagraphAndItsTranslationCallTheSameMethodsOnTheSameUris() throws Exception {
        Map<String, String> java = NoteScript.sections(SELF, "paragraph");
        List<Map<String, Object>> note = sparkParagraphs();
        assertEquals(new ArrayList<>(java.keySet()), note.stream().map(p -> (String) p.get("title")).toList(),
                "the note's %spark paragraphs and their translations");
        for (Map<String, Object> p : note) {
            String scala = (String) p.get("text"), code = java.get((String) p.get("title"));
            List<String> calls = NoteScript.apiCalls(scala);
            assertTrue(calls.size() >= 2, p.get("title") + " calls the API: " + calls);
            assertEquals(calls, NoteScript.apiCalls(code), "calls of paragraph " + p.get("title"));
            assertEquals(NoteScript.uris(scala), NoteScript.uris(code), "URIs of paragraph " + p.get("title"));
            assertFalse(scala.matches("(?s).*\\.\\w+ \\+ \".*"), p.get("title")
                    + " adds a string to an object (any2stringadd, deprecated in Scala 2.13)");
        }
    }

    @Test
    void eachReadmeSnippetAndItsTranslationCallTheSameMethodsOnTheSameUris() {
        List<String> snippets =
                NoteScript.fencedBlocks(README, "## Notebooks (Zeppelin, Jupyter with a JVM kernel)", "scala");
        Map<String, String> java = NoteScript.sections(SELF, "snippet");
        assertEquals(snippets.size(), java.size(), "README snippets and their translations");
        int i = 0;
        for (String code : java.values()) {
            String scala = snippets.get(i++);
            assertEquals(NoteScript.apiCalls(scala), NoteScript.apiCalls(code), "calls of README snippet " + i);
            assertEquals(NoteScript.uris(scala), NoteScript.uris(code), "URIs of README snippet " + i);
        }
    }

    /** Runs one paragraph as Zeppelin does: under its own job group, which it finds again afterwards. */
    private void paragraph(String id, Runnable body) {
        spark.setJobGroup(id, "zeppelin paragraph " + id, false);
        try {
            body.run();
        } finally {
            assertEquals(id, spark.getLocalProperty("spark.jobGroup.id"), "the paragraph's job group after it ran");
            assertEquals("false", spark.getLocalProperty("spark.job.interruptOnCancel"));
            assertEquals("zeppelin paragraph " + id, spark.getLocalProperty("spark.job.description"));
            spark.clearJobGroup();
        }
    }

    private void topToBottom() {
        paragraph("paragraph_tomospark_1", this::reconstruct);
        paragraph("paragraph_tomospark_2", this::centreAutoAndSweep);
        paragraph("paragraph_tomospark_3", this::report);
        paragraph("paragraph_tomospark_4", this::resume);
    }

    private Map<Integer, float[]> slices(String hdfs) {
        return TestScans.readSlices(uri(hdfs), new Configuration());
    }

    private boolean complete(String hdfs) {
        return Files.exists(Path.of(uri(hdfs), "_SUCCESS"));
    }

    @Test
    void theNoteRunsTopToBottomTwiceAndFinishesACancelledRunWithItsResumeParagraph() throws Exception {
        useRoot("note-run");
        for (int pass = 1; pass <= 2; pass++) {
            topToBottom();
            assertTrue(complete("hdfs:///rec/sample"), "pass " + pass);
            TestScans.assertBitIdentical(reference, slices("hdfs:///rec/sample"));
            assertEquals(TRUE_CENTER, c, 0.5, "centre found, pass " + pass);
            assertEquals(13, sweep.images().size(), "centres c-3 .. c+3 step 0.5");
            assertEquals(Math.floor(c) - 3, sweep.centers().get(0), 1e-9);
            assertTrue(Files.exists(Path.of(uri("hdfs:///rec/sample-sweep"), sweep.contactSheet())));
            assertEquals(c, result.centerOfRotation(), 1e-9, "the run's centre is the one findCenter found");
            assertEquals("java", result.report().text("backend.id"));
            assertEquals(result.centerOfRotation(), lastReport.number("centerOfRotation"), 1e-9, "the Report paragraph reads "
                    + "the run's report.json");
            assertEquals(result.report().keySet(), lastReport.keySet());
            assertTrue(complete("hdfs:///rec/sample-auto"));
            assertEquals(ROWS, slices("hdfs:///rec/sample-auto").size());
            assertEquals(0, resumed.slicesComputed(), "resume of a complete output has nothing to do");
            assertEquals(ROWS, resumed.slicesSkipped());
        }

        // Zeppelin's Cancel button: another thread cancels the paragraph's job group while its job runs
        AtomicBoolean cancelled = new AtomicBoolean();
        Thread canceller = new Thread(() -> {
            String group = "paragraph_tomospark_1";
            while (!cancelled.get()) {
                for (int job : spark.statusTracker().getJobIdsForGroup(group)) {
                    var info = spark.statusTracker().getJobInfo(job);
                    // the slice groups' job (not the job that watches the group while the driver plans, which a
                    // cancel also stops, before anything is written)
                    if (info.isDefined() && info.get().status() == JobExecutionStatus.RUNNING && isSliceJob(info.get())) {
                        spark.cancelJobGroup(group);
                        cancelled.set(true);
                    }
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        });
        canceller.setDaemon(true);
        canceller.start();
        RunFailedException e = assertThrows(RunFailedException.class,
                () -> paragraph("paragraph_tomospark_1", this::reconstruct));
        canceller.join(10_000);
        assertTrue(cancelled.get(), "the canceller saw the job in the paragraph's group");
        assertTrue(e.getMessage().contains(".resume()"), e.getMessage());
        assertFalse(complete("hdfs:///rec/sample"), "a cancelled run leaves no _SUCCESS");
        Map<Integer, float[]> kept = slices("hdfs:///rec/sample");
        assertTrue(kept.size() < ROWS, kept.size() + " slices after the cancel");
        Map<Integer, float[]> expected = new TreeMap<>(reference);
        expected.keySet().retainAll(kept.keySet());
        if (!kept.isEmpty()) TestScans.assertBitIdentical(expected, kept);

        paragraph("paragraph_tomospark_4", this::resume);
        assertEquals(ROWS, resumed.slicesComputed() + resumed.slicesSkipped());
        assertEquals(kept.size(), resumed.slicesSkipped(), "the resume keeps the slices the cancelled run committed");
        assertTrue(complete("hdfs:///rec/sample"));
        TestScans.assertBitIdentical(reference, slices("hdfs:///rec/sample"));
    }

    /** Whether a job is a run's slice groups' job: its stage was made by the run's collect, not by the group's watch. */
    private boolean isSliceJob(SparkJobInfo job) {
        for (int stage : job.stageIds()) {
            var info = spark.statusTracker().getStageInfo(stage);
            if (info.isDefined() && info.get().name().contains(JobGroupWatch.class.getSimpleName())) return false;
        }
        return true;
    }

    @Test
    void theReadmeSnippetsRunInOrder() throws Exception {
        useRoot("readme-run");
        paragraph("readme_1", this::readme1);
        TestScans.assertBitIdentical(reference, slices("hdfs://nn:8020/rec/a"));
        assertTrue(result.report().section("timings").containsKey("gups"));
        paragraph("readme_2", this::readme2);
        assertEquals(TRUE_CENTER, c, 0.5);
        assertEquals(c, result.centerOfRotation(), 1e-9);
        assertEquals(13, sweep.images().size());
        assertTrue(complete("hdfs://nn:8020/rec/a-auto"));
    }
}
