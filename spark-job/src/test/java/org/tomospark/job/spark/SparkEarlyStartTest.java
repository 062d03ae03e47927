package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.job.cli.TomoCli;
import org.tomospark.job.fs.Json;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The command line's Spark engine as a user runs it, in a JVM of its own: Spark starts while the command line is parsed and
 * the input is opened. The slices are still the library's, bit for bit; a run refused before its job (a missing input) or
 * a Spark that cannot start ends the process with the error, without waiting on a context nobody stops.
 */
class SparkEarlyStartTest {
    record Child(int code, String output) {
    }

    static Child cli(Path dir, List<String> jvm, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx1g", "--add-modules=jdk.incubator.vector", "-Djava.io.tmpdir=" + dir));
        // the module openings Spark needs on this Java, as this JVM was given them
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments())
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports") || a.startsWith("-Dio.netty")) cmd.add(a);
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), TomoCli.class.getName()));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "cli", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the command did not end in 240 s: " + Files.readString(log));
        }
        return new Child(p.exitValue(), Files.readString(log));
    }

    @Test
    void theSlicesAreTheLibrarysAndTheRunsMeasureTheirStart() throws Exception {
        Path dir = TestScans.tmp("early-start");
        Path out = dir.resolve("rec");
        Child c = cli(dir, List.of(), "reconstruct", "--engine", "spark", "--input", TestScans.hdf5().toString(), "--output",
                out.toString(), "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--conf", "group.rows=8",
                "--conf", "job.progress=false");
        assertEquals(0, c.code(), c.output());
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertTrue(Files.exists(out.resolve("preview.png")));
        Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        assertEquals("spark", report.get("engine"), "the run's report: " + report.keySet());
        // the preview from the tasks' profiles and the middle slice they sent back is the direct engine's, byte for byte
        Path direct = dir.resolve("direct");
        assertEquals(0, TomoCli.run("reconstruct", "--engine", "direct", "--input", TestScans.hdf5().toString(), "--output",
                direct.toString(), "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--conf", "group.rows=8",
                "--conf", "job.progress=false"));
        assertArrayEquals(Files.readAllBytes(direct.resolve("preview.png")), Files.readAllBytes(out.resolve("preview.png")));
    }

    @Test
    void aRunRefusedBeforeItsJobEndsWithItsError() throws Exception {
        Path dir = TestScans.tmp("early-start-refused");
        Path out = dir.resolve("rec");
        Child c = cli(dir, List.of(), "reconstruct", "--engine", "spark", "--input", dir.resolve("missing.h5").toString(),
                "--output", out.toString(), "--center", "47.5", "--backend", "java");
        assertEquals(2, c.code(), c.output());
        assertTrue(c.output().contains("missing.h5"), c.output());
        assertFalse(Files.exists(out), "a refused run made its output");
    }

    @Test
    void aSparkThatCannotStartIsReported() throws Exception {
        Path dir = TestScans.tmp("early-start-bad-master");
        Path out = dir.resolve("rec");
        Child c = cli(dir, List.of("-Dspark.master=nowhere://cluster"), "reconstruct", "--engine", "spark", "--input",
                TestScans.hdf5().toString(), "--output", out.toString(), "--center", "47.5", "--backend", "java");
        assertNotEquals(0, c.code(), c.output());
        assertTrue(c.output().contains("nowhere://cluster"), c.output());
        assertFalse(Files.exists(out.resolve("_SUCCESS")));
    }
}
