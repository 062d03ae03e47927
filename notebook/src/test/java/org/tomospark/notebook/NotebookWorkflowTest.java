package org.tomospark.notebook;

import org.tomospark.job.spark.TestScans;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.sweeps.CenterSweep;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.preview.Annotated;
import org.tomospark.executor.inputs.DataExchangeWriter;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.cli.ReconstructCommand;
import org.tomospark.job.fs.Json;
import picocli.CommandLine;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scientist's workflow options through the notebook API and the Spark engine: centre auto on a phantom with a
 * known axis offset, the centre sweep, the three-view preview assembled on the driver from the tasks' rows and
 * columns, and the report (centre, method, backend, timings, clamped flat-field warning).
 */
class NotebookWorkflowTest {
    static final int W = 96, ROWS = 8, PROJ = 180;
    static final double OFFSET = 7.6, TRUE_CENTER = (W - 1) / 2.0 + OFFSET; // 55.1
    /** Flat-field pixels set to 0 (below the dark): {row, column}, away from the object. */
    static final int[][] DEAD = {{1, 3}, {4, 5}, {6, 90}};
    static Path scan;

    @BeforeAll
    static void writeScan() {
        DemoDataset d = new DemoDataset(DemoDataset.Spec.demo().withSize(W, ROWS, PROJ).withAxisOffset(OFFSET));
        DemoDataset.Counts c = d.counts();
        int[][][] white = c.white();
        for (int[][] frame : white) for (int[] p : DEAD) frame[p[0]][p[1]] = 0;
        scan = TestScans.tmp("nbscan").resolve("offset.h5");
        DataExchangeWriter.writeUint16(scan, c.data(), white, c.dark(), c.thetaDeg(), "phantom, axis offset 7.6");
    }

    static Reconstruction.Builder builder(Path out) {
        return Reconstruction.builder(TestScans.spark()).input(scan.toString()).output(out.toString()).backend("java")
                .filter("shepp-logan").groupRows(4);
    }

    @Test
    void centerAutoFindsTheAxisAndTheReportRecordsItWithWarnings() throws Exception {
        Path out = TestScans.tmp("nbauto").resolve("rec");
        Reconstruction.Builder b = builder(out).centerAuto("vo");
        double found = b.findCenter();
        System.out.printf("notebook: vo centre %.3f (true %.2f)%n", found, TRUE_CENTER);
        assertEquals(TRUE_CENTER, found, 0.5, "vo centre");
        double corr = builder(out).centerAuto("correlation").findCenter();
        System.out.printf("notebook: correlation centre %.3f (true %.2f)%n", corr, TRUE_CENTER);
        assertEquals(TRUE_CENTER, corr, 0.5, "correlation centre");
        assertTrue(!Files.exists(out), "findCenter wrote nothing");

        Reconstruction.Result r = b.run();
        assertEquals(ROWS, r.slicesComputed());
        Map<String, Object> rep = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        // the centre the job found (same search as findCenter) and how
        assertEquals(found, ((Number) rep.get("centerOfRotation")).doubleValue(), 1e-9);
        Map<?, ?> center = (Map<?, ?>) ((Map<?, ?>) rep.get("workflow")).get("center");
        assertEquals("auto", center.get("source"));
        assertEquals("vo", center.get("method"));
        assertEquals(found, ((Number) ((Map<?, ?>) rep.get("geometry")).get("center")).doubleValue(), 1e-9);
        // parameters as given, backend and device, timings and GU/s
        Map<?, ?> settings = (Map<?, ?>) rep.get("settings");
        assertEquals("auto", settings.get("center"));
        assertEquals("vo", settings.get("center.method"));
        assertEquals("spark", rep.get("engine"));
        Map<?, ?> backend = (Map<?, ?>) rep.get("backend");
        assertEquals("java", backend.get("id"));
        assertTrue(String.valueOf(backend.get("device")).length() > 0);
        Map<?, ?> t = (Map<?, ?>) rep.get("timings");
        for (String k : List.of("readSeconds", "preprocessSeconds", "filterSeconds", "backprojectSeconds", "wallSeconds", "jobSeconds",
                "jvmUptimeAtStartSeconds", "finishSeconds"))
            assertTrue(((Number) t.get(k)).doubleValue() >= 0, k);
        // the engine's wall time is its job and what lies outside it; the JVM was running before the engine started
        double wall = ((Number) t.get("wallSeconds")).doubleValue(), job = ((Number) t.get("jobSeconds")).doubleValue();
        assertEquals(wall - job, ((Number) t.get("outsideJobSeconds")).doubleValue(), 1e-9);
        assertTrue(((Number) t.get("jvmUptimeAtStartSeconds")).doubleValue() > 0);
        assertEquals(0, ((Number) t.get("slicesWrittenFromFrames")).intValue(), "the java backend's slices are arrays, encoded");
        long updates = ((Number) t.get("voxelUpdates")).longValue();
        assertEquals((long) W * W * PROJ * ROWS, updates, "one update per pixel, projection and slice");
        assertTrue(((Number) t.get("gups")).doubleValue() > 0);
        // 3 dead flat pixels, each clamped once per projection
        long clamped = (long) DEAD.length * PROJ;
        assertEquals(clamped, ((Number) ((Map<?, ?>) rep.get("preprocess")).get("clampedDenominators")).longValue());
        List<?> warnings = (List<?>) rep.get("warnings");
        String expected = clamped + " flat-field values (flat - dark <= floor) were clamped";
        assertTrue(warnings.contains(expected), String.valueOf(warnings));
        // and the printed summary says the same
        System.out.print(r.summary());
        assertTrue(r.summary().contains(String.format(Locale.ROOT, "centre %.2f px (auto, vo)", found)), r.summary());
        assertTrue(r.summary().contains("warning: " + expected), r.summary());
        assertTrue(r.summary().contains("GU/s") && r.summary().contains("backend java"), r.summary());

        checkPreview(out);
    }

    /**
     * preview.png: three panels (XY slice 3, XZ through image row 48, YZ through image column 48) at the layout
     * OrthoPreview documents; each panel's grey values follow the slices written to the output (read here from the
     * TIFFs, not from what the tasks sent), and the phantom is brighter than the air in each.
     */
    static void checkPreview(Path out) throws Exception {
        BufferedImage img = ImageIO.read(out.resolve("preview.png").toFile());
        Path keep = Files.createDirectories(Path.of("target", "previews")).resolve("spark-notebook-preview.png");
        Files.copy(out.resolve("preview.png"), keep, StandardCopyOption.REPLACE_EXISTING);
        float[][] s = new float[ROWS][];
        for (int z = 0; z < ROWS; z++) s[z] = FloatTiff.decode(Files.readAllBytes(out.resolve(String.format("slice_%05d.tif", z))))
                .pixels();
        float[] xy = s[(ROWS - 1) / 2], xz = new float[ROWS * W], yz = new float[ROWS * W];
        for (int z = 0; z < ROWS; z++)
            for (int i = 0; i < W; i++) {
                xz[z * W + i] = s[z][(W / 2) * W + i];
                yz[z * W + i] = s[z][i * W + W / 2];
            }
        int top = 2 * Annotated.LABEL_HEIGHT + 4, gap = 4;
        int zh = ROWS * (int) Math.ceil(48.0 / ROWS);
        assertTrue(img.getHeight() >= top + W && img.getWidth() >= 3 * W + 4 * gap, img.getWidth() + "x" + img.getHeight());
        double[] a = panel(img, gap, top, W, W, xy, W, W);
        double[] b = panel(img, 2 * gap + W, top, W, zh, xz, W, ROWS);
        double[] c = panel(img, 3 * gap + 2 * W, top, W, zh, yz, W, ROWS);
        System.out.printf("spark preview: rank correlation XY %.3f XZ %.3f YZ %.3f; phantom/air grey XY %.0f/%.0f XZ %.0f/%.0f YZ "
                + "%.0f/%.0f%n",
                a[0], b[0], c[0], a[1], a[2], b[1], b[2], c[1], c[2]);
        for (double[] p : new double[][]{a, b, c}) {
            assertTrue(p[0] > 0.9, "panel grey follows the slices: r=" + p[0]);
            assertTrue(p[1] > p[2] + 40 && p[1] > 3 * p[2], "phantom brighter than air: " + p[1] + " vs " + p[2]);
        }
        int lit = 0;
        for (int y = 0; y < Annotated.LABEL_HEIGHT; y++) for (int x = 0; x < img.getWidth(); x++)
                if (img.getRaster().getSample(x, y, 0) > 128) lit++;
        assertTrue(lit > 60, "grey range printed on top: " + lit + " lit pixels");
    }

    /**
     * Samples a panel at the centre of each source pixel: {Spearman rank correlation of grey vs value (the grey is
     * a clamped monotone map of the value), mean grey where the value is above a fifth of the 99th percentile
     * (phantom), mean grey where |value| is below a twentieth of it (air)}.
     */
    static double[] panel(BufferedImage img, int x0, int y0, int dw, int dh, float[] v, int w, int h) {
        float[] sorted = v.clone();
        Arrays.sort(sorted);
        float max = sorted[(int) (0.99 * (sorted.length - 1))]; // robust maximum
        double[] f = new double[w * h], g = new double[w * h];
        double ph = 0, air = 0;
        int nph = 0, nair = 0;
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++) {
                int px = x0 + (int) ((i + 0.5) * dw / w), py = y0 + (int) ((j + 0.5) * dh / h);
                int k = j * w + i;
                f[k] = v[k];
                g[k] = img.getRaster().getSample(px, py, 0);
                if (f[k] > 0.2 * max) { ph += g[k]; nph++; }
                if (Math.abs(f[k]) < 0.05 * max) { air += g[k]; nair++; }
            }
        assertTrue(nph > 10 && nair > 10, "phantom and air pixels in the panel: " + nph + ", " + nair);
        return new double[]{pearson(ranks(f), ranks(g)), ph / nph, air / nair};
    }

    static double[] ranks(double[] x) {
        Integer[] idx = new Integer[x.length];
        for (int i = 0; i < x.length; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> Double.compare(x[a], x[b]));
        double[] r = new double[x.length];
        for (int i = 0; i < x.length; ) {
            int j = i;
            while (j + 1 < x.length && x[idx[j + 1]] == x[idx[i]]) j++;
            for (int k = i; k <= j; k++) r[idx[k]] = (i + j) / 2.0; // ties share their mean rank
            i = j + 1;
        }
        return r;
    }

    static double pearson(double[] a, double[] b) {
        double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
        int n = a.length;
        for (int i = 0; i < n; i++) { sa += a[i]; sb += b[i]; saa += a[i] * a[i]; sbb += b[i] * b[i]; sab += a[i] * b[i]; }
        return (sab - sa * sb / n) / Math.sqrt((saa - sa * sa / n) * (sbb - sb * sb / n));
    }

    /** A resumed run: the preview's planes hold the reused slices too (read back by the driver), not black rows. */
    @Test
    void previewOfAResumedRunIncludesTheReusedSlices() throws Exception {
        Path out = TestScans.tmp("nbresume").resolve("rec");
        Reconstruction.Result first = builder(out).center(TRUE_CENTER).slices(0, 4).preview(false).run();
        assertEquals(4, first.slicesComputed());
        assertTrue(!Files.exists(out.resolve("preview.png")));
        // unfinished, as a cancelled run leaves it: a finished output is never widened by .resume()
        Files.delete(out.resolve("_SUCCESS"));
        Reconstruction.Result all = builder(out).center(TRUE_CENTER).resume().run();
        assertEquals(4, all.slicesComputed());
        assertEquals(4, all.slicesSkipped());
        checkPreview(out);
    }

    @Test
    void sweepWritesLabelledImagesAndContactSheet() throws Exception {
        Path out = TestScans.tmp("nbsweep").resolve("sweep");
        Reconstruction.Sweep sw = builder(out).centerSweep(53.1, 57.1, 1.0);
        assertEquals(List.of(53.1, 54.1, 55.1, 56.1, 57.1).size(), sw.centers().size());
        List<String> names = List.of("center_0053.10.tif", "center_0054.10.tif", "center_0055.10.tif", "center_0056.10.tif",
                "center_0057.10.tif");
        assertEquals(names, sw.images());
        assertEquals((ROWS - 1) / 2, sw.row());
        double[] neg = new double[names.size()];
        for (int i = 0; i < names.size(); i++) {
            FloatTiff.Image im = FloatTiff.decode(Files.readAllBytes(out.resolve(names.get(i))));
            assertEquals(W, im.width());
            // a wrong centre smears the object into negative streaks: the total negative mass grows with the error
            for (float v : im.pixels()) if (v < 0) neg[i] -= v;
        }
        System.out.printf("notebook sweep: negative mass per centre %s%n", Arrays.toString(neg));
        assertTrue(neg[2] < neg[0] && neg[2] < neg[4], "the true centre 55.1 gives the cleanest image: " + Arrays.toString(neg));
        try (var l = Files.list(out)) {
            assertEquals(names.size(), l.filter(p -> p.getFileName().toString().startsWith("center_")).count());
        }
        Map<String, Object> rep = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        assertEquals("center sweep", rep.get("mode"));
        assertEquals("contact-sheet.png", sw.contactSheet());
        BufferedImage sheet = ImageIO.read(out.resolve(sw.contactSheet()).toFile());
        Path previews = Files.createDirectories(Path.of("target", "previews"));
        Files.copy(out.resolve(sw.contactSheet()), previews.resolve("spark-notebook-sweep.png"), StandardCopyOption.REPLACE_EXISTING);
        for (int i = 0; i < names.size(); i++) {
            CenterSweep.Tile t = CenterSweep.tileOrigin(i, names.size(), W, W, 192);
            FloatTiff.Image im = FloatTiff.decode(Files.readAllBytes(out.resolve(names.get(i))));
            double[] p = panel(sheet, t.x(), t.y(), t.width(), t.height(), im.pixels(), W, W);
            assertTrue(p[0] > 0.9 && p[1] > p[2] + 40 && p[1] > 3 * p[2], "tile " + i + " shows its image: " + Arrays.toString(p));
            int lit = 0;
            for (int y = t.y() + t.height(); y < t.y() + t.height() + Annotated.LABEL_HEIGHT; y++)
                for (int x = t.x(); x < t.x() + 96; x++) if (sheet.getRaster().getSample(x, y, 0) > 128) lit++;
            assertTrue(lit > 30, "tile " + i + " labelled: " + lit);
        }
        // the same output again without overwrite is refused, naming it
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder(out).centerSweep(53, 57, 2));
        assertTrue(e.getMessage().contains(out.toString()), e.getMessage());
    }

    /** The notebook methods and the CLI options land on the same config keys and the same parameters. */
    @Test
    void notebookMethodsAndCliOptionsGiveTheSameParameters() throws Exception {
        ReconstructCommand cmd = new ReconstructCommand();
        new CommandLine(cmd).parseArgs("--input", "x.h5", "--output", "out", "--center", "auto", "--center-method", "correlation",
                "--stripe", "sorting", "--phase-energy", "30", "--phase-distance", "0.2", "--pixel-size", "2e-6",
                "--delta-beta", "200", "--half-acquisition", "--bin", "2,2,1", "--roi", "4,6,40,30", "--filter", "hann");
        var cli = cmd.settings();
        Reconstruction.Builder b = Reconstruction.builder(TestScans.spark()).input("x.h5").output("out").centerAuto("correlation")
                .stripe("sorting").paganin(30, 0.2, 2e-6, 200).halfAcquisition(true).binning(2, 2, 1).roi(4, 6, 40, 30)
                .filter("hann");
        assertEquals(new String(Json.write(Json.describe(CoreKeys.params(cli)))), new String(Json.write(Json.describe(b.params()))));
        var wf = b.params().workflow();
        assertEquals("correlation", wf.centerMethod().id());
        assertEquals(30, wf.paganin().energyKeV());
        assertEquals(2, wf.binRows());
        assertTrue(wf.halfAcquisition());
        assertEquals(40, b.params().volume().roi()[2]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.stripe("median"));
        assertTrue(e.getMessage().contains("stripe.method"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.binning(0, 1, 1));
        assertTrue(e.getMessage().contains("bin.columns"), e.getMessage());
    }
}
