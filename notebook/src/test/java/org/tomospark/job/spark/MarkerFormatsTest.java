package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.testing.Checksums;
import org.tomospark.job.fs.Json;
import org.tomospark.job.spark.OwnershipFixture.Engine;
import org.tomospark.job.spark.OwnershipFixture.Outcome;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Commit markers and manifests carry a format version: this version writes markers {@code slice_NNNNN.commit} ("2
 * crc32c:HEX LENGTH") and manifests with {@code manifestVersion} 2 and each slice's {@code checksum}; an output written
 * before (markers {@code slice_NNNNN.sha256}, "HEX LENGTH" of SHA-256; a manifest of {@code sha256} fields; a report
 * recording volume.h5's {@code sha256}) is verified with SHA-256, never taken as CRC32C, and a slice that does not match
 * it is recomputed.
 */
class MarkerFormatsTest {
    @Test
    void newOutputsRecordCrc32cWithTheirFormat() throws IOException {
        OwnershipFixture f = new OwnershipFixture("markers-new");
        assertEquals(0, f.run(Engine.DIRECT).code());
        Map<String, Object> m = Json.read(Files.readAllBytes(f.out.resolve("manifest.json")), "manifest");
        assertEquals(2, ((Number) m.get("manifestVersion")).intValue());
        for (Object o : (List<?>) m.get("slices")) {
            Map<?, ?> s = (Map<?, ?>) o;
            byte[] b = Files.readAllBytes(f.out.resolve((String) s.get("file")));
            assertEquals(Checksums.crc32c(b), s.get("checksum"));
            int row = ((Number) s.get("row")).intValue();
            assertEquals("2 " + Checksums.crc32c(b) + " " + b.length + "\n",
                    Files.readString(f.out.resolve(String.format("_committed/slice_%05d.commit", row)), StandardCharsets.US_ASCII));
        }
    }

    /**
     * The output as the version before marker format 2 left it: SHA-256 markers and manifest entries, and a run record
     * without what the runs own (which that version did not keep).
     */
    static void makeItFormatOne(Path out) throws Exception {
        Path run = out.resolve("_committed/_run.json");
        Map<String, Object> record = Json.read(Files.readAllBytes(run), "_run.json");
        record.remove("owns");
        Files.write(run, Json.write(record));
        Map<String, Object> m = Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest");
        m.remove("manifestVersion");
        for (Object o : (List<?>) m.get("slices")) {
            @SuppressWarnings("unchecked") Map<String, Object> s = (Map<String, Object>) o;
            byte[] b = Files.readAllBytes(out.resolve((String) s.get("file")));
            s.remove("checksum");
            s.put("sha256", sha256(b));
            int row = ((Number) s.get("row")).intValue();
            Files.delete(out.resolve(String.format("_committed/slice_%05d.commit", row)));
            Files.writeString(out.resolve(String.format("_committed/slice_%05d.sha256", row)), sha256(b) + " " + b.length + "\n");
        }
        Files.write(out.resolve("manifest.json"), Json.write(m));
    }

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void outputsOfTheEarlierFormatAreVerifiedWithWhatTheyRecorded() throws Exception {
        for (Engine e : List.of(Engine.DIRECT, Engine.SPARK)) {
            OwnershipFixture f = new OwnershipFixture("markers-old-" + e);
            assertEquals(0, f.run(e).code());
            makeItFormatOne(f.out);
            // finished, verified with SHA-256: nothing to do, nothing changes
            TreeSnapshot before = f.snapshot();
            Outcome same = f.run(e, "--resume");
            assertTrue(same.message().contains("Nothing to do") && same.message().contains("8 slices verified"), same.message());
            before.assertUnchanged(f.snapshot(), e + ": a format-1 output resumed");
            // unfinished, one slice damaged: the others are kept on their SHA-256, the damaged one recomputed
            Files.delete(f.out.resolve("_SUCCESS"));
            byte[] damaged = Files.readAllBytes(f.out.resolve("slice_00004.tif"));
            damaged[damaged.length - 1] ^= 1;
            Files.write(f.out.resolve("slice_00004.tif"), damaged);
            Outcome r = f.run(e, "--resume");
            assertEquals(0, r.code(), r.message());
            Map<String, Object> m = Json.read(Files.readAllBytes(f.out.resolve("manifest.json")), "manifest");
            for (Object o : (List<?>) m.get("slices")) {
                Map<?, ?> s = (Map<?, ?>) o;
                byte[] b = Files.readAllBytes(f.out.resolve((String) s.get("file")));
                int row = ((Number) s.get("row")).intValue();
                // the kept slices keep the checksum their marker recorded, SHA-256, as sha256:HEX
                assertEquals(row == 4 ? Checksums.crc32c(b) : "sha256:" + sha256(b), s.get("checksum"), "row " + row);
                assertEquals(row != 4, Boolean.TRUE.equals(s.get("reused")), "row " + row);
            }
            assertTrue(Files.exists(f.out.resolve("_committed/slice_00004.commit")), "the recomputed slice has a format-2 marker");
        }
    }

    /** What the earlier format recorded of volume.h5, in the report and in the manifest's copy of it: its SHA-256. */
    @SuppressWarnings("unchecked")
    static void recordVolumeSha256(Path out, String sha) throws IOException {
        Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report");
        Map<String, Object> manifest = Json.read(Files.readAllBytes(out.resolve("manifest.json")), "manifest");
        for (Map<String, Object> r : List.of(report, (Map<String, Object>) manifest.get("report"))) {
            Map<String, Object> file = (Map<String, Object>) r.get("volumeFile");
            file.remove("checksum");
            file.put("sha256", sha);
        }
        Files.write(out.resolve("report.json"), Json.write(report));
        Files.write(out.resolve("manifest.json"), Json.write(manifest));
    }

    @Test
    void aVolumeFileRecordedWithSha256IsVerifiedWithIt() throws Exception {
        OwnershipFixture f = new OwnershipFixture("markers-h5");
        assertEquals(0, f.run(Engine.DIRECT, "--output-format", "hdf5").code());
        makeItFormatOne(f.out);
        String sha = sha256(Files.readAllBytes(f.out.resolve("volume.h5")));
        recordVolumeSha256(f.out, sha);
        TreeSnapshot before = f.snapshot();
        Outcome same = f.run(Engine.DIRECT, "--resume", "--output-format", "hdf5");
        assertTrue(same.message().contains("Nothing to do"), same.message());
        before.assertUnchanged(f.snapshot(), "a format-1 HDF5 output resumed");
        // the recorded SHA-256 no longer matches: the volume file is rebuilt (repair), the slices kept
        recordVolumeSha256(f.out, "0".repeat(64));
        Outcome repaired = f.run(Engine.DIRECT, "--resume", "--output-format", "hdf5");
        assertFalse(repaired.message().contains("Nothing to do"), repaired.message());
        assertTrue(repaired.message().contains("(8 skipped)"), repaired.message());
        Map<String, Object> now = Json.read(Files.readAllBytes(f.out.resolve("report.json")), "report");
        assertEquals(Checksums.crc32c(Files.readAllBytes(f.out.resolve("volume.h5"))),
                ((Map<?, ?>) now.get("volumeFile")).get("checksum"));
    }
}
