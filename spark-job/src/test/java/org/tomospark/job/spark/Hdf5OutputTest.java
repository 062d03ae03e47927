package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.testing.Checksums;
import org.tomospark.executor.util.Cancellation;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.outputs.Hdf5Volume;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.SliceFiles;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * output.format=hdf5: h5py and tifffile (check_h5.py) find the dataset of volume.h5 equal, bit for bit, to the TIFF
 * slices of the same run on both engines, of their number of slices (z = 0 the first) and with the run's
 * description as attributes; --resume rebuilds a missing or damaged volume.h5 from the committed slices and redoes only
 * slices that are missing or damaged; an assembly that fails leaves no volume.h5.
 */
public class Hdf5OutputTest {
    static CliRun run(String engine, Path out, String... extra) {
        return ZarrOutputTest.run(engine, out, extra);
    }

    public static String checkH5(Path tiffs, Path out) throws Exception {
        return PythonCheck.run("check_h5.py", tiffs.toString(), out.toString());
    }

    static Map<String, Object> report(Path out) throws Exception {
        return Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void h5pyReadsTheTiffValues(String engine) throws Exception {
        if (engine.equals("spark")) TestScans.spark();
        Path base = TestScans.tmp("h5-" + engine);
        for (String type : new String[]{"float32", "float16", "uint16"}) {
            for (String format : new String[]{"tiff", "hdf5"}) {
                CliRun r = run(engine, base.resolve(type + "-" + format), "--output-format", format, "--output-type",
                        type, "--output-range", "-0.001,0.06");
                assertEquals(0, r.code(), r.err());
            }
            Path out = base.resolve(type + "-hdf5");
            String log = checkH5(base.resolve(type + "-tiff"), out);
            assertTrue(log.startsWith("ok: 10 slices equal from slice 3; shape (10, 96, 96), chunks (1, 96, 96), "
                    + type), log);
            assertTrue(TestScans.sliceFiles(out).isEmpty(), "an HDF5 output holds no TIFF slices");
            Map<String, Object> report = report(out);
            assertEquals("hdf5", report.get("outputFormat"));
            Map<?, ?> file = (Map<?, ?>) report.get(Hdf5Volume.REPORT_KEY);
            assertEquals(Files.size(out.resolve("volume.h5")), ((Number) file.get("bytes")).longValue());
            assertEquals(Checksums.crc32c(Files.readAllBytes(out.resolve("volume.h5"))), file.get("checksum"));
            assertFalse(Files.exists(out.resolve("_temporary")), "no temporary file is left");
        }
    }

    @Test
    void resumeRebuildsAMissingOrDamagedFileAndRedoesOnlyDamagedSlices() throws Exception {
        Path base = TestScans.tmp("h5-resume");
        Path tiffs = base.resolve("tiff"), out = base.resolve("hdf5");
        assertEquals(0, run("direct", tiffs).code());
        assertEquals(0, run("direct", out, "--output-format", "hdf5").code());
        byte[] whole = Files.readAllBytes(out.resolve("volume.h5"));
        Path slices = out.resolve(SliceFiles.HDF5_SLICES_DIR);

        // nothing to do: the file is left as it is
        FileTime kept = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(out.resolve("volume.h5"), kept);
        CliRun r = run("direct", out, "--output-format", "hdf5", "--resume");
        assertEquals(0, r.code(), r.err());
        assertEquals(kept, Files.getLastModifiedTime(out.resolve("volume.h5")));

        // missing, then damaged: rebuilt from the committed slices, none recomputed
        Files.delete(out.resolve("volume.h5"));
        r = run("direct", out, "--output-format", "hdf5", "--resume");
        assertEquals(0, r.code(), r.err());
        assertEquals(Map.of("total", 10, "computed", 0, "skipped", 10), report(out).get("slices"));
        assertArrayEquals(whole, Files.readAllBytes(out.resolve("volume.h5")), "the rebuilt file is the same");
        byte[] damaged = whole.clone();
        damaged[damaged.length - 1000] ^= 0x40;
        Files.write(out.resolve("volume.h5"), damaged);
        r = run("direct", out, "--output-format", "hdf5", "--resume");
        assertEquals(0, r.code(), r.err());
        assertEquals(Map.of("total", 10, "computed", 0, "skipped", 10), report(out).get("slices"));
        assertArrayEquals(whole, Files.readAllBytes(out.resolve("volume.h5")), "the damaged file is rebuilt");

        // a slice damaged after its marker, one missing, and a run that stopped before the file: those two redone
        byte[] slice = Files.readAllBytes(slices.resolve("slice_00008.raw"));
        slice[1000] ^= 0x40;
        Files.write(slices.resolve("slice_00008.raw"), slice);
        Files.delete(slices.resolve("slice_00011.raw"));
        Files.delete(out.resolve("volume.h5"));
        Files.delete(out.resolve("_SUCCESS"));
        r = run("direct", out, "--output-format", "hdf5", "--resume");
        assertEquals(0, r.code(), r.err());
        assertEquals(Map.of("total", 10, "computed", 2, "skipped", 8), report(out).get("slices"));
        assertArrayEquals(whole, Files.readAllBytes(out.resolve("volume.h5")));
        checkH5(tiffs, out);
    }

    @Test
    void anAssemblyThatFailsLeavesNoFile() throws Exception {
        Path dir = TestScans.tmp("h5-fail");
        OutputCommit out = new OutputCommit(dir.toString(), new Configuration(), new SliceFiles(OutputFormat.HDF5));
        Files.createDirectories(dir.resolve(SliceFiles.HDF5_SLICES_DIR)); // as OutputCommit.prepare makes them
        Files.createDirectories(dir.resolve(OutputCommit.COMMITTED));
        SampleCoding coding = SampleCoding.FLOAT32;
        Map<Integer, String> sha = new TreeMap<>();
        byte[] bytes = new byte[4 * 3 * 2];
        for (int row = 0; row < 3; row++) {
            bytes[0] = (byte) row;
            sha.put(row, out.commitSlice(row, bytes.clone()).checksum());
        }
        // damaged after its marker (and Hadoop's local checksum file gone with it, so that it reads without error)
        Path damaged = dir.resolve(new SliceFiles(OutputFormat.HDF5).name(1));
        Files.deleteIfExists(damaged.resolveSibling("." + damaged.getFileName() + ".crc"));
        Files.write(damaged, new byte[24]);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Hdf5Volume.write(out, 0, 3, 3, 2,
                coding, sha, Map.of(), "{}", Cancellation.NONE));
        assertTrue(e.getMessage().contains("volume.h5.slices/slice_00001.raw does not match its checksum marker"),
                e.getMessage());
        assertFalse(Files.exists(dir.resolve("volume.h5")));
        try (Stream<Path> s = Files.walk(dir.resolve("_temporary"))) {
            List<Path> left = s.filter(Files::isRegularFile).toList();
            assertTrue(left.isEmpty(), "temporary files left: " + left);
        }

        // a cancel between two slices (a notebook's Cancel while the driver assembles): no file either
        Files.write(damaged, Files.readAllBytes(dir.resolve(new SliceFiles(OutputFormat.HDF5).name(0))));
        sha.put(1, sha.get(0));
        AtomicInteger asked = new AtomicInteger();
        Cancellation afterTwoSlices = () -> asked.incrementAndGet() > 2;
        assertThrows(CancellationException.class, () -> Hdf5Volume.write(out, 0, 3, 3, 2, coding, sha, Map.of(), "{}",
                afterTwoSlices));
        assertEquals(3, asked.get(), "asked before each slice");
        assertFalse(Files.exists(dir.resolve("volume.h5")));
        try (Stream<Path> s = Files.walk(dir.resolve("_temporary"))) {
            List<Path> left = s.filter(Files::isRegularFile).toList();
            assertTrue(left.isEmpty(), "temporary files left: " + left);
        }
    }
}
