package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.tomospark.job.JobKeys;
import org.tomospark.job.api.Reconstruction;

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
}
