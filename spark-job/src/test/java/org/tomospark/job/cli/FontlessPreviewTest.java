package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.sweeps.CenterSweep;
import org.tomospark.executor.preview.Annotated;
import org.tomospark.job.fs.Json;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pictures need no fonts. In a JVM that cannot load AWT's font library (as on a compute node without font
 * libraries, where AWT text fails with "libfontmanager.so: libharfbuzz.so.0: cannot open shared object file"), the
 * CLI writes preview.png and contact-sheet.png, labelled exactly as a JVM with fonts labels them, and warns of
 * nothing. The child JVM's libfontmanager.so fails to load because the dynamic linker finds a broken
 * libharfbuzz.so.0 first ({@code LD_LIBRARY_PATH}); {@link #awtTextFailsInSuchAJvm} shows that AWT text fails there.
 */
class FontlessPreviewTest {
    @TempDir
    Path tmp;

    record Child(int code, String output) {
    }

    /** Runs {@code mainClass} on the test classpath in a JVM where AWT's font library cannot load. */
    Child runWithoutFonts(String name, String mainClass, String... args) throws Exception {
        Path noFonts = Files.createDirectories(tmp.resolve("no-fonts"));
        Files.writeString(noFonts.resolve("libharfbuzz.so.0"), "not a shared object");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx1g", "--add-modules=jdk.incubator.vector", "-Djava.awt.headless=true",
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        Path log = tmp.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        String ld = pb.environment().get("LD_LIBRARY_PATH");
        pb.environment().put("LD_LIBRARY_PATH", noFonts + (ld == null || ld.isEmpty() ? "" : ":" + ld));
        Process p = pb.start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(name + " did not finish in 300 s: " + Files.readString(log));
        }
        return new Child(p.exitValue(), Files.readString(log));
    }

    static Map<String, Object> report(Path out) throws Exception {
        return Json.read(Files.readAllBytes(out.resolve("report.json")), out + "/report.json");
    }

    /** Pixels of {@code a} and {@code b} equal in the rectangle (x, y, w, h). */
    static void assertSameRegion(BufferedImage a, BufferedImage b, int x, int y, int w, int h, String what) {
        int lit = 0;
        for (int i = y; i < y + h; i++)
            for (int j = x; j < x + w; j++) {
                int va = a.getRaster().getSample(j, i, 0);
                assertEquals(va, b.getRaster().getSample(j, i, 0), what + " at (" + j + ", " + i + ")");
                if (va > 128) lit++;
            }
        assertTrue(lit > 20, what + ": " + lit + " lit pixels");
    }

    @Test
    void awtTextFailsInSuchAJvm() throws Exception {
        Child c = runWithoutFonts("awt-text", AwtTextProbe.class.getName());
        assertNotEquals(0, c.code(), c.output());
        assertTrue(c.output().contains("UnsatisfiedLinkError") && c.output().contains("libfontmanager.so")
                && c.output().contains("libharfbuzz.so.0"), "AWT text must fail as on a node without font libraries: " + c.output());
    }

    @Test
    void previewAndContactSheetAreDrawnWithoutFonts() throws Exception {
        String[] demo = {"--backend", "java", "--conf", "demo.width=96", "--conf", "demo.rows=8", "--conf", "demo.projections=90"};
        Path out = tmp.resolve("demo");
        List<String> args = new ArrayList<>(List.of("reconstruct", "demo", "--engine", "direct", "--output", out.toString()));
        args.addAll(List.of(demo));
        Child r = runWithoutFonts("demo", TomoCli.class.getName(), args.toArray(String[]::new));
        assertEquals(0, r.code(), r.output());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        Map<String, Object> rep = report(out);
        assertFalse(String.valueOf(rep.get("warnings")).contains("preview.png"), String.valueOf(rep.get("warnings")));
        BufferedImage preview = ImageIO.read(out.resolve("preview.png").toFile());
        assertNotNull(preview, "preview.png is a PNG");
        // the XY panel's label (slices 0..7: the middle one is 3), drawn here for comparison
        int width = ((Number) ((List<?>) ((Map<?, ?>) ((Map<?, ?>) rep.get("geometry")).get("slice")).get("roi")).get(2)).intValue();
        BufferedImage expected = Annotated.canvas(preview.getWidth(), preview.getHeight());
        Annotated.label(expected, 4, Annotated.LABEL_HEIGHT, width, "XY z=3");
        assertSameRegion(expected, preview, 4, Annotated.LABEL_HEIGHT, width, Annotated.LABEL_HEIGHT, "XY label");

        Path sweep = tmp.resolve("sweep");
        args = new ArrayList<>(List.of("reconstruct", "demo", "--output", sweep.toString(), "--center-sweep", "46:49:1.5"));
        args.addAll(List.of(demo));
        Child s = runWithoutFonts("sweep", TomoCli.class.getName(), args.toArray(String[]::new));
        assertEquals(0, s.code(), s.output());
        Map<String, Object> srep = report(sweep);
        assertEquals("contact-sheet.png", srep.get("contactSheet"));
        assertEquals(List.of(), srep.get("warnings"));
        BufferedImage sheet = ImageIO.read(sweep.resolve("contact-sheet.png").toFile());
        assertNotNull(sheet, "contact-sheet.png is a PNG");
        String[] labels = {"c=46.00", "c=47.50", "c=49.00"};
        BufferedImage tiles = Annotated.canvas(sheet.getWidth(), sheet.getHeight());
        for (int i = 0; i < labels.length; i++) {
            CenterSweep.Tile t = CenterSweep.tileOrigin(i, labels.length, width, width, 192);
            Annotated.label(tiles, t.x(), t.y() + t.height(), 96, labels[i]);
            assertSameRegion(tiles, sheet, t.x(), t.y() + t.height(), 96, Annotated.LABEL_HEIGHT, "label of tile " + i);
        }
    }
}
