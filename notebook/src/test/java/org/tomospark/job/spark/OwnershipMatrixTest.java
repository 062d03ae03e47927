package org.tomospark.job.spark;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tomospark.job.ExitCode;
import org.tomospark.notebook.Reconstruction;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;
import org.tomospark.job.spark.OwnershipFixture.Engine;
import org.tomospark.job.spark.OwnershipFixture.Outcome;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault matrix of "never touch what is not ours" (docs/faults.md, "What a run may change"), through the direct and
 * Spark engines, the notebook API and {@code reprocess}: inputs inside their output, files named as the product's own
 * that no run of the output recorded, names of every kind, links at every level, every state of the claim file, and
 * every combination of {@code --resume}, {@code --overwrite} and {@code --slices} on finished, unfinished and foreign
 * outputs. Each case checks the exit status, the message, and that every file the run may not touch (everything but
 * the run's own files under its output) is byte- and time-identical afterwards.
 */
class OwnershipMatrixTest {
    /** Names the product writes in an output folder, each made here by the user instead. */
    static final List<String> OUR_NAMES = List.of("volume.h5", "manifest.json", "report.json", "preview.png", "_SUCCESS",
            "slice_00003.tif", "volume.raw", "convergence.png", "volume.zarr/0.0.0", "volume.h5.slices/slice_00001.raw",
            "_committed/slice_00001.sha256", "center_0015.50.tif", "contact-sheet.png", ".slice_00001.tif.crc");

    @BeforeAll
    static void spark() {
        TestScans.spark();
    }

    static void refused(Engine e, Outcome o, int code, String... fragments) {
        assertEquals(e == Engine.REPROCESS ? 5 : code, o.code(), e + ": " + o.message());
        for (String f : fragments) assertTrue(o.message().contains(f), e + " should say '" + f + "': " + o.message());
        assertFalse(o.message().contains("\tat "), "an expected refusal prints no stack trace: " + o.message());
    }

    static void done(Engine e, Outcome o) {
        assertEquals(0, o.code(), e + ": " + o.message());
    }

    static void nothingToDo(Engine e, Outcome o) {
        assertEquals(0, o.code(), e + ": " + o.message());
        assertTrue(o.message().contains(e == Engine.REPROCESS ? "skipped" : "Nothing to do"), e + ": " + o.message());
    }

    // ---- inputs inside their output

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"DIRECT", "SPARK", "NOTEBOOK"})
    void anInputInsideItsOutputIsRefusedBeforeAnythingIsWritten(Engine e) throws IOException {
        OwnershipFixture f = new OwnershipFixture("inside-" + e);
        Path inside = f.out.resolve("volume.h5");
        Files.createDirectories(f.out);
        Files.copy(f.scan, inside);
        f.userFile("out/rec/notes.txt", "mine");
        TreeSnapshot before = f.snapshot();
        Outcome o = switch (e) {
            case NOTEBOOK -> notebookOn(f, inside);
            default -> cliOn(e, inside, f.out, "--output-format", "hdf5");
        };
        refused(e, o, 2, "lies inside this output folder", inside.toString());
        before.assertUnchanged(f.snapshot(), e + ": input inside its output");
    }

    private static Outcome cliOn(Engine e, Path input, Path out, String... extra) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", e == Engine.DIRECT ? "direct" : "spark", "--backend",
                "java", "--conf", "job.progress=false", "--center", OwnershipFixture.CENTER, "--input", input.toString(), "--output",
                out.toString()));
        a.addAll(List.of(extra));
        CliRun r = CliRun.of(a.toArray(String[]::new));
        return new Outcome(r.code(), r.err());
    }

    private static Outcome notebookOn(OwnershipFixture f, Path input) {
        try {
            Reconstruction.builder(TestScans.spark()).input(input.toString())
                    .output(f.out.toString()).center(15.5).backend("java").outputFormat("hdf5").run();
            return new Outcome(0, "");
        } catch (RuntimeException ex) {
            return new Outcome(ExitCode.of(ex).code(), ex.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"DIRECT", "SPARK"})
    void aRawScanWithItsFlatsInsideItsOutputIsRefused(Engine e) throws IOException {
        OwnershipFixture f = new OwnershipFixture("raw-inside-" + e);
        Files.createDirectories(f.out);
        short[] frame = new short[8 * 32];
        Arrays.fill(frame, (short) 1000);
        byte[] data = new byte[36 * frame.length * 2], flats = new byte[2 * frame.length * 2];
        for (int i = 0; i < data.length; i += 2) data[i + 1] = 3;
        for (int i = 0; i < flats.length; i += 2) flats[i + 1] = 4;
        Files.write(f.out.resolve("volume.raw"), data);
        Files.write(f.out.resolve("flats.raw"), flats);
        TreeSnapshot before = f.snapshot();
        Outcome o = cliOn(e, f.out.resolve("volume.raw"), f.out, "--conf", "job.input.raw.shape=36,8,32", "--conf",
                "job.input.raw.flats=" + f.out.resolve("flats.raw"), "--conf", "angles.start=0", "--conf", "angles.step=5",
                "--conf", "job.output.raw=true");
        refused(e, o, 2, "lies inside this output folder");
        before.assertUnchanged(f.snapshot(), e + ": raw input inside its output");
    }

    @Test
    void aBatchTakesNothingUnderItsOutputRootAsAScan() throws IOException {
        // the scan lies at arch/volume/volume.h5, and the batch's outputs go to arch/NAME: arch/volume would hold it
        OwnershipFixture f = new OwnershipFixture("arch", "volume");
        Path arch = f.dir.resolve("arch");
        Files.createDirectories(arch.resolve("volume"));
        Files.copy(f.scan, arch.resolve("volume/volume.h5"));
        TreeSnapshot before = f.snapshot();
        CliRun r = CliRun.of("reprocess", arch.resolve("volume").toString(), "--output-root", arch.toString(), "--output-format",
                "hdf5", "--backend", "java", "--center", OwnershipFixture.CENTER, "--conf", "job.progress=false");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("no scans found") && r.err().contains("under the output root"), r.err());
        before.assertUnchangedBut(f.snapshot(), p -> p.equals("arch/_lock"), "input under the output root");

        // a glob that also matches the root and the batch's own outputs takes only the scans, on every run
        Path d = f.dir.resolve("d");
        Files.createDirectories(d);
        Files.copy(f.scan, d.resolve("s1.h5"));
        for (int run = 0; run < 2; run++) {
            CliRun g = CliRun.of("reprocess", d + "/*", "--output-root", d.resolve("rec").toString(), "--output-format", "hdf5",
                    "--backend", "java", "--center", OwnershipFixture.CENTER, "--conf", "job.progress=false");
            assertEquals(0, g.code(), g.err());
            assertTrue(g.err().contains(run == 0 ? "1 reconstructed" : "1 skipped"), g.err());
        }
    }

    // ---- files named as the product's own, not recorded by any run of the output

    @ParameterizedTest
    @EnumSource(Engine.class)
    void filesNamedAsOursThatNoRunRecordedAreNeverTouched(Engine e) throws IOException {
        for (String name : OUR_NAMES) {
            for (String[] flags : e == Engine.REPROCESS ? new String[][]{{}, {"--overwrite"}}
                    : new String[][]{{}, {"--overwrite"}, {"--resume"}}) {
                OwnershipFixture f = new OwnershipFixture("foreign-" + e);
                f.userFile("out/rec/" + name, "the user's own " + name);
                f.userFile("out/rec/notes.txt", "mine");
                TreeSnapshot before = f.snapshot();
                Outcome o = f.run(e, flags);
                refused(e, o, 2, "named as tomospark's own files");
                before.assertUnchangedBut(f.snapshot(), f.nothing(e), e + " " + List.of(flags) + " with a foreign " + name);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void linksAndFoldersNamedAsOursAreNeverFollowedOrRemoved(Engine e) throws IOException {
        String[][] cases = {{"preview.png", "link"}, {"_committed", "link"}, {"volume.zarr", "link"}, {"manifest.json", "folder"},
                {"_temporary", "file"}};
        for (String[] c : cases) {
            OwnershipFixture f = new OwnershipFixture("links-" + e);
            Path target = f.userFile("elsewhere/" + c[0] + "-target", "behind a link");
            if (c[1].equals("link")) f.userLink("out/rec/" + c[0], c[0].contains(".") && !c[0].equals("volume.zarr") ? target
                    : f.elsewhere);
            else if (c[1].equals("folder")) f.userFile("out/rec/" + c[0] + "/inside.txt", "a folder");
            else f.userFile("out/rec/" + c[0], "a file");
            TreeSnapshot before = f.snapshot();
            Outcome o = f.run(e, "--overwrite");
            refused(e, o, 2, "named as tomospark's own files", c[0]);
            before.assertUnchangedBut(f.snapshot(), f.nothing(e), e + ": " + c[0] + " as a " + c[1]);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void otherFilesInTheOutputStayAsTheyAre(Engine e) throws IOException {
        OwnershipFixture f = new OwnershipFixture("others-" + e);
        for (String n : List.of("notes.txt", "my scan.h5", "slice_1.tif", "_SUCCESS.bak", "volume.zarr.old", "sub/slice_00001.tif"))
            f.userFile("out/rec/" + n, n);
        TreeSnapshot before = f.snapshot();
        done(e, f.run(e));
        assertTrue(Files.exists(f.out.resolve("_SUCCESS")));
        before.assertUnchangedBut(f.snapshot(), f.outputsOnly(e), e + ": first run");
        TreeSnapshot made = f.snapshot();
        if (e == Engine.REPROCESS) {
            // a batch's --overwrite redoes outputs made with other parameters; this one is up to date: skipped
            nothingToDo(e, f.run(e, "--overwrite", "--slices", "2:5"));
            made.assertUnchangedBut(f.snapshot(), f.nothing(e), "reprocess --overwrite of an up-to-date output");
            f.userFile("in/other.txt", "changes nothing");
            done(e, f.run(e, "--overwrite", "--slices", "2:5", "--conf", "filter=hann"));
        } else {
            done(e, f.run(e, "--overwrite", "--slices", "2:5"));
        }
        made.assertUnchangedBut(f.snapshot(), p -> f.outputsOnly(e).test(p) || p.equals("in/other.txt"), e + ": overwrite");
        assertEquals(List.of("slice_00002.tif", "slice_00003.tif", "slice_00004.tif"), sliceFiles(f.out),
                "the earlier run's slices went, the user's stayed");
        assertTrue(Files.exists(f.out.resolve("sub/slice_00001.tif")) && Files.exists(f.out.resolve("slice_1.tif")));
    }

    static List<String> sliceFiles(Path out) throws IOException {
        try (var s = Files.list(out)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("slice_\\d{5}\\.tif")).sorted().toList();
        }
    }

    @Test
    void aBatchReplacesOnlyItsOwnReportAndClaim() throws IOException {
        // the root holds a file named as the batch's report that no batch wrote, then a claim that is not a claim
        OwnershipFixture f = new OwnershipFixture("root-report");
        f.userFile("out/batch-report.json", "{\"my\": \"notes\"}");
        TreeSnapshot before = f.snapshot();
        Outcome o = f.run(Engine.REPROCESS);
        assertEquals(2, o.code(), o.message());
        assertTrue(o.message().contains("batch-report.json") && o.message().contains("not a batch report of tomospark's"),
                o.message());
        before.assertUnchanged(f.snapshot(), "a batch onto someone else's batch-report.json");
        OwnershipFixture g = new OwnershipFixture("root-lock");
        Path lock = g.userFile("out/_lock", "not a claim");
        Files.setLastModifiedTime(lock, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        TreeSnapshot b2 = g.snapshot();
        Outcome l = g.run(Engine.REPROCESS, "--conf", "job.output.lockTimeout=60");
        assertEquals(3, l.code(), l.message());
        assertTrue(l.message().contains("holds no claim that tomospark can read"), l.message());
        b2.assertUnchanged(g.snapshot(), "a batch onto a root whose _lock is not a claim");
        // a report a batch wrote is the batch's to replace
        Files.delete(lock);
        g.forget("out/_lock");
        done(Engine.REPROCESS, g.run(Engine.REPROCESS));
        done(Engine.REPROCESS, g.run(Engine.REPROCESS));
    }

    // ---- names of every kind

    @ParameterizedTest
    @EnumSource(Engine.class)
    void namesOfEveryKindLandWhereAsked(Engine e) throws IOException {
        String name = "a b%20c:d\né #1";
        OwnershipFixture f = new OwnershipFixture("names-" + e, name);
        f.userFile("out/" + name + "/notes.txt", "mine");
        TreeSnapshot before = f.snapshot();
        done(e, f.run(e));
        assertTrue(Files.exists(f.out.resolve("_SUCCESS")), e + ": the output went where it was asked");
        assertEquals(8, sliceFiles(f.out).size());
        before.assertUnchangedBut(f.snapshot(), f.outputsOnly(e), e + ": odd names");
        TreeSnapshot finished = f.snapshot();
        nothingToDo(e, f.run(e, "--resume"));
        finished.assertUnchangedBut(f.snapshot(), f.nothing(e), e + ": resume of a finished output with odd names");
    }

    // ---- links at every level

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anInputReachedThroughALinkIsReadAndNeverWritten(Engine e) throws IOException {
        OwnershipFixture f = new OwnershipFixture("input-link-" + e);
        Path real = f.elsewhere.resolve("real.h5");
        Files.move(f.scan, real);
        f.userLink("in/rec.h5", real);
        TreeSnapshot before = f.snapshot();
        done(e, f.run(e));
        before.assertUnchangedBut(f.snapshot(), f.outputsOnly(e), e + ": input through a link");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anOutputThatIsALink(Engine e) throws IOException {
        OwnershipFixture f = new OwnershipFixture("output-link-" + e);
        Path target = Files.createDirectories(f.elsewhere.resolve("old-rec"));
        f.userLink("out/rec", target);
        TreeSnapshot before = f.snapshot();
        Outcome o = f.run(e);
        if (e == Engine.REPROCESS) {
            // a batch writes only inside its root: a scan's folder that leads out of it fails, the batch goes on
            refused(e, o, 2, "outside the output root");
            before.assertUnchangedBut(f.snapshot(), f.nothing(e), "reprocess into a link out of the root");
        } else {
            // a single run's output is where the user pointed it, link or not
            done(e, o);
            assertTrue(Files.exists(target.resolve("_SUCCESS")));
            before.assertUnchangedBut(f.snapshot(), f.outputsOnly(e, "elsewhere/old-rec"), e + ": output through a link");
        }
        // a dangling link: a single run cannot create its output through it, a batch refuses the scan; nothing changes
        OwnershipFixture g = new OwnershipFixture("dangling-" + e);
        g.userLink("out/rec", g.elsewhere.resolve("missing"));
        TreeSnapshot b2 = g.snapshot();
        Outcome d = g.run(e);
        assertTrue(d.code() != 0, e + ": " + d.message());
        b2.assertUnchangedBut(g.snapshot(), g.nothing(e), e + ": dangling output link");
    }

    @Test
    void aBatchWhoseRootIsALinkWritesWhereItLeads() throws IOException {
        OwnershipFixture f = new OwnershipFixture("root-link");
        Path realRoot = Files.createDirectories(f.elsewhere.resolve("root"));
        Files.delete(f.out.getParent());
        f.userLink("out", realRoot);
        TreeSnapshot before = f.snapshot();
        done(Engine.REPROCESS, f.run(Engine.REPROCESS));
        assertTrue(Files.exists(realRoot.resolve("rec/_SUCCESS")));
        before.assertUnchangedBut(f.snapshot(), p -> p.startsWith("elsewhere/root/"), "a root through a link");
    }

    // ---- the claim file in every state

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyStateOfTheClaimFile(Engine e) throws Exception {
        long old = System.currentTimeMillis() - 3_600_000;
        String host = InetAddress.getLocalHost().getHostName();
        long me = ProcessHandle.current().pid();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String live = "{\"owner\":\"x\",\"host\":\"" + host + "\",\"pid\":" + me + ",\"processStart\":\"\",\"started\":\"now\","
                + "\"run\":\"another\"}";
        String dead = live.replace("\"pid\":" + me, "\"pid\":" + gone.pid());
        Object[][] states = {
                {"garbage, fresh", "not json {", false, 3, "in use by another run"},
                {"garbage, stale", "not json {", true, 3, "holds no claim that tomospark can read"},
                {"empty, stale", "", true, 3, "holds no claim that tomospark can read"},
                {"foreign json, stale", "{\"a\": 1}", true, 3, "holds no claim that tomospark can read"},
                {"live claim", live, false, 3, "in use by another run"},
                {"claim of a process that exited", dead, false, 0, null},
        };
        for (Object[] s : states) {
            OwnershipFixture f = new OwnershipFixture("lock-" + e);
            Path lock = f.userFile("out/rec/_lock", (String) s[1]);
            if ((Boolean) s[2]) Files.setLastModifiedTime(lock, FileTime.fromMillis(old));
            TreeSnapshot before = f.snapshot();
            Outcome o = f.run(e, "--conf", "job.output.lockTimeout=60");
            String what = e + ": _lock " + s[0];
            if ((Integer) s[3] == 0) {
                done(e, o);
                assertFalse(Files.exists(lock), what + ": the dead run's claim was taken over and released");
                before.assertUnchangedBut(f.snapshot(), p -> p.equals("out/rec/_lock") || f.outputsOnly(e).test(p), what);
            } else {
                refused(e, o, (Integer) s[3], (String) s[4]);
                before.assertUnchangedBut(f.snapshot(), f.nothing(e), what);
            }
        }
        // a folder where the claim goes is not a claim
        OwnershipFixture f = new OwnershipFixture("lock-folder-" + e);
        f.userFile("out/rec/_lock/inside.txt", "a folder");
        TreeSnapshot before = f.snapshot();
        refused(e, f.run(e), 2, "_lock is a folder");
        before.assertUnchangedBut(f.snapshot(), f.nothing(e), e + ": _lock a folder");
    }

    // ---- --resume, --overwrite and --slices on finished, unfinished and foreign outputs

    @ParameterizedTest
    @EnumSource(Engine.class)
    void resumeOverwriteAndSlicesOnFinishedOutputs(Engine e) throws IOException {
        for (String format : List.of("tiff", "hdf5", "zarr")) {
            OwnershipFixture f = new OwnershipFixture("finished-" + e + "-" + format);
            f.userFile("out/rec/notes.txt", "mine");
            done(e, f.run(e, "--output-format", format));
            String[][] nothing = {{"--resume"}, {"--resume", "--slices", "2:5"}, {"--resume", "--slices", "0:8"}};
            for (String[] flags : nothing) {
                TreeSnapshot before = f.snapshot();
                nothingToDo(e, f.run(e, concat(flags, "--output-format", format)));
                before.assertUnchangedBut(f.snapshot(), f.nothing(e), e + " " + format + " " + List.of(flags) + " on a finished output");
            }
            if (e != Engine.REPROCESS) {
                TreeSnapshot before = f.snapshot();
                refused(e, f.run(e, "--output-format", format), 2, "overwrite");
                before.assertUnchanged(f.snapshot(), e + " " + format + ": no flag on a finished output");
            }
            // slices outside a finished output are not added to it: refused (a batch: outdated), nothing changes
            OwnershipFixture g = new OwnershipFixture("finished-part-" + e + "-" + format);
            done(e, g.run(e, "--output-format", format, "--slices", "2:5"));
            TreeSnapshot part = g.snapshot();
            refused(e, g.run(e, "--resume", "--output-format", format), 2, "a finished output is not changed");
            part.assertUnchangedBut(g.snapshot(), g.nothing(e), e + " " + format + ": a wider --resume");
            // --overwrite replaces the run's files only (a batch's --overwrite redoes outdated outputs: this one is not)
            TreeSnapshot before = f.snapshot();
            Outcome o = f.run(e, "--overwrite", "--output-format", format, "--slices", "1:3");
            if (e == Engine.REPROCESS) {
                nothingToDo(e, o);
                continue;
            }
            done(e, o);
            before.assertUnchangedBut(f.snapshot(), f.outputsOnly(e), e + " " + format + ": --overwrite");
            assertEquals("mine", Files.readString(f.out.resolve("notes.txt")));
            assertEquals(2, ((Number) ((Map<?, ?>) report(f.out).get("slices")).get("total")).intValue());
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void resumeOverwriteAndSlicesOnUnfinishedOutputs(Engine e) throws IOException {
        String[][] flagsList = e == Engine.REPROCESS ? new String[][]{{}, {"--slices", "0:6"}, {"--overwrite"}}
                : new String[][]{{}, {"--resume"}, {"--resume", "--slices", "0:6"}, {"--overwrite"}};
        for (String[] flags : flagsList) {
            OwnershipFixture f = new OwnershipFixture("unfinished-" + e);
            f.userFile("out/rec/notes.txt", "mine");
            done(e, f.run(e));
            unfinish(f.out);
            TreeSnapshot before = f.snapshot();
            Outcome o = f.run(e, flags);
            if (flags.length == 0 && e != Engine.REPROCESS) {
                refused(e, o, 2, "unfinished run");
                before.assertUnchanged(f.snapshot(), e + ": no flag on an unfinished output");
                continue;
            }
            done(e, o);
            before.assertUnchangedBut(f.snapshot(), f.outputsOnly(e), e + " " + List.of(flags) + " on an unfinished output");
            assertTrue(Files.exists(f.out.resolve("_SUCCESS")));
        }
    }

    /** What a run killed halfway leaves: no _SUCCESS, manifest, report or preview, and its last slices missing. */
    static void unfinish(Path out) throws IOException {
        for (String n : List.of("_SUCCESS", "manifest.json", "report.json", "preview.png")) Files.deleteIfExists(out.resolve(n));
        for (int row = 5; row < 8; row++) {
            Files.deleteIfExists(out.resolve(String.format("slice_%05d.tif", row)));
            Files.deleteIfExists(out.resolve(String.format("_committed/slice_%05d.sha256", row)));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void foreignOutputsAreRefusedWhateverTheFlags(Engine e) throws IOException {
        // a folder of the user's own TIFF stack, named as slices are, and no record: not a run's
        for (String[] flags : new String[][]{{}, {"--resume"}, {"--overwrite"}, {"--overwrite", "--slices", "0:2"}}) {
            OwnershipFixture f = new OwnershipFixture("foreign-out-" + e);
            for (int i = 0; i < 4; i++) f.userFile(String.format("out/rec/slice_%05d.tif", i), "the user's image " + i);
            TreeSnapshot before = f.snapshot();
            refused(e, f.run(e, flags), 2, "named as tomospark's own files");
            before.assertUnchangedBut(f.snapshot(), f.nothing(e), e + " " + List.of(flags) + " on a foreign output");
        }
    }

    // ---- numbers

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"DIRECT", "SPARK", "NOTEBOOK"})
    void nonFiniteNumbersAreRefusedNamingTheKey(Engine e) throws IOException {
        for (String v : List.of("-Infinity", "Infinity", "1e999", "-1e999", "NaN")) {
            OwnershipFixture f = new OwnershipFixture("nonfinite-" + e);
            TreeSnapshot before = f.snapshot();
            Outcome o = f.run(e, "--center", v);
            refused(e, o, 2, "config key center", v);
            before.assertUnchanged(f.snapshot(), e + ": --center " + v);
            assertFalse(Files.exists(f.out));
        }
        OwnershipFixture f = new OwnershipFixture("nonfinite-key-" + e);
        refused(e, f.run(e, "--conf", "filter.cutoff=1e999"), 2, "config key filter.cutoff", "not a finite number");
    }

    @Test
    void aTableValueBeyondTheLargestNumberIsRefused() throws IOException {
        OwnershipFixture f = new OwnershipFixture("table-nonfinite");
        Path table = f.userFile("table.json", "{\"rec.h5\": {\"center\": -1e999}}");
        TreeSnapshot before = f.snapshot();
        CliRun r = CliRun.of("reprocess", f.scan.toString(), "--output-root", f.out.getParent().toString(), "--table", table.toString(),
                "--backend", "java", "--conf", "job.progress=false");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("config key center") && r.err().contains("not a finite number"), r.err());
        before.assertUnchanged(f.snapshot(), "a table with -1e999");
    }

    // ---- list files and the other commands that write

    @Test
    void aListFileIsAListOfPaths() throws IOException {
        OwnershipFixture f = new OwnershipFixture("list");
        Path spaced = f.dir.resolve("in/my scan.h5");
        Files.copy(f.scan, spaced);
        Path list = f.userFile("list.txt", "# scans of today\n\n" + spaced + "\n--output-root=" + f.elsewhere + "\n--overwrite\n"
                + "--conf=center=1\n");
        CliRun r = CliRun.of("reprocess", "@" + list, "--output-root", f.out.getParent().toString(), "--backend", "java",
                "--center", OwnershipFixture.CENTER, "--conf", "job.progress=false");
        assertEquals(5, r.code(), r.err());
        assertTrue(Files.exists(f.out.getParent().resolve("my scan/_SUCCESS")), "the path with a space is one scan");
        assertTrue(r.err().contains("--output-root=" + f.elsewhere + ": input not found"), r.err());
        assertEquals(List.of("keep.txt"), names(f.elsewhere), "a line of the list is never an option");
    }

    static List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void findCentersReplacesOnlyItsOwnTable() throws IOException {
        OwnershipFixture f = new OwnershipFixture("find-centers");
        Path notes = f.userFile("notes.json", "{\"shopping\": [\"milk\"]}");
        TreeSnapshot before = f.snapshot();
        for (Path target : List.of(notes, f.scan)) {
            CliRun r = CliRun.of("find-centers", f.scan.toString(), "--output", target.toString(), "--conf", "job.progress=false");
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("replaces only files it can show are its own"), r.err());
        }
        before.assertUnchanged(f.snapshot(), "find-centers onto other files");
        Path table = f.dir.resolve("centres.json");
        for (int run = 0; run < 2; run++)
            assertEquals(0, CliRun.of("find-centers", f.scan.toString(), "--output", table.toString()).code(), "run " + run);
        before.assertUnchangedBut(f.snapshot(), p -> p.equals("centres.json"), "find-centers");
    }

    @Test
    void aCentreSweepReplacesOnlyItsOwnImages() throws IOException {
        OwnershipFixture f = new OwnershipFixture("sweep");
        f.userFile("out/rec/center_0015.00.tif", "the user's image");
        TreeSnapshot before = f.snapshot();
        CliRun r = CliRun.of("reconstruct", "--engine", "direct", "--backend", "java", "--input", f.scan.toString(), "--output",
                f.out.toString(), "--conf", "center.sweep=15:16:0.5", "--overwrite");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("center_0015.00.tif"), r.err());
        before.assertUnchanged(f.snapshot(), "a sweep onto the user's image");
        Files.delete(f.out.resolve("center_0015.00.tif"));
        f.forget("out/rec/center_0015.00.tif");
        f.userFile("out/rec/notes.txt", "mine");
        for (String sweep : List.of("15:16:0.5", "14:15:1")) {
            TreeSnapshot b = f.snapshot();
            CliRun s = CliRun.of("reconstruct", "--engine", "direct", "--backend", "java", "--input", f.scan.toString(), "--output",
                    f.out.toString(), "--conf", "center.sweep=" + sweep, "--overwrite");
            assertEquals(0, s.code(), s.err());
            b.assertUnchangedBut(f.snapshot(), f.outputsOnly(Engine.DIRECT), "sweep " + sweep);
        }
        assertEquals(List.of("_SUCCESS", "_committed", "center_0014.00.tif", "center_0015.00.tif", "contact-sheet.png", "notes.txt",
                "report.json"), names(f.out), "the second sweep replaced the first's images, not the user's file");
    }

    @Test
    void demoDataWritesNewFilesOnly() throws IOException {
        OwnershipFixture f = new OwnershipFixture("demo-data");
        TreeSnapshot before = f.snapshot();
        CliRun r = CliRun.of("demo-data", "--output", f.scan.toString(), "--width", "16", "--rows", "2", "--projections", "8");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("already exists"), r.err());
        before.assertUnchanged(f.snapshot(), "demo-data onto a scan");
    }

    static Map<String, Object> report(Path out) throws IOException {
        return Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
    }

    static String[] concat(String[] a, String... b) {
        List<String> l = new ArrayList<>(List.of(a));
        l.addAll(List.of(b));
        return l.toArray(String[]::new);
    }
}
