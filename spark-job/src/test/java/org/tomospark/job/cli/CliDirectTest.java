package org.tomospark.job.cli;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.executor.testing.Checksums;
import org.tomospark.executor.testing.FileSnapshot;
import org.tomospark.job.fs.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line, direct engine: outputs equal the library's, and bad input fails before any slice is written. */
class CliDirectTest {
    @TempDir
    static Path tmp;
    static Path scan;

    @BeforeAll
    static void writeScan() {
        scan = tmp.resolve("scan.h5");
        new DemoDataset(DemoDataset.Spec.demo().withSize(64, 6, 90)).writeHdf5(scan);
    }

    static CliRun cli(String... args) {
        return CliRun.of(args);
    }

    static long sliceCount(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) return 0;
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("slice_\\d+\\.tif")).count();
        }
    }

    @Test
    void slicesEqualTheLibraryRunAndGroupingDoesNotMatter() throws Exception {
        Path out = tmp.resolve("out-whole");
        CliRun r = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--backend", "java", "--filter",
                "shepp-logan");
        assertEquals(0, r.code(), r.err());
        assertEquals(6, sliceCount(out));
        assertTrue(Files.isRegularFile(out.resolve("_SUCCESS")));
        assertTrue(Files.size(out.resolve("preview.png")) > 1000);
        assertTrue(Files.readString(out.resolve("report.json")).contains("\"gups\""));
        assertFalse(Files.exists(out.resolve("_temporary")));
        try (Stream<Path> s = Files.list(out)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".crc")), "no checksum side files");
        }
        // the same reconstruction through the library
        Map<Integer, float[]> lib = new HashMap<>();
        ReconstructionParams p = ReconstructionParams.builder().backend("java")
                .filter(FilterSpec.of(FilterWindow.SHEPP_LOGAN)).build();
        try (DataExchangeSource src = DataExchangeSource.open(scan)) {
            VolumeReconstructor.run(src, p, (row, px, w, h) -> lib.put(row, px.toArray()), null, null);
        }
        // and with groups of 2 rows instead of one group
        Path out2 = tmp.resolve("out-groups");
        assertEquals(0, cli("reconstruct", "--input", scan.toString(), "--output", out2.toString(), "--backend", "java",
                "--filter", "shepp-logan", "--conf", "group.rows=2", "--slices-per-pass", "2").code());
        for (int row = 0; row < 6; row++) {
            String name = String.format("slice_%05d.tif", row);
            FloatTiff.Image a = FloatTiff.decode(Files.readAllBytes(out.resolve(name)));
            FloatTiff.Image b = FloatTiff.decode(Files.readAllBytes(out2.resolve(name)));
            assertEquals(64, a.width());
            assertArrayEquals(lib.get(row), a.pixels(), "row " + row + " vs library");
            assertArrayEquals(a.pixels(), b.pixels(), "row " + row + " grouped differently");
        }
    }

    @Test
    void slicesRangeAndResume() throws Exception {
        Path out = tmp.resolve("out-range");
        assertEquals(0, cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "2:4").code());
        assertEquals(2, sliceCount(out));
        assertTrue(Files.exists(out.resolve("slice_00002.tif")) && Files.exists(out.resolve("slice_00003.tif")));
        CliRun again = cli("reconstruct", "--input", scan.toString(), "--output", out.toString());
        assertEquals(2, again.code());
        assertTrue(again.err().contains("already holds a complete reconstruction") && again.err().contains("--overwrite"), again.err());
        // other parameters: resuming would mix two reconstructions, so it is refused
        CliRun other = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--resume", "--center", "30");
        assertEquals(2, other.code());
        assertTrue(other.err().contains("--resume refused"), other.err());
        // a finished output is not widened by --resume
        CliRun wider = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--resume");
        assertEquals(2, wider.code(), wider.err());
        assertTrue(wider.err().contains("a finished output is not changed"), wider.err());
        // an unfinished one (no _SUCCESS, as a killed run leaves it) is: a damaged slice (its bytes no longer match the
        // commit marker) is recomputed; the intact one is kept
        byte[] good = Files.readAllBytes(out.resolve("slice_00003.tif"));
        byte[] before = Files.readAllBytes(out.resolve("slice_00002.tif"));
        Files.write(out.resolve("slice_00002.tif"), new byte[]{1, 2, 3});
        Files.delete(out.resolve("_SUCCESS"));
        CliRun resumed = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--resume");
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals(6, sliceCount(out));
        assertTrue(resumed.err().contains("(1 skipped)"), resumed.err());
        assertArrayEquals(good, Files.readAllBytes(out.resolve("slice_00003.tif")));
        assertArrayEquals(before, Files.readAllBytes(out.resolve("slice_00002.tif")), "damaged slice recomputed to the same bytes");
        // every slice of the manifest, computed or kept, with its checksum and length
        Map<String, Object> man = Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest");
        assertTrue(String.valueOf(man.get("runSignature")).matches("[0-9a-f]{32}"), man.toString());
        assertManifestSlices(out, man, List.of(0, 1, 2, 3, 4, 5), Set.of(3));
        assertTrue(Files.isRegularFile(out.resolve("_committed/slice_00004.commit")));
        assertEquals(0, cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--overwrite").code());
    }

    /** The manifest lists exactly these rows, each with the CRC32C and length of the file as it is now. */
    @SuppressWarnings("unchecked")
    static void assertManifestSlices(Path out, Map<String, Object> man, List<Integer> rows, Set<Integer> reused)
            throws Exception {
        List<Map<String, Object>> slices = (List<Map<String, Object>>) man.get("slices");
        assertEquals(rows, slices.stream().map(x -> ((Number) x.get("row")).intValue()).toList());
        for (Map<String, Object> e : slices) {
            int row = ((Number) e.get("row")).intValue();
            byte[] b = Files.readAllBytes(out.resolve((String) e.get("file")));
            assertEquals(String.format("slice_%05d.tif", row), e.get("file"));
            assertTrue(String.valueOf(e.get("checksum")).matches("crc32c:[0-9a-f]{8}"), e.toString());
            assertEquals(Checksums.crc32c(b), e.get("checksum"), e.toString());
            assertEquals((long) b.length, ((Number) e.get("bytes")).longValue(), e.toString());
            assertEquals(reused.contains(row), e.get("reused"), e.toString());
        }
    }

    @Test
    void resumeOfACompleteOutputHasNothingToDoAndLeavesItUntouched() throws Exception {
        Path out = tmp.resolve("out-complete");
        assertEquals(0, cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "1:5").code());
        List<String> files = List.of("manifest.json", "report.json", "preview.png", "_SUCCESS", "_committed/_run.json",
                "slice_00002.tif");
        Map<String, FileSnapshot> before = FileSnapshot.of(out, files);
        Thread.sleep(1100); // a rewrite would show in the modification times
        CliRun again = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "1:5", "--resume");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.err().contains("Nothing to do") && again.err().contains("rows 1..4 (4 slices verified"), again.err());
        FileSnapshot.assertUnchanged(out, before);
        // slices it holds: nothing to do either
        CliRun narrower = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "2:4", "--resume");
        assertEquals(0, narrower.code(), narrower.err());
        assertTrue(narrower.err().contains("Nothing to do") && narrower.err().contains("rows 1..4, which includes the rows 2..3"),
                narrower.err());
        FileSnapshot.assertUnchanged(out, before);
        // a finished output is not changed: another range is refused with the reason, and the output left as it is
        CliRun wider = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "0:5", "--resume");
        assertEquals(2, wider.code(), wider.err());
        assertTrue(wider.err().contains("holds a finished reconstruction of rows 1..4") && wider.err().contains("--overwrite"),
                wider.err());
        FileSnapshot.assertUnchanged(out, before);
        // a damaged slice of the same range is real work: recomputed, not reported as nothing to do
        Files.write(out.resolve("slice_00004.tif"), new byte[]{1, 2, 3});
        CliRun damaged = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "1:5", "--resume");
        assertEquals(0, damaged.code(), damaged.err());
        assertFalse(damaged.err().contains("Nothing to do"), damaged.err());
        assertTrue(damaged.err().contains("(3 skipped)"), damaged.err());
        assertArrayEquals(before.get("slice_00002.tif").bytes(), Files.readAllBytes(out.resolve("slice_00002.tif")));
        // ... but a narrower request on a damaged output is refused: repairing means its whole range
        Files.write(out.resolve("slice_00003.tif"), new byte[]{1, 2, 3});
        CliRun part = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--slices", "3:4", "--resume");
        assertEquals(2, part.code(), part.err());
        assertTrue(part.err().contains("is damaged") && part.err().contains("rows 1..4"), part.err());
    }

    @Test
    void demoInputUnderADirectoryWithASpaceAndAPercentSign() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("tmp dir 100%"));
        String old = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", dir.toString());
        try {
            Path out = tmp.resolve("demo out");
            CliRun r = cli("reconstruct", "demo", "--output", out.toString(), "--conf", "demo.width=32", "--conf", "demo.rows=3",
                    "--conf", "demo.projections=24", "--backend", "java");
            assertEquals(0, r.code(), r.err());
            assertEquals(3, sliceCount(out));
            // the input recorded is the demo file as a plain path under that directory, not a percent-encoded URI
            Map<String, Object> rep = Json.read(Files.readAllBytes(out.resolve("report.json")), "report");
            String in = (String) rep.get("input");
            assertTrue(in.startsWith(dir.resolve("tomospark-demo").toString() + "/demo-32x3x24"), in);
            assertTrue(Files.isRegularFile(Path.of(in)), in);
        } finally {
            System.setProperty("java.io.tmpdir", old);
        }
    }

    @Test
    void flatsOfPaganinHaloRowsAreCheckedBeforeAnySliceIsWritten() throws Exception {
        // 24 rows; Paganin at these settings reads 16 halo rows: rows 0..1 need flats of rows 0..17. Row 17's flat is NaN,
        // which only the second group (row 1) reads: it must fail before the first group writes slice 0
        float[][][] data = new float[4][24][16], white = new float[2][24][16];
        for (float[][] a : data) for (float[] b : a) Arrays.fill(b, 50f);
        for (float[][] a : white) for (float[] b : a) Arrays.fill(b, 100f);
        white[1][17][3] = Float.NaN;
        Path f = writeBad("haloflats.h5", ex -> {
            ex.putDataset("data", data);
            ex.putDataset("data_white", white);
            ex.putDataset("theta", new double[]{0, 45, 90, 135});
        });
        String[] paganin = {"--phase-energy", "20", "--phase-distance", "0.01", "--pixel-size", "1e-6", "--delta-beta", "1"};
        String[] args = Stream.concat(Stream.of("reconstruct", "--input", f.toString(), "--slices", "0:2", "--conf", "group.rows=1",
                "--backend", "java"), Stream.of(paganin)).toArray(String[]::new);
        assertFailsCleanly("/exchange/data_white: frame 1 has a non-finite value", args);
        // without the NaN row in the halo (rows 0..1 and their halo end at 17), the same run succeeds
        white[1][17][3] = 100f;
        white[1][18][3] = Float.NaN;
        Path g = writeBad("haloflats-ok.h5", ex -> {
            ex.putDataset("data", data);
            ex.putDataset("data_white", white);
            ex.putDataset("theta", new double[]{0, 45, 90, 135});
        });
        Path out = tmp.resolve("halo-ok");
        String[] ok = Stream.concat(Stream.of("reconstruct", "--input", g.toString(), "--output", out.toString(), "--slices", "0:2",
                "--conf", "group.rows=1", "--backend", "java"), Stream.of(paganin)).toArray(String[]::new);
        CliRun r = cli(ok);
        assertEquals(0, r.code(), r.err());
        assertEquals(2, sliceCount(out));
    }

    @Test
    void resumeWithANarrowerRangeAndPathsWithUriCharacters() throws Exception {
        // '#', '%' and spaces are part of a file name, not URI syntax: the output lands where it was asked to
        Path out = tmp.resolve("out #1 50%");
        assertEquals(0, cli("reconstruct", "--input", scan.toString(), "--output", out.toString()).code());
        assertEquals(6, sliceCount(out));
        assertTrue(Files.exists(out.resolve("_SUCCESS")) && Files.exists(out.resolve("preview.png")));
        assertFalse(Files.exists(tmp.resolve("out ")), "output written to the path cut at '#'");
        // resuming rows 0..2 only: they are there, so nothing is done and the finished output keeps all its slices
        String manifest = Files.readString(out.resolve("manifest.json"));
        CliRun narrow = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--resume", "--slices", "0:3");
        assertEquals(0, narrow.code(), narrow.err());
        assertTrue(narrow.err().contains("Nothing to do"), narrow.err());
        assertEquals(manifest, Files.readString(out.resolve("manifest.json")));
        assertEquals(6, sliceCount(out));
        // unfinished (no _SUCCESS), the narrower range is real work: its kept slices are reused, the manifest lists it
        Files.delete(out.resolve("_SUCCESS"));
        narrow = cli("reconstruct", "--input", scan.toString(), "--output", out.toString(), "--resume", "--slices", "0:3");
        assertEquals(0, narrow.code(), narrow.err());
        assertTrue(narrow.err().contains("(3 skipped)"), narrow.err());
        manifest = Files.readString(out.resolve("manifest.json"));
        assertTrue(manifest.contains("slice_00002.tif") && !manifest.contains("slice_00003.tif"), manifest);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
    }

    static Path writeBad(String name, Consumer<WritableGroup> content) {
        Path f = tmp.resolve(name);
        try (WritableHdfFile w = HdfFile.write(f)) {
            content.accept(w.putGroup("exchange"));
        }
        return f;
    }

    void assertFailsCleanly(String expected, String... args) throws Exception {
        Path out = tmp.resolve("bad-" + System.nanoTime());
        String[] full = Stream.concat(Stream.of(args), Stream.of("--output", out.toString())).toArray(String[]::new);
        CliRun r = cli(full);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
        assertEquals(0, sliceCount(out), "no slice may be written");
    }

    @Test
    void badInputFailsBeforeWritingAnySlice() throws Exception {
        assertFailsCleanly("nope.h5: input not found", "reconstruct", "--input", tmp.resolve("nope.h5").toString());
        assertFailsCleanly("config key center: invalid value '500': outside the detector [0, 63]",
                "reconstruct", "--input", scan.toString(), "--center", "500");
        assertFailsCleanly("config key filter: invalid value 'gauss'", "reconstruct", "--input", scan.toString(), "--filter", "gauss");
        assertFailsCleanly("slices 4:9 outside the 6 detector rows", "reconstruct", "--input", scan.toString(), "--slices", "4:9");
        assertFailsCleanly("unknown config key 'centre'", "reconstruct", "--input", scan.toString(), "--conf", "centre=3");

        Path zeroFlats = writeBad("zeroflats.h5", ex -> {
            ex.putDataset("data", new float[4][2][16]);
            ex.putDataset("data_white", new float[2][2][16]);
            ex.putDataset("theta", new double[]{0, 45, 90, 135});
        });
        assertFailsCleanly("/exchange/data_white: flat field is not above the dark field", "reconstruct", "--input", zeroFlats.toString());

        float[][][] nanWhite = new float[2][2][16];
        for (float[][] a : nanWhite) for (float[] b : a) Arrays.fill(b, 100f);
        nanWhite[1][1][3] = Float.NaN;
        Path nanFlats = writeBad("nanflats.h5", ex -> {
            ex.putDataset("data", new float[4][2][16]);
            ex.putDataset("data_white", nanWhite);
            ex.putDataset("theta", new double[]{0, 45, 90, 135});
        });
        assertFailsCleanly("/exchange/data_white: frame 1 has a non-finite value", "reconstruct", "--input", nanFlats.toString());

        Path mismatch = writeBad("mismatch.h5", ex -> {
            ex.putDataset("data", new float[4][2][16]);
            ex.putDataset("theta", new double[]{0, 45, 90});
        });
        assertFailsCleanly("/exchange/theta has 3 angles but /exchange/data has 4 projections", "reconstruct", "--input",
                mismatch.toString());

        Path noData = writeBad("nodata.h5", ex -> ex.putDataset("theta", new double[]{0, 1}));
        assertFailsCleanly("dataset /exchange/data not found", "reconstruct", "--input", noData.toString());

        byte[] all = Files.readAllBytes(scan);
        Path truncated = tmp.resolve("truncated.h5");
        Files.write(truncated, Arrays.copyOf(all, all.length / 3));
        assertFailsCleanly("truncated.h5", "reconstruct", "--input", truncated.toString());
    }

    @Test
    void aNamedAnglesFileThatIsMissingIsAnErrorNamingTheKey() throws Exception {
        Path stack = tmp.resolve("stack");
        new DemoDataset(DemoDataset.Spec.demo().withSize(32, 4, 30)).writeTiffStack(stack);
        // the default theta.txt is there and used; a file the user names must exist (no silent fallback to angles.*)
        assertFailsCleanly("job.input.tiff.theta=angles.txt", "reconstruct", "--input", stack.toString(),
                "--conf", "job.input.tiff.theta=angles.txt");
        Path out = tmp.resolve("stack-out");
        assertEquals(0, cli("reconstruct", "--input", stack.toString(), "--output", out.toString()).code());
        assertEquals(4, sliceCount(out));
    }

    @Test
    void unwritableOutputIsReportedBeforeWork() throws Exception {
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x");
        CliRun r = cli("reconstruct", "--input", scan.toString(), "--output", file.resolve("sub").toString());
        assertEquals(3, r.code(), r.err()); // the machine's file system, not the command, has to change
        assertTrue(r.err().contains("output is not writable"), r.err());
    }

    @Test
    void helpAndBackends() {
        CliRun h = cli("reconstruct", "--help");
        assertEquals(0, h.code());
        CliRun b = cli("backends");
        assertEquals(0, b.code());
    }
}
