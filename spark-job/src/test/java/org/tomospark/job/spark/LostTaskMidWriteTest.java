package org.tomospark.job.spark;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Spark task that dies while it commits its slices (job.test.failWriteOfGroup: half of its group committed, one
 * slice's file left half-written under its temporary name) fails the run without a finished volume, and the driver
 * removes the half-written file; --resume (here also finding a half-written file, as a driver killed with the task
 * would leave) recomputes only the slices that were not committed and gives a volume identical, byte for byte, to an
 * undisturbed run's, with no temporary file left. For the Zarr output and for the HDF5 output's slices.
 */
class LostTaskMidWriteTest {
    @ParameterizedTest
    @ValueSource(strings = {"zarr", "hdf5"})
    void resumeAfterATaskDiedMidWriteGivesTheSameVolume(String format) throws Exception {
        TestScans.spark();
        Path base = TestScans.tmp("lost-mid-write-" + format);
        Path tiffs = base.resolve("tiff"), clean = base.resolve("clean"), out = base.resolve("out");
        assertEquals(0, ZarrOutputTest.run("spark", tiffs).code());
        assertEquals(0, ZarrOutputTest.run("spark", clean, "--output-format", format).code());

        // groups of 4 rows: [3, 7), [7, 11), [11, 13); the second dies after committing half of its slices
        CliRun r = ZarrOutputTest.run("spark", out, "--output-format", format, "--conf", "group.rows=4", "--conf",
                "job.test.failWriteOfGroup=1");
        assertNotEquals(0, r.code(), "the run fails");
        assertTrue(r.err().contains("injected by job.test.failWriteOfGroup"), r.err());
        assertFalse(Files.exists(out.resolve("_SUCCESS")));
        assertFalse(Files.exists(out.resolve("volume.zarr/.zarray")), "no Zarr metadata for an unfinished array");
        assertFalse(Files.exists(out.resolve("volume.h5")), "no HDF5 file for an unfinished volume");
        assertFalse(Files.exists(out.resolve("_temporary")), "the driver removed the task's half-written file");
        // what a driver killed with its task would have left: the half-written file under its temporary name
        Path killed = out.resolve("_temporary/" + (format.equals("zarr") ? "volume.zarr/6.0.0" : "volume.h5.slices/"
                + "slice_00009.raw") + "." + UUID.randomUUID() + ".tmp");
        Files.createDirectories(killed.getParent());
        Files.write(killed, new byte[100]);
        int committed = files(out.resolve("_committed")).size() - 1; // markers, less _run.json
        // half of the failed group at least; the other groups' tasks may have been cancelled with the job
        assertTrue(committed >= 2 && committed < 10, committed + " slices committed");

        r = ZarrOutputTest.run("spark", out, "--output-format", format, "--conf", "group.rows=4", "--resume");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        assertEquals(Map.of("total", 10, "computed", 10 - committed, "skipped", committed), report.get("slices"));
        assertFalse(Files.exists(out.resolve("_temporary")), "no temporary file is left");
        if (format.equals("zarr")) {
            for (int chunk = 0; chunk < 10; chunk++) // slices 3..12, the array beginning at slice 3
                assertArrayEquals(Files.readAllBytes(clean.resolve("volume.zarr/" + chunk + ".0.0")),
                        Files.readAllBytes(out.resolve("volume.zarr/" + chunk + ".0.0")), "chunk " + chunk);
            assertArrayEquals(Files.readAllBytes(clean.resolve("volume.zarr/.zarray")),
                    Files.readAllBytes(out.resolve("volume.zarr/.zarray")));
            ZarrOutputTest.checkZarr(tiffs, out);
        } else {
            assertArrayEquals(Files.readAllBytes(clean.resolve("volume.h5")), Files.readAllBytes(out.resolve("volume.h5")),
                    "volume.h5 as an undisturbed run writes it");
            Hdf5OutputTest.checkH5(tiffs, out);
        }
    }

    private static List<Path> files(Path dir) throws Exception {
        if (!Files.exists(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".crc")).toList();
        }
    }
}
