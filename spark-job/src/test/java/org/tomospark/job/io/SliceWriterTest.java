package org.tomospark.job.io;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.job.ExitCode;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class SliceWriterTest {
    @TempDir
    Path tmp;

    static long filesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) return 0;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void aStreamedFileAppearsWholeOrNotAtAll() throws Exception {
        Path out = tmp.resolve("out");
        SliceWriter w = new SliceWriter(out.toString(), new Configuration());
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

    /** Hadoop's FSError, as the local file system throws it when a disk write fails (its constructor is not public). */
    static FSError fsError(IOException cause) throws Exception {
        Constructor<FSError> c = FSError.class.getDeclaredConstructor(Throwable.class);
        c.setAccessible(true);
        return c.newInstance(cause);
    }

    @Test
    void aFullDiskIsAnIoErrorNamingTheOutputAndTheFile() throws Exception {
        Path out = tmp.resolve("full");
        SliceWriter w = new SliceWriter(out.toString(), new Configuration());
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
