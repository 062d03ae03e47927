package org.tomospark.notebook;

import org.tomospark.job.spark.TestScans;
import org.tomospark.job.spark.Hdf5OutputTest;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.testing.Checksums;
import org.apache.hadoop.conf.Configuration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.tomospark.job.JobKeys;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The notebook builder as a user meets it: a call never changes the builder it is made on, and the errors name the
 * builder's methods rather than the command line's flags. The report's typed getters read report.json's values.
 */
class NotebookApiTest {
    static Reconstruction.Builder builder() {
        return Reconstruction.builder(TestScans.spark()).input(TestScans.hdf5().toString()).backend("java")
                .filter("shepp-logan").center(47.5);
    }

    @Test
    void aCallReturnsANewBuilderAndLeavesItsOwnAsItWas() {
        Reconstruction.Builder b = builder();
        Reconstruction.Builder swept = b.output("sweep").overwrite().stripe("sorting");
        assertEquals("", b.settings().get(JobKeys.OUTPUT));
        assertFalse(b.settings().get(JobKeys.OVERWRITE));
        assertFalse(b.params().workflow().stripe().active());
        assertEquals("sweep", swept.settings().get(JobKeys.OUTPUT));
        assertTrue(swept.settings().get(JobKeys.OVERWRITE));
        assertTrue(swept.params().workflow().stripe().active());
    }

    @Test
    void errorsNameTheBuildersMethods() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder().run());
        assertEquals("output: no output given (.output(...))", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> builder().output("o").overwrite().resume().run());
        assertEquals(".overwrite() and .resume() cannot be used together", e.getMessage());

        Path out = TestScans.tmp("nbapi").resolve("rec");
        Reconstruction.Builder b = builder().output(out.toString());
        Reconstruction.Result r = b.run();
        e = assertThrows(IllegalArgumentException.class, b::run);
        assertTrue(e.getMessage().endsWith("output already holds a complete reconstruction (_SUCCESS present); use "
                + ".overwrite() to replace it"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.center(40).resume().run());
        assertTrue(e.getMessage().contains(".resume() refused: the output was made from another input or with other "
                + "parameters") && e.getMessage().endsWith("use .overwrite() to replace it"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.output(out.resolveSibling("sweep").toString())
                .centerSweep(46, 48, 1).report().text("centers"));
        assertTrue(e.getMessage().contains("'centers' is a "), e.getMessage());

        // typed values, as written to report.json
        assertEquals(47.5, r.centerOfRotation(), 0);
        assertEquals("java", r.report().text("backend.id"));
        assertEquals(16, r.report().number("slices.computed"), 0);
        assertEquals(16, ((Number) r.report().section("slices").get("total")).intValue());
        e = assertThrows(IllegalArgumentException.class, () -> r.report().number("timings.nothing"));
        assertTrue(e.getMessage().startsWith("report: no value at 'timings.nothing'"), e.getMessage());
    }

    @Test
    void aTvWeightSweepRunsFromTheBuilderAndRunRefusesItsKey() {
        Path out = TestScans.tmp("nbapi-tv").resolve("sweep");
        Reconstruction.Builder b = builder().output(out.toString()).iterations(20);
        Reconstruction.TvSweep s = b.tvWeightSweep(0.5, 2);
        assertEquals(List.of(0.5, 2.0), s.factors());
        assertEquals(s.rows().size() * 2, s.images().size());
        for (String f : s.images()) assertTrue(Files.isRegularFile(out.resolve(f)), f);
        assertEquals(s.weights().get(0) * 4, s.weights().get(1), 1e-9 * s.weights().get(1), "factor 2 is four times factor 0.5");
        assertEquals("tv-weight-sweep.png", s.grid());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.conf("iterative.tvWeightSweep", "1,2").run());
        assertTrue(e.getMessage().contains("run it with tvWeightSweep(...)"), e.getMessage());
    }

    @Test
    void notebookBuilderRunsOnTheSessionContext() throws Exception {
        Path out = TestScans.tmp("nb").resolve("rec");
        Reconstruction.Result r = Reconstruction.builder(TestScans.spark())
                .input(TestScans.hdf5().toString()).output(out.toString()).center(47.5).filter("shepp-logan").backend("java")
                .slices(4, 12).run();
        assertEquals(out.toString(), r.output());
        assertEquals(8, r.slicesComputed());
        Map<Integer, float[]> ref = new TreeMap<>(TestScans.reference());
        ref.keySet().removeIf(k -> k < 4 || k >= 12);
        TestScans.assertBitIdentical(ref, TestScans.readSlices(out.toString(), new Configuration()));
        assertEquals(8, ((Map<?, ?>) r.report().get("slices")).get("computed"));
        assertTrue(r.summary().contains("Reconstructed 8 slices"), r.summary());
        FloatTiff.Image img = FloatTiff.decode(Files.readAllBytes(out.resolve("slice_00004.tif")));
        assertEquals(96, img.width());
    }

    @Test
    void theNotebookApiFollowsTheFormat() throws Exception {
        Path base = TestScans.tmp("h5-notebook");
        Reconstruction.Builder b = builder().slices(3, 13);
        Reconstruction.Result tiff = b.output(base.resolve("tiff").toString()).run();
        Reconstruction.Result h5 = b.output(base.resolve("hdf5").toString()).outputFormat("hdf5").run();
        assertEquals(tiff.output(), tiff.volume());
        assertEquals(base.resolve("hdf5/volume.h5").toString(), h5.volume());
        assertEquals("hdf5", h5.report().text("outputFormat"));
        assertEquals(Checksums.crc32c(Files.readAllBytes(Path.of(h5.volume()))), h5.report().text("volumeFile.checksum"));
        assertEquals("/volume", h5.report().text("volumeFile.dataset"));
        Hdf5OutputTest.checkH5(base.resolve("tiff"), base.resolve("hdf5"));
    }
}
