package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both engines end a run through one finishing path: volume.raw (job.output.raw), preview.png, report.json,
 * manifest.json and _SUCCESS, and the same answer to a --resume with nothing to do.
 */
class RunFinishTest {
    static CliRun rec(String engine, Path out, String... more) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", engine, "--input", TestScans.hdf5().toString(),
                "--output", out.toString(), "--backend", "java", "--filter", "shepp-logan", "--center", "47.5"));
        a.addAll(List.of(more));
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return r;
    }

    /** The single-machine reference slices, in row order, as float32 little-endian: what volume.raw must hold. */
    static byte[] expectedRaw() {
        Map<Integer, float[]> ref = TestScans.reference();
        ByteBuffer bb = ByteBuffer.allocate(ref.size() * 96 * 96 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int row = 0; row < ref.size(); row++) for (float v : ref.get(row)) bb.putFloat(v);
        return bb.array();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json(Path out, String name) throws Exception {
        return Json.read(Files.readAllBytes(out.resolve(name)), name);
    }

    @Test
    @Timeout(300)
    @SuppressWarnings("unchecked")
    void bothEnginesWriteTheSameRawVolumeFromTheCommittedSlices() throws Exception {
        TestScans.spark();
        byte[] expected = expectedRaw();
        for (String engine : List.of("direct", "spark")) {
            Path out = TestScans.tmp("finish-" + engine).resolve("rec");
            CliRun r = rec(engine, out, "--conf", "job.output.raw=true");
            assertArrayEquals(expected, Files.readAllBytes(out.resolve("volume.raw")), engine);
            Map<String, Object> manifest = json(out, OutputCommit.MANIFEST);
            Map<String, Object> files = (Map<String, Object>) manifest.get("output");
            assertEquals("volume.raw (float32 little-endian [slice][y][x])", files.get("rawVolume"), engine);
            assertEquals(engine, ((Map<String, Object>) manifest.get("software")).get("engine"));
            assertEquals(16, ((List<?>) manifest.get("slices")).size(), engine);
            assertTrue(Files.size(out.resolve("preview.png")) > 100, engine);
            assertTrue(Files.exists(out.resolve(OutputCommit.SUCCESS)), engine);
            assertTrue(r.err().contains("  files: manifest.json, report.json, preview.png, volume.raw, _SUCCESS\n"), r.err());
        }
    }

    @Test
    @Timeout(300)
    @SuppressWarnings("unchecked")
    void aResumeAddsTheRawVolumeFromReusedSlicesThenHasNothingToDo() throws Exception {
        TestScans.spark();
        Path out = TestScans.tmp("finish-resume").resolve("rec");
        CliRun first = rec("direct", out);
        assertFalse(Files.exists(out.resolve("volume.raw")));
        assertTrue(first.err().contains("  files: manifest.json, report.json, preview.png, _SUCCESS\n"), first.err());

        // the output lacks the raw volume this run asks for: not "nothing to do", but no slice is computed again
        CliRun add = rec("direct", out, "--resume", "--conf", "job.output.raw=true");
        assertFalse(add.err().contains("Nothing to do"), add.err());
        Map<String, Object> slices = (Map<String, Object>) json(out, OutputCommit.REPORT).get("slices");
        assertEquals(Map.of("total", 16, "computed", 0, "skipped", 16), slices);
        assertArrayEquals(expectedRaw(), Files.readAllBytes(out.resolve("volume.raw")));
        assertTrue(Files.size(out.resolve("preview.png")) > 100, "the preview is made from the reused slices, read back");

        // now the output holds exactly this run: both engines say so alike and leave it untouched
        FileTime raw = Files.getLastModifiedTime(out.resolve("volume.raw"));
        FileTime manifest = Files.getLastModifiedTime(out.resolve(OutputCommit.MANIFEST));
        String nothing = "Nothing to do: " + out + " already holds this reconstruction of rows 0..15 (16 slices verified against "
                + "their checksums, same run signature); the output was left untouched";
        for (String engine : List.of("direct", "spark")) {
            CliRun again = rec(engine, out, "--resume", "--conf", "job.output.raw=true");
            assertTrue(again.err().contains(nothing), engine + ": " + again.err());
        }
        assertEquals(raw, Files.getLastModifiedTime(out.resolve("volume.raw")));
        assertEquals(manifest, Files.getLastModifiedTime(out.resolve(OutputCommit.MANIFEST)));

        // a resume that does not ask for the raw volume has nothing to do either: a finished output is not rewritten
        CliRun without = rec("direct", out, "--resume");
        assertTrue(without.err().contains("Nothing to do"), without.err());
        assertEquals(raw, Files.getLastModifiedTime(out.resolve("volume.raw")));

        // unfinished (no _SUCCESS), the same resume removes the earlier raw volume instead of leaving it beside its files
        Files.delete(out.resolve(OutputCommit.SUCCESS));
        without = rec("direct", out, "--resume");
        assertFalse(without.err().contains("Nothing to do"), without.err());
        assertFalse(Files.exists(out.resolve("volume.raw")));
    }
}
