package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.executor.backends.opencl.ClRuntime;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.util.ImageErrors;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.Json;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Iterative reconstruction through both engines: the Spark engine in local mode (several tasks) writes the same slices,
 * bit for bit, as the direct engine (one conveyor, other groups); a resume completes a partial output with the same
 * bits; the report carries the residual of every iteration and convergence.png sits next to the preview.
 */
class IterativeSparkTest {

    static ReconstructionParams params(Algorithm a, int iterations, int subsets) {
        return TestScans.params().toBuilder().iterative(new IterativeParams(a, iterations, subsets, 0)).roi(10, 14, 60, 50).build();
    }

    static Map<Integer, float[]> direct(ReconstructionParams p, Path out) {
        new DirectEngine(HadoopConf.create(), new PrintStream(new ByteArrayOutputStream()))
                .run(new JobRequest(TestScans.hdf5().toString(), out.toString(), p, true, false, true, Settings.empty()));
        return TestScans.readSlices(out.toString(), new Configuration());
    }

    @Test
    @Timeout(300)
    void sparkTasksWriteTheDirectEnginesSlicesBitForBit() throws Exception {
        for (ReconstructionParams p : List.of(params(Algorithm.SIRT, 6, 1), params(Algorithm.MLTR, 3, 4))) {
            String what = p.algorithm().iterative().algorithm().id();
            Path d = TestScans.tmp("iter-direct-" + what).resolve("rec");
            Map<Integer, float[]> expected = direct(p, d);
            assertEquals(16, expected.size(), what);
            assertEquals(60 * 50, expected.get(3).length, what + ": the ROI is cut out");

            Path s = TestScans.tmp("iter-spark-" + what).resolve("rec");
            SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), s.toString())
                    .withParams(p.toBuilder().groupRows(4).build()).withPreview(true);
            SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), spec, null);
            assertEquals(4, r.groups().size(), what + ": four tasks");
            TestScans.assertBitIdentical(expected, TestScans.readSlices(s.toString(), new Configuration()));

            for (Path out : List.of(d, s)) {
                Map<String, Object> rep = Json.read(Files.readAllBytes(out.resolve("report.json")), "report");
                assertEquals(what, rep.get("algorithm"));
                Map<?, ?> it = (Map<?, ?>) rep.get("iterative");
                List<?> res = (List<?>) it.get("relativeResidual");
                assertEquals(p.algorithm().iterative().iterations(), res.size(), what + " residual per iteration: " + res);
                double first = ((Number) res.get(0)).doubleValue(), last = ((Number) res.get(res.size() - 1)).doubleValue();
                assertTrue(last < first && last > 0 && first < 1, what + ": the residual falls: " + res);
                BufferedImage plot = ImageIO.read(out.resolve("convergence.png").toFile());
                assertNotNull(plot, out + "/convergence.png");
                assertTrue(Files.exists(out.resolve("preview.png")));
            }
            Map<?, ?> dr = (Map<?, ?>) Json.read(Files.readAllBytes(d.resolve("report.json")), "report").get("iterative");
            Map<?, ?> sr = (Map<?, ?>) Json.read(Files.readAllBytes(s.resolve("report.json")), "report").get("iterative");
            List<?> a = (List<?>) dr.get("relativeResidual"), b = (List<?>) sr.get("relativeResidual");
            for (int i = 0; i < a.size(); i++)
                assertEquals(((Number) a.get(i)).doubleValue(), ((Number) b.get(i)).doubleValue(), 1e-9, what + " residual " + i);
        }
    }

    /**
     * OS-SART and TV with no iteration count: each slice stops by its own rule (the discrepancy for OS-SART, the image's
     * change for TV, from an FBP start), so the Spark engine's tasks of 4 rows write the direct engine's slices bit for
     * bit although its passes group other slices; the report says why the slices stopped.
     */
    @Test
    @Timeout(300)
    void automaticStopsGiveTheSameSlicesWhateverTheGrouping() throws Exception {
        for (Algorithm a : List.of(Algorithm.OS_SART, Algorithm.TV)) {
            ReconstructionParams p = TestScans.params().toBuilder().iterative(new IterativeParams(a, 0, 0, Double.NaN, null, 1.0, null,
                    a == Algorithm.TV)).build();
            String what = a.id();
            Path d = TestScans.tmp("iter-auto-direct-" + what).resolve("rec");
            Map<Integer, float[]> expected = direct(p, d);
            Path s = TestScans.tmp("iter-auto-spark-" + what).resolve("rec");
            SparkReconstruction.run(TestScans.spark(), TestScans.spec(TestScans.hdf5().toString(), s.toString())
                    .withParams(p.toBuilder().groupRows(4).build()), null);
            TestScans.assertBitIdentical(expected, TestScans.readSlices(s.toString(), new Configuration()));
            for (Path out : List.of(d, s)) {
                Map<?, ?> it = (Map<?, ?>) Json.read(Files.readAllBytes(out.resolve("report.json")), "report").get("iterative");
                assertEquals("automatic", it.get("iterations"), what);
                Map<?, ?> stopped = (Map<?, ?>) it.get("stopped");
                int slices = stopped.values().stream().mapToInt(v -> ((Number) v).intValue()).sum();
                assertEquals(16, slices, what + ": every slice says why it stopped: " + stopped);
                assertTrue(!stopped.containsKey("limit"), what + ": no slice ran into the limit: " + stopped);
                assertEquals(a == Algorithm.TV ? "change" : "discrepancy", it.get("stop"), what);
                assertEquals(a == Algorithm.TV ? "fbp" : "zero", it.get("start"), what);
            }
        }
    }

    @Test
    @Timeout(300)
    void theOpenClBackendIteratesOnItsDeviceAndAgreesWithJava() throws Exception {
        assumeTrue(ClRuntime.unavailableReason() == null, "no OpenCL here: " + ClRuntime.unavailableReason());
        ReconstructionParams java = params(Algorithm.MLTR, 4, 2);
        Map<Integer, float[]> expected = direct(java, TestScans.tmp("iter-java").resolve("rec"));
        ReconstructionParams cl = java.toBuilder().backend("opencl").build();
        Path d = TestScans.tmp("iter-cl-direct").resolve("rec");
        Map<Integer, float[]> got = direct(cl, d);
        for (int row : expected.keySet()) {
            double e = ImageErrors.relL2(got.get(row), expected.get(row));
            assertTrue(e < 1e-4, "slice " + row + ": opencl against java, relative L2 " + e);
        }
        Map<?, ?> backend = (Map<?, ?>) Json.read(Files.readAllBytes(d.resolve("report.json")), "report").get("backend");
        assertEquals("opencl", backend.get("id"));
        Path s = TestScans.tmp("iter-cl-spark").resolve("rec");
        SparkReconstruction.run(TestScans.spark(), TestScans.spec(TestScans.hdf5().toString(), s.toString())
                .withParams(cl.toBuilder().groupRows(8).build()), null);
        TestScans.assertBitIdentical(got, TestScans.readSlices(s.toString(), new Configuration()));
    }

    @Test
    @Timeout(300)
    void aResumeCompletesAPartialIterativeOutputWithTheSameBits() throws Exception {
        ReconstructionParams p = params(Algorithm.CGLS, 4, 1);
        Map<Integer, float[]> expected = direct(p, TestScans.tmp("iter-resume-ref").resolve("rec"));
        Path out = TestScans.tmp("iter-resume").resolve("rec");
        SparkReconstruction.run(TestScans.spark(), TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withParams(p.toBuilder().rows(4, 12).groupRows(4).build()), null);
        assertEquals(8, TestScans.readSlices(out.toString(), new Configuration()).size());
        Files.delete(out.resolve("_SUCCESS")); // unfinished, as a killed run leaves it: a finished one is never widened
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), TestScans.spec(TestScans.hdf5().toString(),
                out.toString()).withParams(p.toBuilder().groupRows(4).build()).withResume(true), null);
        assertEquals(8, r.slicesSkipped());
        assertEquals(8, r.slicesComputed());
        TestScans.assertBitIdentical(expected, TestScans.readSlices(out.toString(), new Configuration()));
    }
}
