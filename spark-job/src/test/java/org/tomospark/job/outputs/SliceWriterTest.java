package org.tomospark.job.outputs;

import org.tomospark.job.fs.HadoopConf;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSError;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.job.ExitCode;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SliceWriterTest {
    @TempDir
    Path tmp;

    static long filesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    /**
     * The three ways a local output is written: java.nio (Hadoop's raw local file system, as the engines configure it),
     * the same file system through Hadoop's API, and Hadoop's checksummed local file system (.crc side files).
     */
    static SliceWriter writer(Path out, String way) {
        return switch (way) {
            case "nio" -> new SliceWriter(out.toString(), HadoopConf.create());
            case "hadoop-raw" -> new SliceWriter(out.toString(), HadoopConf.create(), true);
            case "hadoop-checksummed" -> new SliceWriter(out.toString(), new Configuration());
            default -> throw new IllegalArgumentException(way);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "hadoop-raw", "hadoop-checksummed"})
    void aStreamedFileAppearsWholeOrNotAtAll(String way) throws Exception {
        Path out = tmp.resolve("out");
        SliceWriter w = writer(out, way);
        w.writeStream("volume.raw", os -> {
            for (int i = 0; i < 3; i++) os.write(new byte[]{(byte) i, 7});
        });
        assertArrayEquals(new byte[]{0, 7, 1, 7, 2, 7}, Files.readAllBytes(out.resolve("volume.raw")));
        // a body that fails half-way: the earlier file stays as it was, no partial temporary is left
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> w.writeStream("volume.raw", os -> {
            os.write(new byte[1 << 20]);
            throw new IOException("disk full");
        }));
        assertTrue(e.getMessage().contains("cannot write volume.raw") && e.getMessage().contains("disk full"), e.getMessage());
        assertArrayEquals(new byte[]{0, 7, 1, 7, 2, 7}, Files.readAllBytes(out.resolve("volume.raw")));
        assertEquals(0, filesUnder(out.resolve(SliceWriter.TEMP_DIR)), "temporary files left behind");
        // an unchecked failure (a slice that cannot be read back) cleans up the same way and keeps its message
        IllegalStateException u = assertThrows(IllegalStateException.class, () -> w.writeStream("other.raw", os -> {
            os.write(1);
            throw new IllegalStateException("slice 5 unreadable");
        }));
        assertEquals("slice 5 unreadable", u.getMessage());
        assertFalse(Files.exists(out.resolve("other.raw")));
        assertEquals(0, filesUnder(out.resolve(SliceWriter.TEMP_DIR)));
    }

    /** A retried attempt renames its file over the first one's; the checksummed file system keeps a .crc beside it. */
    @ParameterizedTest
    @ValueSource(strings = {"nio", "hadoop-raw", "hadoop-checksummed"})
    void anotherAttemptReplacesTheFileInOneStep(String way) throws Exception {
        Path out = tmp.resolve("out");
        writer(out, way).writeBytes("slice_00001.tif", new byte[]{1, 2, 3});
        writer(out, way).writeBytes("slice_00001.tif", new byte[]{4, 5});
        assertArrayEquals(new byte[]{4, 5}, Files.readAllBytes(out.resolve("slice_00001.tif")));
        assertEquals(0, filesUnder(out.resolve(SliceWriter.TEMP_DIR)));
        assertEquals(way.equals("hadoop-checksummed"), Files.exists(out.resolve(".slice_00001.tif.crc")));
    }

    /** Hadoop's FSError, as the local file system throws it when a disk write fails (its constructor is not public). */
    static FSError fsError(IOException cause) throws Exception {
        Constructor<FSError> c = FSError.class.getDeclaredConstructor(Throwable.class);
        c.setAccessible(true);
        return c.newInstance(cause);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "hadoop-raw", "hadoop-checksummed"})
    void aFullDiskIsAnIoErrorNamingTheOutputAndTheFile(String way) throws Exception {
        Path out = tmp.resolve("full");
        SliceWriter w = writer(out, way);
        FSError full = fsError(new IOException("No space left on device"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> w.writeStream("slice_00003.tif", os -> {
            os.write(new byte[4096]);
            throw full;
        }));
        assertTrue(e.getMessage().contains(out.getFileName().toString()) && e.getMessage().contains("cannot write slice_00003.tif")
                && e.getMessage().contains("No space left on device"), e.getMessage());
        assertEquals(ExitCode.ENVIRONMENT, ExitCode.of(e));
        assertFalse(Files.exists(out.resolve("slice_00003.tif")));
        assertEquals(0, filesUnder(out.resolve(SliceWriter.TEMP_DIR)), "temporary files left behind");
    }
}
