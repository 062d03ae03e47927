package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputBusyException;
import org.tomospark.job.outputs.OutputLock;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One owner per output: a second run into an output that another live run holds is refused and changes nothing;
 * a claim left by a dead run is taken over; and --resume trusts only what a run signature proves.
 */
class OutputClaimTest {

    static CliRun cli(String engine, String... args) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", engine, "--backend", "java", "--filter", "shepp-logan",
                "--conf", "job.progress=false"));
        a.addAll(List.of(args));
        return CliRun.of(a.toArray(String[]::new));
    }

    static String scan() {
        TestScans.spark();
        return TestScans.hdf5().toString();
    }

    /** Every file under a directory with its size and modification time: what "changes nothing" compares. */
    static Set<String> listing(Path dir) throws Exception {
        Set<String> s = new TreeSet<>();
        try (Stream<Path> w = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) w::iterator)
                if (Files.isRegularFile(p)) s.add(dir.relativize(p) + " " + Files.size(p) + " " + Files.getLastModifiedTime(p).toMillis());
        }
        return s;
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void aLiveClaimRefusesASecondRunWhichChangesNothing(String engine) throws Exception {
        Path out = TestScans.tmp("claimed").resolve("rec");
        assertEquals(0, cli(engine, "--input", scan(), "--output", out.toString(), "--center", "47.5").code());
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        try (OutputLock held = OutputLock.claim(new org.apache.hadoop.fs.Path(out.toString()), HadoopConf.create(), Duration.ofMinutes(2),
                "a test holding the output")) {
            Set<String> before = listing(out);
            for (String[] extra : List.of(new String[]{"--overwrite"}, new String[]{"--resume"}, new String[]{})) {
                List<String> args = new ArrayList<>(List.of("--input", scan(), "--output", out.toString(), "--center", "40"));
                args.addAll(List.of(extra));
                CliRun r = cli(engine, args.toArray(String[]::new));
                assertEquals(3, r.code(), r.err());
                assertTrue(r.err().contains("in use by another run") && r.err().contains("a test holding the output"), r.err());
                assertEquals(before, listing(out), "a refused run changed the output");
            }
        }
        assertFalse(Files.exists(out.resolve(OutputLock.NAME)), "a released claim leaves no lock file");
        assertEquals(0, cli(engine, "--input", scan(), "--output", out.toString(), "--center", "40", "--overwrite").code());
    }

    /** Writes a lock file as another run would have left it. */
    static void leaveClaim(Path out, String host, long pid, FileTime heartbeat) throws Exception {
        Files.createDirectories(out);
        Path lock = out.resolve(OutputLock.NAME);
        Files.write(lock, Json.write(Map.of("owner", "someone-else", "host", host, "pid", pid, "processStart", "",
                "started", "2026-01-01T00:00:00Z", "run", "an earlier run")));
        Files.setLastModifiedTime(lock, heartbeat);
    }

    @Test
    void theClaimOfAProcessThatExitedOnThisHostIsTakenOverAtOnce() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        Path out = TestScans.tmp("dead-claim").resolve("rec");
        leaveClaim(out, InetAddress.getLocalHost().getHostName(), gone.pid(), FileTime.fromMillis(System.currentTimeMillis()));
        CliRun r = cli("direct", "--input", scan(), "--output", out.toString(), "--center", "47.5");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertFalse(Files.exists(out.resolve(OutputLock.NAME)));
    }

    @Test
    void aClaimFromAnotherHostIsTakenOverOnlyOnceItsHeartbeatIsStale() throws Exception {
        Path out = TestScans.tmp("remote-claim").resolve("rec");
        leaveClaim(out, "another-host.example", 4242, FileTime.fromMillis(System.currentTimeMillis()));
        CliRun busy = cli("spark", "--input", scan(), "--output", out.toString(), "--center", "47.5", "--conf",
                "job.output.lockTimeout=30");
        assertEquals(3, busy.code(), busy.err());
        assertTrue(busy.err().contains("another-host.example") && busy.err().contains("job.output.lockTimeout (30 s)"), busy.err());
        Files.setLastModifiedTime(out.resolve(OutputLock.NAME), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        CliRun r = cli("spark", "--input", scan(), "--output", out.toString(), "--center", "47.5", "--conf", "job.output.lockTimeout=30");
        assertEquals(0, r.code(), r.err());
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
    }

    @Test
    void aRunThatLosesItsClaimStops() throws Exception {
        Path out = TestScans.tmp("lost-claim").resolve("rec");
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        try (OutputLock lock = OutputLock.claim(new org.apache.hadoop.fs.Path(out.toString()), HadoopConf.create(),
                Duration.ofMillis(400), "the first run")) {
            lock.ensureHeld();
            // another run took the output over (as after a long pause of this one)
            Files.write(out.resolve(OutputLock.NAME), Json.write(Map.of("owner", "intruder", "host", "elsewhere", "pid", 1,
                    "processStart", "", "started", "now", "run", "the second run")));
            long deadline = System.currentTimeMillis() + 5000;
            while (!lock.isLost() && System.currentTimeMillis() < deadline) Thread.sleep(20);
            OutputBusyException e = assertThrows(OutputBusyException.class, lock::ensureHeld);
            assertTrue(e.getMessage().contains("lost its claim") && e.getMessage().contains("the second run"), e.getMessage());
        }
        assertTrue(Files.exists(out.resolve(OutputLock.NAME)), "closing a lost claim must not delete the new owner's lock");
    }

    @Test
    void twoSparkRunsIntoOneOutput() throws Exception {
        Path out = TestScans.tmp("two-spark").resolve("rec");
        CompletableFuture<CliRun> first = CompletableFuture.supplyAsync(() -> cli("spark", "--input", scan(), "--output", out.toString(),
                "--center", "47.5", "--conf", "group.rows=4", "--conf", "job.test.taskDelayMs=1500"));
        awaitClaim(out, first);
        CliRun second = cli("spark", "--input", scan(), "--output", out.toString(), "--center", "40", "--conf", "group.rows=4",
                "--overwrite");
        assertEquals(3, second.code(), second.err());
        assertTrue(second.err().contains("in use by another run"), second.err());
        CliRun r = first.get(120, TimeUnit.SECONDS);
        assertEquals(0, r.code(), r.err());
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertEquals(47.5, ((Number) ((Map<?, ?>) Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest")
                .get("params")).get("center")).doubleValue());
    }

    @Test
    void twoDirectRunsIntoOneOutput() throws Exception {
        Path scan = TestScans.tmp("two-direct").resolve("big.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(192, 32, 360)).writeHdf5(scan);
        Path out = TestScans.tmp("two-direct").resolve("rec");
        CompletableFuture<CliRun> first = CompletableFuture.supplyAsync(() -> cli("direct", "--input", scan.toString(), "--output",
                out.toString(), "--center", "95.5", "--conf", "group.rows=2", "--conf", "backend.threads=1"));
        awaitClaim(out, first);
        CliRun second = cli("direct", "--input", scan.toString(), "--output", out.toString(), "--center", "90", "--overwrite");
        assertEquals(3, second.code(), second.err());
        CliRun r = first.get(300, TimeUnit.SECONDS);
        assertEquals(0, r.code(), r.err());
        // the output is the first run's alone: equal to the same run into a fresh output
        Path again = TestScans.tmp("two-direct").resolve("again");
        assertEquals(0, cli("direct", "--input", scan.toString(), "--output", again.toString(), "--center", "95.5").code());
        TestScans.assertBitIdentical(TestScans.readSlices(again.toString(), new Configuration()),
                TestScans.readSlices(out.toString(), new Configuration()));
    }

    /** Waits until a run has claimed the output (it then holds it until it ends). */
    static void awaitClaim(Path out, CompletableFuture<CliRun> run) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(out.resolve(OutputLock.NAME))) {
            if (run.isDone()) throw new AssertionError("the first run ended before it claimed the output: " + run.get().err());
            if (System.currentTimeMillis() > deadline) throw new AssertionError("the first run never claimed " + out);
            Thread.sleep(10);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void resumeWithoutARunSignatureIsRefused(String engine) throws Exception {
        Path out = TestScans.tmp("no-signature").resolve("rec");
        assertEquals(0, cli(engine, "--input", scan(), "--output", out.toString(), "--center", "47.5").code());
        Files.delete(out.resolve("_committed/_run.json"));
        Set<String> before = listing(out);
        CliRun r = cli(engine, "--input", scan(), "--output", out.toString(), "--center", "40", "--resume");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("_committed/_run.json is missing"), r.err());
        assertEquals(before, listing(out));
        // nothing proves the files there are a run's, so --overwrite does not remove them either
        CliRun o = cli(engine, "--input", scan(), "--output", out.toString(), "--center", "40", "--overwrite");
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains("_committed/_run.json is missing"), o.err());
        assertEquals(before, listing(out));
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void aRefusedResumeSaysWhatDiffers(String engine) throws Exception {
        Path out = TestScans.tmp("resume-diff").resolve("rec");
        assertEquals(0, cli(engine, "--input", scan(), "--output", out.toString(), "--center", "47.5").code());
        CliRun r = cli(engine, "--input", scan(), "--output", out.toString(), "--center", "45", "--resume");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("center: 47.5 -> 45.0"), r.err());
        assertFalse(r.err().contains("the input differs"), r.err());
        CliRun f = cli(engine, "--input", scan(), "--output", out.toString(), "--center", "47.5", "--resume", "--interpolation", "nearest");
        assertEquals(2, f.code(), f.err());
        assertTrue(f.err().contains("backendOptions.interpolation: linear -> nearest"), f.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void slicesPerPassDoesNotChangeTheBytesSoResumeAcceptsIt(String engine) throws Exception {
        Path out = TestScans.tmp("resume-k").resolve("rec");
        assertEquals(0, cli(engine, "--input", scan(), "--output", out.toString(), "--center", "47.5", "--slices-per-pass", "4").code());
        // lose two slices, as a killed run would
        for (int row : new int[]{3, 11}) {
            Files.delete(out.resolve(String.format("slice_%05d.tif", row)));
            Files.delete(out.resolve(String.format("_committed/slice_%05d.commit", row)));
        }
        for (String k : List.of("1", "16")) {
            CliRun r = cli(engine, "--input", scan(), "--output", out.toString(), "--center", "47.5", "--slices-per-pass", k, "--resume");
            assertEquals(0, r.code(), r.err());
        }
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        FloatTiff.Image img = FloatTiff.decode(Files.readAllBytes(out.resolve("slice_00003.tif")));
        assertEquals(96, img.width());
    }
}
