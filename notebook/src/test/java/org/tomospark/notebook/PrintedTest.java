package org.tomospark.notebook;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.JobKeys;
import org.tomospark.job.inputs.InputOptions;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The notebook API's values print in two lines, with what a user looks for first. */
class PrintedTest {
    static Report report(Map<String, Object> m) {
        return new Report(m);
    }

    @Test
    void aResultSaysWhatWasComputedWhereAndHowFast() {
        Report rep = report(Map.of("outputFormat", "zarr", "algorithm", "os-sart", "backend", Map.of("id", "cuda"),
                "centerOfRotation", 1023.5, "timings", Map.of("gups", 123.456, "wallSeconds", 9.87), "warnings", List.of("a", "b")));
        String s = new Reconstruction.Result("hdfs:///rec/a", rep, "the long summary", 250, 6).toString();
        assertEquals("Result: 250 slices computed, 6 reused, in hdfs:///rec/a (zarr)\n"
                + "  os-sart, cuda, centre 1023.50 px, 123 GU/s, 9.9 s, 2 warnings (.summary, .report)", s.replace("\r", ""));
    }

    @Test
    void aResultWithoutACentreOrTimingsLeavesThemOut() {
        Report rep = report(Map.of("outputFormat", "tiff", "algorithm", "fdk", "backend", Map.of("id", "java")));
        String s = new Reconstruction.Result("/r", rep, "", 64, 0).toString();
        assertTrue(s.endsWith("  fdk, java (.summary, .report)"), s);
    }

    @Test
    void sweepsNameTheirRangeAndTheirFirstAndLastImage() {
        Reconstruction.Sweep sw = new Reconstruction.Sweep("/s", 47, List.of(292.0, 292.5, 293.0),
                List.of("center_0292.00.tif", "center_0292.50.tif", "center_0293.00.tif"), null, report(Map.of()));
        assertEquals("Sweep: row 47, 3 centres 292 .. 293 px, into /s: no contact sheet (see .report) (.images, .centers)",
                sw.toString());
        Reconstruction.TvSweep tv = new Reconstruction.TvSweep("/t", List.of(2, 4), List.of(0.5, 2.0),
                List.of("tv_r00002_x0000.500.tif", "tv_r00004_x0002.000.tif"), List.of(0.00125, 0.005), "tv-weight-sweep.png",
                report(Map.of()));
        assertEquals("TvSweep: rows [2, 4], weight factors 0.5 .. 2 (weights 0.00125 .. 0.005), into /t\n"
                + "  tv_r00002_x0000.500.tif .. tv_r00004_x0002.000.tif, tv-weight-sweep.png (.images, .weights, .report)",
                tv.toString().replace("\r", ""));
    }

    @Test
    void aBuilderPrintsTheKeysSetInTheOrderSet() {
        JobKeys.INPUT.name(); // registers the job's keys
        Settings s = Settings.empty().with("input", "/scan.h5").with("center", "296").with("filter", "hann");
        assertEquals("Reconstruction.Builder(input=/scan.h5, center=296, filter=hann)", Printed.builder(s, null));
        InputOptions tiff = InputOptions.tiff("proj_*.tif", null, null, null);
        assertTrue(Printed.builder(s, tiff).endsWith(", input options for tiff"), Printed.builder(s, tiff));
    }

    @Test
    void aReportListsItsKeysNotItsValues() {
        Report rep = report(Map.of("output", "/r", "timings", Map.of("gups", 1.0)));
        String s = rep.toString();
        assertTrue(s.startsWith("Report of /r: ") && s.contains("timings") && !s.contains("gups=1.0"), s);
        assertEquals(2, s.lines().count(), s);
    }
}
