package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A picture that cannot be made (here: every PNG encoding fails as in a JVM without font libraries) costs the run its
 * picture and nothing else: exit 0, every slice committed and bit-identical, manifest.json and _SUCCESS, and a
 * warning in report.json that names the file and the error. Both engines, and the centre sweep's contact sheet.
 */
class PreviewFailureTest {

    static CliRun withoutPng(String... args) {
        try (FailingPngWriter ignored = FailingPngWriter.install()) {
            return CliRun.of(args);
        }
    }

    static Map<String, Object> report(Path out) throws Exception {
        return Json.read(Files.readAllBytes(out.resolve("report.json")), out + "/report.json");
    }

    /** The report's warnings that name {@code file}. */
    static List<String> warningsAbout(Map<String, Object> report, String file) {
        List<String> w = new ArrayList<>();
        for (Object o : (List<?>) report.get("warnings")) if (String.valueOf(o).contains(file)) w.add(String.valueOf(o));
        return w;
    }

    /** The volume is complete without its preview, and the report says why the preview is missing. */
    static void assertCommittedWithoutPreview(CliRun r, Path out) throws Exception {
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.exists(out.resolve("_SUCCESS")), "no _SUCCESS");
        assertTrue(Files.isRegularFile(out.resolve("manifest.json")), "no manifest.json");
        assertFalse(Files.exists(out.resolve("preview.png")), "a preview that failed is not written");
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        Map<String, Object> rep = report(out);
        List<String> w = warningsAbout(rep, "preview.png");
        assertEquals(1, w.size(), "warnings " + rep.get("warnings"));
        assertTrue(w.get(0).contains("UnsatisfiedLinkError") && w.get(0).contains("libharfbuzz.so.0"), w.get(0));
        assertEquals(TestScans.reference().size(), ((Number) ((Map<?, ?>) rep.get("slices")).get("total")).intValue());
    }

    static String[] reconstruct(String engine, Path out, String... more) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", engine, "--input", TestScans.hdf5().toString(),
                "--output", out.toString(), "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--conf", "group.rows=8",
                "--conf", "job.progress=false"));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    @Test
    void directEngineFinishesWithoutItsPreview() throws Exception {
        Path out = TestScans.tmp("preview-fails-direct").resolve("rec");
        CliRun r = withoutPng(reconstruct("direct", out));
        assertCommittedWithoutPreview(r, out);
        assertTrue(r.err().contains("warning: preview.png was not written: java.lang.UnsatisfiedLinkError"), r.err());

        // once pictures can be made again, --resume adds the preview and reuses every slice
        CliRun again = CliRun.of(reconstruct("direct", out, "--resume"));
        assertEquals(0, again.code(), again.err());
        BufferedImage img = ImageIO.read(out.resolve("preview.png").toFile());
        assertNotNull(img, "preview.png is a PNG");
        Map<String, Object> rep = report(out);
        assertEquals(List.of(), warningsAbout(rep, "preview.png"));
        assertEquals(TestScans.reference().size(), ((Number) ((Map<?, ?>) rep.get("slices")).get("skipped")).intValue());
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
    }

    @Test
    void sparkEngineFinishesWithoutItsPreview() throws Exception {
        TestScans.spark();
        Path out = TestScans.tmp("preview-fails-spark").resolve("rec");
        assertCommittedWithoutPreview(withoutPng(reconstruct("spark", out)), out);
        assertEquals("spark", report(out).get("engine"));
    }

    @Test
    void centreSweepFinishesWithoutItsContactSheet() throws Exception {
        Path out = TestScans.tmp("sheet-fails").resolve("sweep");
        CliRun r = withoutPng("reconstruct", "--input", TestScans.hdf5().toString(), "--output", out.toString(), "--backend", "java",
                "--center-sweep", "45:50:2.5");
        assertEquals(0, r.code(), r.err());
        for (String f : List.of("center_0045.00.tif", "center_0047.50.tif", "center_0050.00.tif", "report.json", "_SUCCESS"))
            assertTrue(Files.exists(out.resolve(f)), f);
        assertFalse(Files.exists(out.resolve("contact-sheet.png")));
        Map<String, Object> rep = report(out);
        assertNull(rep.get("contactSheet"));
        assertEquals(3, ((List<?>) rep.get("images")).size());
        List<String> w = warningsAbout(rep, "contact-sheet.png");
        assertEquals(1, w.size(), "warnings " + rep.get("warnings"));
        assertTrue(w.get(0).contains("libharfbuzz.so.0"), w.get(0));
        assertTrue(r.err().contains("warning: contact-sheet.png was not written"), r.err());
    }
}
