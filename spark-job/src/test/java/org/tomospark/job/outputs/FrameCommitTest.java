package org.tomospark.job.outputs;

import org.tomospark.job.fs.HadoopConf;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.TiffEncoder;
import org.tomospark.executor.outputs.ZarrCompression;
import org.tomospark.executor.memory.SliceFrame;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slices in direct frames (as a GPU fills them) are committed to the same bytes as the same slices in Java arrays, in
 * every output format and sample type: written from the frame itself where the file's bytes are the frame's (float32
 * TIFFs, the header put in the frame's room, and raw chunks), encoded otherwise; and each frame is handed back once.
 */
@Timeout(120)
class FrameCommitTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} {1} {2}, room {3}")
    @CsvSource({
            // format, coding, compression, room (-1: a float32 TIFF header's), written from the frame
            "tiff, float32, none, -1, true",
            "tiff, float32, none, 0, false",
            "tiff, float16, none, -1, false",
            "zarr, float32, none, 0, true",
            "zarr, float32, zstd, 0, false",
            "hdf5, float32, none, 0, true",
    })
    void directFramesGiveTheFilesOfArrays(String format, String codingName, String compression, int room, boolean inPlace)
            throws Exception {
        int w = 300, h = 257; // five strips of whole rows in a TIFF
        String description = "tomospark slice\nunit=1/mm";
        SampleCoding coding = codingName.equals("float16") ? SampleCoding.FLOAT16 : SampleCoding.FLOAT32;
        SliceFiles files = new SliceFiles(OutputFormat.valueOf(format.toUpperCase(Locale.ROOT)),
                ZarrCompression.valueOf(compression.toUpperCase(Locale.ROOT)), 0);
        int frameRoom = room >= 0 ? room : TiffEncoder.pixelOffset(w, h, description, coding);
        List<SliceFrame> frames = new ArrayList<>();
        Set<SliceFrame> back = ConcurrentHashMap.newKeySet();
        OutputCommit fromArrays = new OutputCommit(dir("arrays", files).toString(), HadoopConf.create(), files);
        OutputCommit fromFrames = new OutputCommit(dir("frames", files).toString(), HadoopConf.create(), files);
        Map<Integer, OutputCommit.Committed> expected, got;
        try (SliceCommitPool a = new SliceCommitPool(fromArrays, 2, 2, description, coding, row -> {
        }, f -> {
        }); SliceCommitPool d = new SliceCommitPool(fromFrames, 2, 2, description, coding, row -> {
        }, f -> assertTrue(back.add(f), "a frame handed back twice"))) {
            for (int row = 0; row < 6; row++) {
                float[] px = SliceCommitPoolTest.slice(w, h, row);
                SliceFrame f = SliceFrame.directUnpooled(w * h, frameRoom);
                f.copyFrom(px);
                frames.add(f);
                a.submit(row, px, w, h);
                d.submit(row, f, w, h);
            }
            expected = a.finish();
            got = d.finish();
        }
        assertEquals(expected, got, "the same checksums and lengths");
        assertEquals(Set.copyOf(frames), back, "every frame handed back");
        for (int row = 0; row < 6; row++) {
            byte[] file = Files.readAllBytes(tmp.resolve("frames").resolve(files.name(row)));
            assertArrayEquals(Files.readAllBytes(tmp.resolve("arrays").resolve(files.name(row))), file, files.name(row));
            // in place: the frame's room ends with the file's header, the pixels follow it
            ByteBuffer m = frames.get(row).memory();
            int header = file.length - 4 * w * h;
            byte[] before = new byte[Math.max(0, header)];
            if (header > 0 && header <= frames.get(row).room()) m.get(frames.get(row).room() - header, before);
            boolean headerInFrame = header >= 0 && header <= frames.get(row).room()
                    && Arrays.equals(before, Arrays.copyOf(file, header));
            if (format.equals("tiff")) assertEquals(inPlace, headerInFrame, "the header written into the frame's room");
        }
    }

    /** An output as a prepared run finds it: the markers' folder, and the slices' own where the format has one. */
    private Path dir(String name, SliceFiles files) throws Exception {
        Path d = Files.createDirectories(tmp.resolve(name).resolve(OutputCommit.COMMITTED)).getParent();
        if (files.dir() != null) Files.createDirectories(d.resolve(files.dir()));
        return d;
    }
}
