package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.cli.ConfigDocsCommand;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a batch's inputs become scans and output names, and how its per-scan table is read and checked. */
class ScanInputsAndTableTest {
    static {
        ConfigDocsCommand.registerAll();
    }

    private static Path tmp() throws IOException {
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(base);
        return Files.createTempDirectory(base, "batch-inputs");
    }

    private static List<String> names(List<ScanInput> scans) {
        List<String> l = new ArrayList<>();
        for (ScanInput s : scans) l.add(s.name());
        return l;
    }

    @Test
    void foldersGlobsAndListsGiveScansNamedByTheirFiles() throws IOException {
        Path d = tmp();
        Path day1 = Files.createDirectories(d.resolve("2026-01-02"));
        Path day2 = Files.createDirectories(d.resolve("2026-01-03"));
        for (String f : List.of("scan_b.h5", "scan_a.hdf5", "notes.txt", ".hidden.h5", "_partial.h5"))
            Files.writeString(day1.resolve(f), "x");
        Files.writeString(day2.resolve("scan_c.h5"), "x");
        Files.writeString(day2.resolve("other_d.nxs"), "x");
        List<String> warnings = new ArrayList<>();
        ScanInputs in = new ScanInputs(new Configuration(), "h5,hdf5,hdf,nxs", warnings::add);
        assertEquals(List.of("scan_a", "scan_b"), names(in.expand(List.of(day1.toString()))),
                "a folder: its scan files, by name");
        assertEquals(List.of("scan_b", "scan_c"), names(in.expand(List.of(d + "/2026-*/scan_*.h5"))),
                "a glob over folders");
        Path list = d.resolve("list.txt");
        Files.writeString(list, "# tonight\n" + day2.resolve("other_d.nxs") + "\n\n" + day1.resolve("scan_b.h5")
                + "\n");
        List<ScanInput> fromList = in.expand(List.of("@" + list, day1.resolve("scan_b.h5").toString()));
        assertEquals(List.of("other_d", "scan_b"), names(fromList), "a list, and a scan named twice taken once");
        assertEquals(day2.resolve("other_d.nxs").toString(), fromList.get(0).uri());
        assertEquals(List.of("scan_a", "scan_b"), names(new ScanInputs(new Configuration(), "h5, hdf5", w -> { })
                .expand(ScanInputs.split(day1 + ";" + d + "/none-*.h5"))));

        assertTrue(warnings.isEmpty(), warnings.toString());
        in.expand(List.of(d + "/none-*.h5", day1.toString()));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("none-*.h5"), warnings.toString());
    }

    @Test
    void namesOfEveryKindListsAndTheOutputRoot() throws IOException {
        Path d = tmp();
        Path in = Files.createDirectories(d.resolve("in"));
        List<String> odd = List.of("a:b.h5", "c d%20e.h5", "f\ng.h5", "é[1].h5", "@at.h5");
        for (String f : odd) Files.writeString(in.resolve(f), "x");
        Path root = Files.createDirectories(in.resolve("rec"));
        Files.writeString(root.resolve("old.h5"), "x"); // a file under the output root, matched by the glob below
        List<String> warnings = new ArrayList<>();
        ScanInputs inputs = new ScanInputs(new Configuration(), "h5", warnings::add, root.toString());
        List<String> all = List.of("@at", "a:b", "c d%20e", "f\ng", "é[1]");
        assertEquals(all, names(inputs.expand(List.of(in.toString()))), "a folder lists names of every kind");
        assertEquals(all, names(inputs.expand(List.of(in + "/*.h5"))), "a glob matches them");
        assertEquals(List.of(), warnings);
        assertEquals(all, names(inputs.expand(List.of(in + "/*/*.h5", in + "/*.h5"))), "nothing under the root is a scan");
        assertTrue(warnings.size() == 1 && warnings.get(0).contains("old.h5") && warnings.get(0).contains("output root"),
                warnings.toString());
        // a path that exists as written is that file, whatever its characters
        for (String f : odd)
            assertEquals(List.of(ScanInput.outputName(f)), names(inputs.expand(List.of(in.resolve(f).toString()))), f);
        // a list file: one path per line, taken whole; a line that looks like an option is a path too
        Path list = d.resolve("list.txt");
        Files.writeString(list, "# scans\n\n" + in.resolve("c d%20e.h5") + "\n  # indented comment\n--output-root=/x\n");
        List<ScanInput> fromList = inputs.expand(List.of("@" + list, in.resolve("a:b.h5").toString()));
        assertEquals(List.of("c d%20e", "x", "a:b"), names(fromList));
        assertEquals(in.resolve("c d%20e.h5").toString(), fromList.get(0).uri());
        // the key keeps every character through its JSON form; a config file's short form splits on ';'
        List<String> args = List.of("a;b", "c\nd", " e ");
        assertEquals(args, ScanInputs.split(ScanInputs.join(args)));
        assertEquals(List.of("/a", "/b"), ScanInputs.split("/a; /b"));
        // only scans under the root: the message says why there are none
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> inputs.expand(List.of(root.toString())));
        assertTrue(e.getMessage().contains("under the output root"), e.getMessage());
    }

    @Test
    void inputsThatCannotRunAreRefusedNamingThem() throws IOException {
        Path d = tmp();
        Files.createDirectories(d.resolve("x"));
        Files.createDirectories(d.resolve("y"));
        Files.writeString(d.resolve("x/scan.h5"), "x");
        Files.writeString(d.resolve("y/scan.h5"), "x");
        ScanInputs in = new ScanInputs(new Configuration(), "h5", w -> { });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> in.expand(List.of(d + "/*/scan.h5")));
        assertTrue(e.getMessage().contains(d.resolve("x/scan.h5").toString())
                && e.getMessage().contains(d.resolve("y/scan.h5").toString()) && e.getMessage().contains("'scan'"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> in.expand(List.of(d.resolve("missing.h5").toString())));
        assertTrue(e.getMessage().contains("missing.h5") && e.getMessage().contains("not found"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> in.expand(List.of("@" + d.resolve("nolist.txt"))));
        assertTrue(e.getMessage().contains("nolist.txt"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> in.expand(List.of(d + "/*.nothing")));
        assertTrue(e.getMessage().contains("no scans found"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ScanInput.of("/data/_lock.h5", "_lock.h5"));
        assertTrue(e.getMessage().contains("_lock"), e.getMessage());
    }

    private static ScanInput scan(String file) {
        return ScanInput.of("/data/" + file, file);
    }

    @Test
    void tomopyRotationAxisJsonGivesCentres() {
        ScanTable t = ScanTable.json("rotation_axis.json", Map.of("0", Map.of("proj_0000.hdf", 1287.25),
                "1", Map.of("proj_0001.hdf", 1297.75)));
        Settings s = t.apply(Settings.empty(), scan("proj_0001.hdf"));
        assertEquals(1297.75, s.get(CoreKeys.CENTER));
        assertEquals(Map.of(), t.overrides(scan("proj_0002.hdf")));
        assertEquals(List.of("proj_0000.hdf"), t.unmatched(List.of(scan("proj_0001.hdf"))));
    }

    @Test
    void jsonRowsSetAnyScanKeyAndFindCentersCommentaryIsNoSetting() {
        ScanTable t = ScanTable.json("t.json", Map.of(
                "a.h5", Map.of("center", 100.5, "filter", "hann", "scores", Map.of("vo", 1)),
                "/data/b.h5", 90,
                "c.h5", Map.of("error", "no light")));
        Settings a = t.apply(Settings.empty().with("filter", "ramlak"), scan("a.h5"));
        assertEquals(100.5, a.get(CoreKeys.CENTER));
        assertEquals("hann", a.asMap().get("filter"), "the table overrides the batch");
        assertEquals(90.0, t.apply(Settings.empty(), scan("b.h5")).get(CoreKeys.CENTER), "by full path");
        assertEquals(Map.of(), t.overrides(scan("c.h5")), "a scan find-centers could not do keeps the batch's centre");
    }

    @Test
    void csvTable() {
        ScanTable t = ScanTable.csv("t.csv", new StringReader("""
                file,center,bin.columns,slice.roi
                # comment
                a.h5,100.5,,"2,3,40,40"
                b.h5,,2,
                """));
        assertEquals(Map.of("center", "100.5", "slice.roi", "2,3,40,40"), t.overrides(scan("a.h5")));
        assertEquals(Map.of("bin.columns", "2"), t.overrides(scan("b.h5")));
    }

    @Test
    void badTablesAreRefusedNamingTableFileAndKey() {
        String m = csvError("file,centre\na.h5,3\n");
        assertTrue(m.contains("t.csv") && m.contains("a.h5") && m.contains("'centre'"), m);
        m = csvError("file,center\na.h5,NaN\n");
        assertTrue(m.contains("t.csv") && m.contains("center") && m.contains("NaN"), m);
        m = csvError("name,center\na.h5,3\n");
        assertTrue(m.contains("'file'"), m);
        m = csvError("file,center\na.h5,3,4\n");
        assertTrue(m.contains("line"), m);
        m = csvError("file,center\na.h5,3\na.h5,4\n");
        assertTrue(m.contains("twice"), m);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ScanTable.json("t.json", Map.of("a.h5", Map.of("output", "/x"))));
        assertTrue(e.getMessage().contains("output") && e.getMessage().contains("batch"), e.getMessage());
    }

    private static String csvError(String table) {
        return assertThrows(IllegalArgumentException.class, () -> ScanTable.csv("t.csv", new StringReader(table)))
                .getMessage();
    }

    @Test
    void sparkSubmitArgumentsAreTheBatchKeys() {
        Settings s = BatchMain.settings(new String[]{"batch.inputs=/a;/b/*.h5", "batch.outputRoot=/rec", "center=auto",
            "batch.scansInFlight=4"});
        assertEquals(List.of("/a", "/b/*.h5"), ScanInputs.split(s.get(BatchKeys.INPUTS)));
        assertEquals(4, s.get(BatchKeys.SCANS_IN_FLIGHT));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchMain.settings(new String[]{"batch.outputroot=/rec"}));
        assertTrue(e.getMessage().contains("batch.outputroot"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BatchMain.settings(new String[]{"batch.scansInFlight=0"})
                .get(BatchKeys.SCANS_IN_FLIGHT));
        assertTrue(e.getMessage().contains("batch.scansInFlight"), e.getMessage());
    }

    @Test
    void versionsOrderNumericallyWithPreReleasesBelow() {
        assertTrue(VersionOrder.compare("0.1.0-SNAPSHOT", "0.2.0") < 0);
        assertTrue(VersionOrder.compare("0.10.0", "0.9.1") > 0);
        assertTrue(VersionOrder.compare("0.2.0-SNAPSHOT", "0.2.0") < 0);
        assertEquals(0, VersionOrder.compare("1.2", "1.2.0"));
    }
}
