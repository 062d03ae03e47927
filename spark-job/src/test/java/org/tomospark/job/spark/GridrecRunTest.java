package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.job.cli.TomoCli;
import org.tomospark.job.fs.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * algorithm=gridrec through the product: the Spark engine's slices are the core library's bit for bit, ROI included,
 * and inside the field of view they are FBP's slices to within the method's difference (the same scale, a few per cent of
 * relative L2); a GPU
 * backend is refused naming the keys, backend auto becomes java.
 */
class GridrecRunTest {
    static final IterativeParams GRIDREC = new IterativeParams(Algorithm.GRIDREC, 0, 0, Double.NaN);

    static ReconstructionParams gridrec(ReconstructionParams.Builder b) {
        return b.iterative(GRIDREC).build();
    }

    @Test
    void sparkEqualsTheLibraryAndFbpWithinTheMethodsDifference() {
        ReconstructionParams p = gridrec(TestScans.params().toBuilder());
        Map<Integer, float[]> direct = TestScans.reconstructDirect(TestScans.hdf5(), p);
        Path out = TestScans.tmp("gridrec-spark").resolve("rec");
        SparkReconstruction.run(TestScans.spark(), TestScans.spec(TestScans.hdf5().toString(), out.toString()).withParams(p), null);
        TestScans.assertBitIdentical(direct, TestScans.readSlices(out.toString(), new Configuration()));

        Map<Integer, float[]> fbp = TestScans.reference();
        assertEquals(fbp.keySet(), direct.keySet());
        // inside the field of view: outside it FBP reads the detector as zero beyond its edges, gridrec as periodic
        int n = TestScans.SPEC.width();
        double c = (n - 1) / 2.0, r = n / 2.0 - 2;
        double num = 0, den = 0, sumG = 0, sumF = 0;
        for (int row : fbp.keySet()) {
            float[] f = fbp.get(row), g = direct.get(row);
            for (int i = 0; i < f.length; i++) {
                double y = i / n - c, x = i % n - c;
                if (x * x + y * y > r * r) continue;
                num += (g[i] - f[i]) * (double) (g[i] - f[i]);
                den += f[i] * (double) f[i];
                sumG += g[i];
                sumF += f[i];
            }
        }
        double rel = Math.sqrt(num / den), scale = sumG / sumF;
        assertTrue(rel < 0.15, "relative L2 between gridrec and fbp: " + rel);
        assertEquals(1.0, scale, 0.01, "gridrec's mean over fbp's");
    }

    /**
     * A ROI is reconstructed on a Fourier grid of its own (centred on it, sized for it), so its pixels are the whole
     * slice's to within the method's interpolation, not bit for bit.
     */
    @Test
    void anRoiHoldsTheWholeSlicesPixels() {
        ReconstructionParams whole = gridrec(TestScans.params().toBuilder());
        ReconstructionParams roi = gridrec(TestScans.params().toBuilder().roi(20, 30, 40, 24));
        Map<Integer, float[]> a = TestScans.reconstructDirect(TestScans.hdf5(), whole);
        Map<Integer, float[]> b = TestScans.reconstructDirect(TestScans.hdf5(), roi);
        int width = TestScans.SPEC.width();
        double worst = 0, peak = 0;
        for (int row : a.keySet()) {
            float[] full = a.get(row), cut = b.get(row);
            assertEquals(40 * 24, cut.length);
            for (int i = 0; i < 24; i++)
                for (int j = 0; j < 40; j++) {
                    float v = full[(30 + i) * width + 20 + j];
                    worst = Math.max(worst, Math.abs(v - cut[i * 40 + j]));
                    peak = Math.max(peak, Math.abs(v));
                }
        }
        assertTrue(worst < 0.01 * peak, "largest difference " + worst + " of a peak " + peak);
    }

    @Test
    void aGpuBackendIsRefusedAndAutoMeansJava() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> gridrec(ReconstructionParams.builder().backend("cuda")));
        assertTrue(e.getMessage().contains("algorithm=gridrec") && e.getMessage().contains("backend=cuda"), e.getMessage());
        assertEquals("java", gridrec(ReconstructionParams.builder().backend("auto")).algorithm().backend());
    }

    @Test
    void theReportNamesTheMethod() throws Exception {
        ReconstructionParams p = gridrec(TestScans.params().toBuilder());
        Path out = TestScans.tmp("gridrec-report").resolve("rec");
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(),
                TestScans.spec(TestScans.hdf5().toString(), out.toString()).withParams(p), null);
        assertTrue(r.summary().contains("gridrec"), r.summary());
        Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        assertEquals("gridrec", report.get("algorithm"));
        assertTrue(String.valueOf(report.get("gridrec")).startsWith("gridrec: Kaiser-Bessel"), String.valueOf(report.get("gridrec")));
    }

    @Test
    void autoTakesGridrecOnCpusWithinItsMeasuredRangeAndFbpElsewhere() {
        ReconstructionParams auto = ReconstructionParams.builder().backend("auto")
                .iterative(new IterativeParams(Algorithm.AUTO, 0, 0, Double.NaN)).build();
        assertEquals(Algorithm.GRIDREC, auto.resolveAlgorithm("java", 120, 96).algorithm().iterative().algorithm());
        assertEquals("java", auto.resolveAlgorithm("java", 120, 96).algorithm().backend());
        assertEquals(Algorithm.FBP, auto.resolveAlgorithm("cuda", 120, 96).algorithm().iterative().algorithm());
        assertEquals(Algorithm.FBP, auto.resolveAlgorithm("opencl", 120, 96).algorithm().iterative().algorithm());
        assertEquals(Algorithm.FBP, auto.resolveAlgorithm("java", ReconstructionParams.GRIDREC_AUTO_MIN_PROJECTIONS - 1, 96)
                .algorithm().iterative().algorithm());
        assertEquals(Algorithm.FBP, auto.resolveAlgorithm("java", 120, ReconstructionParams.GRIDREC_AUTO_MIN_COLUMNS - 1)
                .algorithm().iterative().algorithm());
        ReconstructionParams fbp = TestScans.params();
        assertEquals(fbp, fbp.resolveAlgorithm("java", 120, 96), "only auto is decided");
    }

    /** Both engines decide auto on the driver, give gridrec's slices on CPUs, and say so in the report and the summary. */
    @Test
    void autoThroughBothEnginesIsGridrecAndSaysSo() throws Exception {
        Map<Integer, float[]> expected = TestScans.reconstructDirect(TestScans.hdf5(), gridrec(TestScans.params().toBuilder()));
        for (String engine : new String[]{"spark", "direct"}) {
            Path out = TestScans.tmp("gridrec-auto-" + engine).resolve("rec");
            TestScans.spark();
            assertEquals(0, TomoCli.run("reconstruct", "--engine", engine, "--input", TestScans.hdf5().toString(), "--output",
                    out.toString(), "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--algorithm", "auto",
                    "--conf", "group.rows=8", "--conf", "job.progress=false"));
            TestScans.assertBitIdentical(expected, TestScans.readSlices(out.toString(), new Configuration()));
            Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
            assertEquals("gridrec", report.get("algorithm"), engine);
            String choice = String.valueOf(report.get("algorithmChoice"));
            assertTrue(choice.startsWith("auto: gridrec"), engine + ": " + choice);
        }
    }
}
