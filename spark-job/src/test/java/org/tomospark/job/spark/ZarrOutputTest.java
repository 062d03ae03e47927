package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * output.format=zarr: zarr-python and tifffile (check_zarr.py) find the Zarr array of a run equal, bit for bit, to the
 * TIFF slices of the same run, of their number of slices (z = 0 the first); --resume of a Zarr that a lost
 * task or a damaged disk left incomplete redoes only the missing and damaged chunks.
 */
class ZarrOutputTest {
    static String input() {
        return TestScans.hdf5().toString();
    }

    static CliRun run(String engine, Path out, String... extra) {
        List<String> a = new ArrayList<>(List.of("--input", input(), "--output", out.toString(), "--center", "47.5",
                "--slices", "3:13"));
        a.addAll(List.of(extra));
        return FaultMatrixTest.cli(engine, a.toArray(String[]::new));
    }

    static String checkZarr(Path tiffs, Path zarr) throws Exception {
        return PythonCheck.run("check_zarr.py", tiffs.toString(), zarr.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void zarrPythonReadsTheTiffValues(String engine) throws Exception {
        if (engine.equals("spark")) TestScans.spark();
        Path base = TestScans.tmp("zarr-" + engine);
        for (String type : new String[]{"float32", "uint16"}) {
            for (String format : new String[]{"tiff", "zarr"}) {
                CliRun r = run(engine, base.resolve(type + "-" + format), "--output-format", format, "--output-type",
                        type,
                        "--output-range", "-0.001,0.06");
                assertEquals(0, r.code(), r.err());
            }
            String log = checkZarr(base.resolve(type + "-tiff"), base.resolve(type + "-zarr"));
            assertTrue(log.startsWith("ok: 10 slices equal from slice 3; shape (10, 96, 96), chunks (1, 96, "
                    + "96)"),
                    log);
            assertTrue(TestScans.sliceFiles(base.resolve(type + "-zarr")).isEmpty(),
                    "a Zarr output holds no TIFF slices");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void zstdChunksReadTheSameInZarrPython(String engine) throws Exception {
        if (engine.equals("spark")) TestScans.spark();
        Path base = TestScans.tmp("zarr-zstd-" + engine);
        assertEquals(0, run(engine, base.resolve("tiff")).code());
        CliRun r = run(engine, base.resolve("zstd"), "--output-format", "zarr", "--zarr-compression", "zstd");
        assertEquals(0, r.code(), r.err());
        String log = checkZarr(base.resolve("tiff"), base.resolve("zstd"));
        assertTrue(log.startsWith("ok: 10 slices equal from slice 3; shape (10, 96, 96), chunks (1, 96, 96), "
                + "float32, compressor Zstd(level=3)"), log);
        Map<String, Object> zarray = Json.read(Files.readAllBytes(base.resolve("zstd/volume.zarr/.zarray")), ".zarray");
        assertEquals(Map.of("id", "zstd", "level", 3), zarray.get("compressor"));
        // a chunk is one Zstandard frame (its magic number first), smaller than the 96x96 float32 samples it holds
        byte[] chunk = Files.readAllBytes(base.resolve("zstd/volume.zarr/8.0.0"));
        assertArrayEquals(new byte[]{0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, Arrays.copyOf(chunk, 4));
        assertTrue(chunk.length < 96 * 96 * 4, "a compressed chunk of " + chunk.length + " bytes");

        // a resumed run decodes the kept compressed chunks (for the preview) and recomputes a damaged one
        Path out = base.resolve("zstd");
        Files.delete(out.resolve("volume.zarr/9.0.0"));
        Files.delete(out.resolve("_SUCCESS"));
        r = run(engine, out, "--output-format", "zarr", "--zarr-compression", "zstd", "--resume");
        assertEquals(0, r.code(), r.err());
        assertEquals(Map.of("total", 10, "computed", 1, "skipped", 9),
                Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json").get("slices"));
        checkZarr(base.resolve("tiff"), out);
    }

    @Test
    void zstdIsForZarrOnly() {
        Path out = TestScans.tmp("zarr-zstd-tiff").resolve("out");
        CliRun r = run("direct", out, "--zarr-compression", "zstd");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("output.zarr.compression=zstd compresses Zarr chunks; output.format is tiff"),
                r.err());
        assertFalse(Files.exists(out), "nothing is written");
    }

    @Test
    void resumeRedoesOnlyMissingAndDamagedChunks() throws Exception {
        Path base = TestScans.tmp("zarr-resume");
        Path tiffs = base.resolve("tiff"), out = base.resolve("zarr");
        assertEquals(0, run("direct", tiffs).code());
        assertEquals(0, run("direct", out, "--output-format", "zarr").code());
        Path chunks = out.resolve("volume.zarr");
        // the array begins at slice 3 (--slices 3:13), so slice s is chunk s - 3. What a task lost mid-write leaves: a
        // chunk renamed into place without its marker (slice 5), a temporary chunk; and a chunk damaged on disk after
        // its marker (slice 8), and one missing (slice 11)
        Files.delete(out.resolve("_committed/slice_00005.commit"));
        Files.createDirectories(out.resolve("_temporary/volume.zarr"));
        Path temporary = out.resolve("_temporary/volume.zarr/3.0.0.0f8fad5b-d9cb-469f-a165-70867728950e.tmp");
        Files.write(temporary, new byte[100]);
        Path someoneElses = out.resolve("_temporary/notes.txt");
        Files.writeString(someoneElses, "not a writer's");
        byte[] damaged = Files.readAllBytes(chunks.resolve("5.0.0"));
        damaged[1000] ^= 0x40;
        Files.write(chunks.resolve("5.0.0"), damaged);
        Files.delete(chunks.resolve("8.0.0"));
        Files.delete(out.resolve("_SUCCESS"));
        FileTime kept = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(chunks.resolve("0.0.0"), kept);

        CliRun r = run("direct", out, "--output-format", "zarr", "--resume");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        assertEquals(Map.of("total", 10, "computed", 3, "skipped", 7), report.get("slices"),
                "slices 5, 8 and 11 redone");
        assertEquals("zarr", report.get("outputFormat"));
        assertEquals(kept, Files.getLastModifiedTime(chunks.resolve("0.0.0")), "an intact chunk is not rewritten");
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertFalse(Files.exists(temporary), "no temporary chunk is left");
        assertEquals("not a writer's", Files.readString(someoneElses), "a file no writer made stays");
        checkZarr(tiffs, out);
    }
}
