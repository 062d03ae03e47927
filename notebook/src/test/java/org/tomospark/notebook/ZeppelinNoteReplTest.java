package org.tomospark.notebook;

import org.apache.spark.SparkContext;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.fs.Json;
import scala.Console$;
import scala.jdk.javaapi.CollectionConverters;
import scala.tools.nsc.Settings;
import scala.tools.nsc.interpreter.IMain;
import scala.tools.nsc.interpreter.Results;
import scala.tools.nsc.interpreter.shell.ReplReporterImpl;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped Zeppelin note, run as Zeppelin's Spark interpreter runs it: a Scala 2.13 REPL (the compiler of Spark's
 * Scala) with {@code spark} and {@code sc} bound to a local SparkSession, each paragraph's text sent whole under its
 * own job group ({@code zeppelin|user|note|paragraph}, interruptOnCancel false), its printed lines and the REPL's echo
 * of its values captured as the paragraph's output, and {@code sc.cancelJobGroup} from another thread as the Cancel
 * button. The note's {@code hdfs:///} URIs are mapped into a local folder.
 */
class ZeppelinNoteReplTest {
    /** The scan; {@code -Dtomospark.note.projections=1800} makes Reconstruct a run of about a minute on two cores. */
    static final int W = 600, ROWS = 160, PROJ = Integer.getInteger("tomospark.note.projections", 180);
    static final double TRUE_CENTER = 296;
    static final Path NOTE = Path.of("../notebooks/tomospark-zeppelin.json");
    static final Path README = Path.of("../README.md");
    /** Zeppelin's Scala interpreter echoes at most this many characters of a paragraph's values. */
    static final int ECHO_LIMIT = 800;
    /** The folder of this run's outputs: a short path, since the REPL's echo shows them. */
    static final Path SHORT = Path.of("/tmp", "zeppelin-" + ProcessHandle.current().pid());
    static SparkSession spark;
    static Path scans;

    @BeforeAll
    static void start() throws IOException {
        spark = SparkSession.builder().master("local[2]").appName("zeppelin-note")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.ui.enabled", "false").getOrCreate();
        scans = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "note-scans");
        new DemoDataset(DemoDataset.Spec.demo().withSize(W, ROWS, PROJ).withAxisOffset(TRUE_CENTER - (W - 1) / 2.0))
                .writeHdf5(scans.resolve("sample.h5"));
    }

    @AfterAll
    static void stop() throws IOException {
        if (spark != null) spark.stop();
        if (Files.exists(SHORT)) {
            try (Stream<Path> all = Files.walk(SHORT)) {
                for (Path f : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
            }
        }
    }

    @Test
    void theNoteRunsTopToBottomAndItsResumeParagraphFinishesACancelledRunInAFreshInterpreter() throws Exception {
        Path root = root("note");
        Map<String, String> note = paragraphs(root);
        assertEquals(List.of("Reconstruct", "Centre auto and a centre sweep", "Report", "Resume"), List.copyOf(note.keySet()));

        Map<String, byte[]> complete;
        try (Interpreter zeppelin = new Interpreter()) {
            List<int[]> bar = new ArrayList<>();
            Paragraph reconstruct = zeppelin.run("paragraph_1", note.get("Reconstruct"), group -> bar.addAll(progressBar(group)));
            reconstruct.assertSucceeded();
            assertEquals("slices in " + uri(root, "rec/sample"), reconstruct.lastLine(), reconstruct.output());
            // the bar follows the run's slice-group job, whose tasks make its steps: twenty, so at least ten values even
            // where the two task slots finish their equal groups in pairs (how many a sampler sees also depends on how
            // long the run is)
            assertFalse(bar.isEmpty(), "Zeppelin's bar found the paragraph's job");
            int[] last = bar.get(bar.size() - 1);
            List<int[]> followed = bar.stream().filter(b -> b[0] == last[0]).toList();
            assertTrue(last[2] >= 18, "the bar has " + (last[2] + 1) + " steps (the job's tasks + 1)");
            assertEquals(last[2], followed.stream().mapToInt(b -> b[1]).max().orElse(-1), "the bar reaches the job's end");
            Set<Integer> seen = new TreeSet<>();
            for (int[] b : followed) seen.add(100 * b[1] / b[2]);
            System.out.println("Zeppelin's progress bar during Reconstruct: " + seen + " % of " + (last[2] + 1) + " steps");

            Paragraph centre = zeppelin.run("paragraph_2", note.get("Centre auto and a centre sweep"), null);
            centre.assertSucceeded();
            assertEquals(TRUE_CENTER, Double.parseDouble(centre.lastLine()), 0.5, "the paragraph's last line, the centre found");
            assertTrue(centre.output().contains("contact-sheet.png in " + uri(root, "rec/sample-sweep")), centre.output());

            Paragraph report = zeppelin.run("paragraph_3", note.get("Report"), null);
            report.assertSucceeded();
            assertEquals("java", report.lastLine(), "the Report paragraph reads the centre-auto run's report.json");

            Paragraph resume = zeppelin.run("paragraph_4", note.get("Resume"), null);
            resume.assertSucceeded();
            assertEquals("computed 0, reused " + ROWS, resume.lastLine(), "the Resume of a complete output has nothing to do");
            complete = slices(root.resolve("rec/sample"));
            assertEquals(ROWS, complete.size());
        }

        // a fresh interpreter, as after a restart: Reconstruct is cancelled once its first slice group has committed,
        // then the Resume paragraph, which keeps nothing of the failed one, finishes the output
        try (Interpreter zeppelin = new Interpreter()) {
            AtomicLong cancelledAt = new AtomicLong();
            SparkListener cancelAfterAGroup = new SparkListener() {
                @Override
                public void onTaskEnd(SparkListenerTaskEnd end) {
                    if (end.taskInfo().successful() && cancelledAt.compareAndSet(0, System.nanoTime()))
                        sc().cancelJobGroup(zeppelin.group);
                }
            };
            sc().addSparkListener(cancelAfterAGroup);
            Paragraph cancelled;
            try {
                cancelled = zeppelin.run("paragraph_1", note.get("Reconstruct"), null);
            } finally {
                sc().removeSparkListener(cancelAfterAGroup);
            }
            assertEquals(Results.Error$.MODULE$, cancelled.result, cancelled.output());
            assertTrue(cancelled.output().contains(".resume()"), cancelled.output());
            double latency = (cancelled.returnedAt - cancelledAt.get()) / 1e9;
            System.out.printf(Locale.ROOT, "Cancel to the paragraph's return (Reconstruct, java, %d x %d x %d): %.2f s%n", W, ROWS,
                    PROJ, latency);
            assertTrue(latency < 5, "the paragraph returned " + latency + " s after the cancel");
            assertFalse(Files.exists(root.resolve("rec/sample/_SUCCESS")));
            int kept = slices(root.resolve("rec/sample")).size();
            assertTrue(kept >= 1 && kept < ROWS, kept + " slices kept");

            Paragraph resume = zeppelin.run("paragraph_4", note.get("Resume"), null);
            resume.assertSucceeded();
            assertEquals("computed " + (ROWS - kept) + ", reused " + kept, resume.lastLine());
            Map<String, byte[]> finished = slices(root.resolve("rec/sample"));
            assertEquals(complete.keySet(), finished.keySet());
            for (String name : complete.keySet())
                assertArrayEquals(complete.get(name), finished.get(name), name + " as the uncancelled run wrote it");
        }
    }

    @Test
    void aCancelWhileTheDriverSearchesForTheCentreStopsTheParagraph() throws Exception {
        Path root = root("centre-cancel");
        Map<String, String> note = paragraphs(root);
        try (Interpreter zeppelin = new Interpreter()) {
            AtomicLong cancelledAt = new AtomicLong();
            // the paragraph's first job is the one that watches its group while findCenter reads and searches
            SparkListener cancelAtFirstJob = new SparkListener() {
                @Override
                public void onJobStart(SparkListenerJobStart start) {
                    if (cancelledAt.compareAndSet(0, System.nanoTime())) sc().cancelJobGroup(zeppelin.group);
                }
            };
            sc().addSparkListener(cancelAtFirstJob);
            Paragraph p;
            try {
                p = zeppelin.run("paragraph_2", note.get("Centre auto and a centre sweep"), null);
            } finally {
                sc().removeSparkListener(cancelAtFirstJob);
            }
            assertEquals(Results.Error$.MODULE$, p.result, p.output());
            assertTrue(p.output().contains("cancel"), p.output());
            assertFalse(p.output().contains("centre found"), "the paragraph stopped in findCenter: " + p.output());
            double latency = (p.returnedAt - cancelledAt.get()) / 1e9;
            System.out.printf(Locale.ROOT, "Cancel to the paragraph's return (centre search): %.2f s%n", latency);
            assertTrue(latency < 2, "the paragraph returned " + latency + " s after the cancel");
            assertFalse(Files.exists(root.resolve("rec")), "nothing written");
        }
    }

    /**
     * The README's notebook snippets, in one interpreter one after the other (the second uses the first's import), as a
     * reader pastes them: each ends with a printed line that shows whatever the REPL's echo leaves out.
     */
    @Test
    void theReadmeSnippetsRunAndShowTheirLastLines() throws Exception {
        Path root = root("readme");
        Files.copy(root.resolve("scans/sample.h5"), root.resolve("scans/a.h5"));
        List<String> snippets = readmeSnippets(root);
        assertEquals(2, snippets.size(), "the README's scala snippets");
        try (Interpreter zeppelin = new Interpreter()) {
            Paragraph first = zeppelin.run("readme_1", snippets.get(0), null);
            first.assertSucceeded();
            assertTrue(first.lastLine().startsWith("{") && first.lastLine().contains("gups="), "the timings: " + first.lastLine());
            Paragraph second = zeppelin.run("readme_2", snippets.get(1), null);
            second.assertSucceeded();
            assertTrue(second.printed().contains("13 images, contact-sheet.png"), second.output());
            assertEquals(TRUE_CENTER, Double.parseDouble(second.lastLine()), 0.5, "r2.centerOfRotation");
        }
    }

    // ---- the interpreter

    /**
     * What a paragraph gave: the REPL's result, the lines it printed, the REPL's echo of its definitions and values (and
     * of an error), and when it returned.
     */
    record Paragraph(Results.Result result, String printed, String echo, long returnedAt) {
        String output() {
            return printed + echo;
        }

        void assertSucceeded() {
            assertEquals(Results.Success$.MODULE$, result, output());
            // one echoed definition starts at a line's first column; its value's further lines are indented
            List<String> entries = new ArrayList<>();
            for (String line : echo.split("\n")) {
                if (line.isEmpty()) continue;
                if (!Character.isWhitespace(line.charAt(0)) || entries.isEmpty()) entries.add(line);
                else entries.set(entries.size() - 1, entries.get(entries.size() - 1) + "\n" + line);
            }
            assertTrue(echo.length() < ECHO_LIMIT, "the paragraph's values echo in " + echo.length() + " characters:\n" + echo);
            for (String e : entries) {
                assertTrue(e.lines().count() <= 3, "echoed in " + e.lines().count() + " lines:\n" + e);
                assertFalse(e.matches("(?s).*\\w+[$.]\\w+@[0-9a-f]+.*"), "an object echoed as its hash code:\n" + e);
            }
        }

        String lastLine() {
            List<String> lines = printed.lines().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
        }
    }

    /** Zeppelin's Spark interpreter: one REPL, one paragraph at a time on the calling thread. */
    static final class Interpreter implements AutoCloseable {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream(), echoBuffer = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        final PrintWriter echo = new PrintWriter(new PrintStream(echoBuffer, true, StandardCharsets.UTF_8), true);
        final IMain repl;
        volatile String group;

        Interpreter() {
            Settings settings = new Settings();
            settings.processArgumentString("-usejavacp -Yrepl-class-based -deprecation");
            repl = new IMain(settings, new ReplReporterImpl(settings, echo));
            List<String> none = List.of();
            bind("spark", SparkSession.class, spark, none);
            bind("sc", SparkContext.class, spark.sparkContext(), none);
        }

        private void bind(String name, Class<?> type, Object value, List<String> modifiers) {
            Results.Result r = repl.bind(name, type.getName(), value, CollectionConverters.asScala(modifiers).toList());
            assertEquals(Results.Success$.MODULE$, r, "bind " + name + ": " + echoBuffer);
            echoBuffer.reset();
        }

        /**
         * Sends a paragraph's text under its job group, with Console.out and System.out pointing at its output (as
         * Zeppelin does); {@code during} (when not null) runs on another thread with the group's name until the
         * paragraph returns.
         */
        Paragraph run(String paragraphId, String text, Consumer<String> during) throws InterruptedException {
            group = "zeppelin|anonymous|2KTOMOSPARK1|" + paragraphId;
            buffer.reset();
            echoBuffer.reset();
            Thread watcher = during == null ? null : new Thread(() -> during.accept(group), "paragraph watcher");
            PrintStream systemOut = System.out;
            sc().setJobGroup(group, "Zeppelin paragraph " + paragraphId, false);
            Results.Result r;
            try {
                if (watcher != null) watcher.start();
                System.setOut(out);
                r = Console$.MODULE$.withOut(out, () -> repl.interpret(text));
            } finally {
                System.setOut(systemOut);
                sc().clearJobGroup();
            }
            long returned = System.nanoTime();
            if (watcher != null) {
                watcher.interrupt();
                watcher.join(10_000);
            }
            out.flush();
            echo.flush();
            Paragraph p = new Paragraph(r, buffer.toString(StandardCharsets.UTF_8), echoBuffer.toString(StandardCharsets.UTF_8),
                    returned);
            systemOut.println("---- " + paragraphId + " (" + r + ")\n" + p.output());
            return p;
        }

        @Override
        public void close() {
            repl.close();
        }
    }

    static SparkContext sc() {
        return spark.sparkContext();
    }

    /**
     * Zeppelin's progress bar of a paragraph, sampled every 10 ms until interrupted: the newest job of its group (the
     * first that {@code statusTracker.getJobIdsForGroup} lists), its finished tasks and its tasks ({job, done, tasks}).
     */
    static List<int[]> progressBar(String group) {
        List<int[]> values = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        while (!stop.get()) {
            int[] ids = sc().statusTracker().getJobIdsForGroup(group);
            if (ids.length > 0) {
                SparkJobInfo job = sc().statusTracker().getJobInfo(ids[0]).getOrElse(() -> null);
                if (job != null) {
                    int tasks = 0, done = 0;
                    for (int stage : job.stageIds()) {
                        SparkStageInfo s = sc().statusTracker().getStageInfo(stage).getOrElse(() -> null);
                        if (s == null) continue;
                        tasks += s.numTasks();
                        done += s.numCompletedTasks();
                    }
                    if (tasks > 0) values.add(new int[]{ids[0], done, tasks});
                }
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                stop.set(true);
            }
        }
        return values;
    }

    // ---- the note and its outputs

    /**
     * A folder for the note's hdfs:/// URIs, holding the scan at scans/sample.h5. Its path is about as long as the
     * note's hdfs:/// prefix, so that the echo's length is the note's in Zeppelin.
     */
    static Path root(String name) throws IOException {
        Path root = Files.createDirectories(SHORT.resolve(name));
        Files.createDirectories(root.resolve("scans"));
        Files.copy(scans.resolve("sample.h5"), root.resolve("scans/sample.h5"));
        return root;
    }

    /** The note's %spark paragraphs by title, without the interpreter line, their hdfs:/// URIs mapped into root. */
    static Map<String, String> paragraphs(Path root) throws IOException {
        Map<String, Object> note = Json.read(Files.readAllBytes(NOTE), NOTE.toString());
        Map<String, String> l = new LinkedHashMap<>();
        for (Object o : (List<?>) note.get("paragraphs")) {
            Map<?, ?> p = (Map<?, ?>) o;
            String text = (String) p.get("text");
            if (!text.startsWith("%spark\n")) continue;
            l.put((String) p.get("title"), text.substring("%spark\n".length()).replace("hdfs:///", uri(root, "")));
        }
        return l;
    }

    /** The README's scala snippets of its notebook section, without the interpreter line, hdfs://nn:8020/ mapped into root. */
    static List<String> readmeSnippets(Path root) throws IOException {
        String text = Files.readString(README);
        int start = text.indexOf("\n## Notebooks");
        int end = text.indexOf("\n## ", start + 4);
        Matcher m = Pattern.compile("```scala\\n(.*?)```", Pattern.DOTALL).matcher(text.substring(start, end));
        List<String> l = new ArrayList<>();
        while (m.find()) l.add(m.group(1).replaceFirst("^%spark\\n", "").replace("hdfs://nn:8020/", uri(root, "")));
        return l;
    }

    /** Where the note's hdfs:///PATH lands. */
    static String uri(Path root, String path) {
        return root.toUri() + path;
    }

    /** The slice files of an output folder, by name. */
    static Map<String, byte[]> slices(Path dir) {
        Map<String, byte[]> m = new TreeMap<>();
        if (!Files.isDirectory(dir)) return m;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("slice_\\d+\\.tif")).toList())
                m.put(f.getFileName().toString(), Files.readAllBytes(f));
        } catch (IOException e) {
            throw new UncheckedIOException(dir.toString(), e);
        }
        return m;
    }
}
