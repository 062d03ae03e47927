package org.tomospark.job.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.preview.Annotated;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.sweeps.CenterSweep;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workflow on the command line: --center auto, the sweep, preview and report, stripe/binning/half acquisition options, units. */
class CliWorkflowTest {
    @TempDir
    static Path tmp;

    static Path tooth() {
        for (String p : new String[]{"../../shared/data/tooth.h5", "../shared/data/tooth.h5", "/work/shared/data/tooth.h5"})
            if (Files.isRegularFile(Path.of(p))) return Path.of(p).toAbsolutePath().normalize();
        throw new IllegalStateException("tooth.h5 not found in ../shared/data");
    }

    static CliRun cli(String... args) {
        return CliRun.of(args);
    }

    static JsonNode report(Path out) throws Exception {
        return new ObjectMapper().readTree(out.resolve("report.json").toFile());
    }

    static double[] stats(BufferedImage img, int x0, int y0, int w, int h) {
        double s = 0, ss = 0;
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++) {
                int g = img.getRaster().getSample(x, y, 0);
                s += g;
                ss += g * g;
            }
        double n = (double) w * h, mean = s / n;
        return new double[]{mean, Math.sqrt(Math.max(0, ss / n - mean * mean))};
    }

    static int lit(BufferedImage img, int x0, int y0, int w, int h) {
        int n = 0;
        for (int y = y0; y < y0 + h; y++) for (int x = x0; x < x0 + w; x++) if (img.getRaster().getSample(x, y, 0) > 128) n++;
        return n;
    }

    @Test
    void toothWithAutoCenterWritesReportAndPreview() throws Exception {
        Path out = tmp.resolve("tooth");
        CliRun r = cli("reconstruct", "--input", tooth().toString(), "--output", out.toString(), "--backend", "java",
                "--center", "auto", "--center-method", "correlation");
        assertEquals(0, r.code(), r.err());
        JsonNode rep = report(out);
        double c = rep.get("centerOfRotation").asDouble();
        assertEquals(296.0, c, 1.0, "centre found on the tooth");
        assertEquals("auto", rep.at("/workflow/center/source").asText());
        assertEquals("correlation", rep.at("/workflow/center/method").asText());
        assertEquals(c, rep.at("/geometry/center").asDouble(), 1e-9);
        assertTrue(rep.at("/timings/gups").asDouble() > 0);
        assertEquals("java", rep.at("/backend/id").asText());
        assertTrue(r.err().contains("(auto, correlation)"), r.err());
        // the preview: the tooth (bright) in the middle of the XY panel, dark air in the corner, text on top
        BufferedImage img = ImageIO.read(out.resolve("preview.png").toFile());
        Files.copy(out.resolve("preview.png"), Files.createDirectories(Path.of("target", "previews")).resolve("tooth-preview.png"),
                StandardCopyOption.REPLACE_EXISTING);
        int top = 2 * Annotated.LABEL_HEIGHT + 4;
        double[] centre = stats(img, 4 + 220, top + 220, 200, 200), corner = stats(img, 4 + 10, top + 10, 60, 60);
        System.out.printf("tooth: centre %.3f; preview centre grey %.1f±%.1f, corner %.1f±%.1f%n", c, centre[0], centre[1], corner[0],
                corner[1]);
        assertTrue(centre[0] > corner[0] + 40, "tooth vs air grey");
        assertTrue(lit(img, 0, 0, img.getWidth(), Annotated.LABEL_HEIGHT) > 60, "grey range text");
    }

    @Test
    void centerSweepWritesLabelledImagesAndContactSheet() throws Exception {
        Path out = tmp.resolve("sweep");
        CliRun r = cli("reconstruct", "--input", tooth().toString(), "--output", out.toString(), "--backend", "java",
                "--center-sweep", "290:302:3", "--conf", "slice.size=320");
        assertEquals(0, r.code(), r.err());
        String[] names = {"center_0290.00.tif", "center_0293.00.tif", "center_0296.00.tif", "center_0299.00.tif", "center_0302.00.tif"};
        double[] sd = new double[names.length];
        for (int i = 0; i < names.length; i++) {
            FloatTiff.Image im = FloatTiff.decode(Files.readAllBytes(out.resolve(names[i])));
            assertEquals(320, im.width());
            double s = 0, ss = 0;
            for (float v : im.pixels()) { s += v; ss += v * v; }
            sd[i] = Math.sqrt(ss / im.pixels().length - Math.pow(s / im.pixels().length, 2));
            assertTrue(sd[i] > 1e-4, names[i] + " is empty");
        }
        try (Stream<Path> s = Files.list(out).filter(p -> p.getFileName().toString().startsWith("center_"))) {
            assertEquals(5, s.count());
        }
        assertTrue(Files.isRegularFile(out.resolve("_SUCCESS")));
        {
        }
        JsonNode rep = report(out);
        assertEquals("center sweep", rep.get("mode").asText());
        assertEquals(5, rep.get("images").size());
        BufferedImage sheet = ImageIO.read(out.resolve("contact-sheet.png").toFile());
        Path previews = Files.createDirectories(Path.of("target", "previews"));
        Files.copy(out.resolve("contact-sheet.png"), previews.resolve("tooth-contact-sheet.png"), StandardCopyOption.REPLACE_EXISTING);
        for (int i = 0; i < names.length; i++) {
            CenterSweep.Tile t = CenterSweep.tileOrigin(i, names.length, 320, 320, 192);
            double[] st = stats(sheet, t.x(), t.y(), t.width(), t.height());
            assertTrue(st[1] > 20, "tile " + i + " has structure: sd " + st[1]);
            assertTrue(lit(sheet, t.x(), t.y() + t.height(), 96, Annotated.LABEL_HEIGHT) > 30, "tile " + i + " label");
        }
    }

    /** The unit of the values, in report.json and in every slice's ImageDescription; per metre with the pixel size. */
    @Test
    void outputRecordsTheUnitOfItsValues() throws Exception {
        Path scan = tmp.resolve("units.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(64, 4, 90).withNoise(false)).writeHdf5(scan);
        Path px = tmp.resolve("units-px"), m = tmp.resolve("units-m");
        CliRun a = cli("reconstruct", "--input", scan.toString(), "--output", px.toString(), "--backend", "java", "--bin", "2",
                "--stripe", "fw");
        assertEquals(0, a.code(), a.err());
        CliRun b = cli("reconstruct", "--input", scan.toString(), "--output", m.toString(), "--backend", "java", "--bin", "2",
                "--stripe", "fw", "--pixel-size", "2e-6", "--conf", "output.unit=metre");
        assertEquals(0, b.code(), b.err());
        JsonNode ra = report(px), rb = report(m);
        assertEquals("1/px", ra.at("/unit/symbol").asText());
        assertEquals("linear attenuation coefficient per original detector pixel", ra.at("/unit/meaning").asText());
        assertEquals(2, ra.at("/unit/voxelSizePx").asInt());
        assertEquals("1/m", rb.at("/unit/symbol").asText());
        assertEquals(4e-6, rb.at("/unit/voxelSizeM").asDouble(), 1e-18);
        assertEquals("fw (sigma 1, level 3, db5)", ra.at("/workflow/stripeRemoval").asText());
        assertTrue(a.err().contains("values in 1/px"), a.err());
        byte[] ta = Files.readAllBytes(px.resolve("slice_00000.tif")), tb = Files.readAllBytes(m.resolve("slice_00000.tif"));
        String da = FloatTiff.description(ta), db = FloatTiff.description(tb);
        assertTrue(da.startsWith("ImageJ=") && da.contains("\nvunit=1/px\n") && da.contains("tomospark.voxelSizePx=2\n"), da);
        assertTrue(db.contains("\nvunit=1/m\n") && db.contains("tomospark.voxelSizeM=4.0E-6\n"), db);
        float[] va = FloatTiff.decode(ta).pixels(), vb = FloatTiff.decode(tb).pixels();
        double max = 0;
        for (float v : va) max = Math.max(max, Math.abs(v));
        for (int i = 0; i < va.length; i++) assertEquals(va[i] / 2e-6, vb[i], 1e-4 * max / 2e-6, "pixel " + i);
    }

    @Test
    void stripeBinningAndHalfAcquisitionOptions() throws Exception {
        Path scan = tmp.resolve("half.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(96, 4, 360).withRange(360).withAxisOffset(-30)).writeHdf5(scan);
        Path out = tmp.resolve("half");
        CliRun r = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--backend", "java",
                "--half-acquisition", "--center", "auto", "--stripe", "offset", "--bin", "1,2");
        assertEquals(0, r.code(), r.err());
        JsonNode rep = report(out);
        assertEquals(47.5 - 30, rep.get("centerOfRotation").asDouble(), 0.5);
        int w = rep.at("/workflow/halfAcquisition/stitchedWidth").asInt();
        assertTrue(w > 150, "stitched width " + w);
        assertEquals(2, rep.at("/slices/total").asInt(), "4 rows binned by 2");
        assertEquals("offset (size 11)", rep.at("/workflow/stripeRemoval").asText());
        FloatTiff.Image im = FloatTiff.decode(Files.readAllBytes(out.resolve("slice_00001.tif")));
        assertEquals(w, im.width());
        assertTrue(r.err().contains("half acquisition"), r.err());

        CliRun bad = cli("reconstruct", "--input", scan.toString(), "--output", tmp.resolve("bad").toString(), "--phase-energy", "20");
        assertNotEquals(0, bad.code());
        assertTrue(bad.err().contains("phase.distance"), bad.err());
    }
}
