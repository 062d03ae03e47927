package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.cone.ConeDemoDataset;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.cli.TomoCli;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputLock;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run killed with SIGKILL half-way (a separate JVM, so nothing of it can clean up) leaves whole slices and its claim
 * on the output; {@code --resume} takes the claim over at once (its process is gone from this host), computes only
 * the missing slices and ends bit-identical to an uninterrupted run: for filtered back-projection, for an iterative
 * method (MLTR with ordered subsets, on the counts; OS-SART stopping by itself) and for cone-beam FDK (z-slabs).
 */
class KillResumeTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fbp", "mltr", "os-sart", "cone"})
    void killedRunResumesBitIdentical(String algorithm) throws Exception {
        Path dir = TestScans.tmp("kill-resume-" + algorithm);
        Path scan = dir.resolve("scan.h5");
        boolean cone = algorithm.equals("cone");
        // cone: FDK into 191 x 191 x 128 voxels from 180 projections, z-slabs of 2 slices; the iterative methods, whose
        // slices cost most, on 16 rows from 180 angles (what is tested is the kill and the resume, not the image)
        boolean iterative = algorithm.equals("mltr") || algorithm.equals("os-sart");
        if (cone) new ConeDemoDataset(192, 128, 180, false, 200, 400, 0.4, false, true, 3).writeHdf5(scan);
        else new DemoDataset(DemoDataset.Spec.demo().withSize(192, iterative ? 16 : 32, iterative ? 180 : 360)).writeHdf5(scan);
        int total = cone ? 128 : iterative ? 16 : 32;
        Path out = dir.resolve("rec");
        List<String> argList = new ArrayList<>(List.of("reconstruct", "--engine", "direct", "--backend", "java", "--input",
                scan.toString(), "--output", out.toString(), "--conf", "group.rows=2", "--conf", "backend.threads=1"));
        if (!cone) argList.addAll(List.of("--center", "95.5"));
        if (algorithm.equals("mltr")) argList.addAll(List.of("--algorithm", algorithm, "--iterations", "4", "--subsets", "4"));
        // OS-SART stopping by itself: each slice stops on its own change, and a resumed run's slices are those of a whole one
        if (algorithm.equals("os-sart"))
            argList.addAll(List.of("--algorithm", algorithm, "--stop", "change", "--tolerance", "0.05", "--iterations", "8"));
        String[] args = argList.toArray(new String[0]);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--add-modules=jdk.incubator.vector", "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"), TomoCli.class.getName());
        pb.command().addAll(List.of(args));
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("killed.log").toFile());
        Process p = pb.start();
        try {
            long deadline = System.currentTimeMillis() + 120_000;
            while (TestScans.sliceFiles(out).size() < 6) {
                assertTrue(p.isAlive(), "the run ended before it could be killed: " + Files.readString(dir.resolve("killed.log")));
                assertTrue(System.currentTimeMillis() < deadline, "no slices after 120 s");
                Thread.sleep(20);
            }
            p.destroyForcibly(); // SIGKILL
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
        int kept = TestScans.sliceFiles(out).size();
        assertTrue(kept < total && !Files.exists(out.resolve("_SUCCESS")), "killed after " + kept + " slices");
        assertTrue(Files.exists(out.resolve(OutputLock.NAME)), "the killed run's claim is still there");

        String[] resume = new String[args.length + 1];
        System.arraycopy(args, 0, resume, 0, args.length);
        resume[args.length] = "--resume";
        CliRun r = CliRun.of(resume);
        assertEquals(0, r.code(), r.err());
        assertFalse(Files.exists(out.resolve(OutputLock.NAME)));
        Map<?, ?> slices = (Map<?, ?>) Json.read(Files.readAllBytes(out.resolve("report.json")), "report").get("slices");
        int skipped = ((Number) slices.get("skipped")).intValue();
        // a slice renamed into place whose marker the kill prevented is recomputed (one per node writer at most: the
        // killed run's writers were its machine's cores); every other one is reused
        int writers = Runtime.getRuntime().availableProcessors();
        assertTrue(skipped >= kept - writers && skipped <= kept, skipped + " slices reused of " + kept + " kept, "
                + writers + " writers");

        Path whole = dir.resolve("whole");
        args[8] = whole.toString();
        assertEquals(0, CliRun.of(args).code());
        TestScans.assertBitIdentical(TestScans.readSlices(whole.toString(), new Configuration()),
                TestScans.readSlices(out.toString(), new Configuration()));
        assertTrue(new File(out.toFile(), "_SUCCESS").exists());
    }
}
