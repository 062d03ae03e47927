package org.tomospark.executor.inputs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The thread pool of band reads, and the file channel's positioned reads. */
class ParallelReadsTest {
    @TempDir
    Path tmp;

    @Test
    void everyItemIsReadOnceWhateverTheThreads() throws IOException {
        for (int threads : new int[]{1, 2, 5, 64}) {
            AtomicIntegerArray reads = new AtomicIntegerArray(1000);
            AtomicInteger workers = new AtomicInteger();
            ParallelReads.run(threads, 1000, () -> {
                workers.incrementAndGet();
                return reads::incrementAndGet;
            });
            for (int i = 0; i < 1000; i++) assertEquals(1, reads.get(i), "item " + i + " with " + threads + " threads");
            assertTrue(workers.get() >= 1 && workers.get() <= threads, workers + " workers for " + threads + " threads");
        }
    }

    /** The first failure reaches the caller, and no thread is still reading when it does. */
    @Test
    void aFailureStopsTheReadAndReachesTheCaller() {
        IOException bad = new IOException("bad item");
        AtomicInteger inside = new AtomicInteger();
        IOException e = assertThrows(IOException.class, () -> ParallelReads.run(4, 10_000, () -> item -> {
            inside.incrementAndGet();
            try {
                if (item == 17) throw bad;
            } finally {
                inside.decrementAndGet();
            }
        }));
        assertSame(bad, e);
        assertEquals(0, inside.get(), "a thread was still reading after the call returned");
        IllegalStateException bug = new IllegalStateException("bug");
        assertSame(bug, assertThrows(IllegalStateException.class, () -> ParallelReads.run(3, 5, () -> item -> {
            throw bug;
        })));
    }

    @Test
    void readingPastTheEndNamesTheFileAndTheByte() throws IOException {
        Path f = tmp.resolve("ten.bin");
        Files.write(f, new byte[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        try (FileChannelRangeReader r = FileChannelRangeReader.open(f)) {
            ByteBuffer b = r.buffer(4);
            r.readFully(6, b);
            assertEquals(9, b.get(3));
            EOFException e = assertThrows(EOFException.class, () -> r.readFully(8, r.buffer(4)));
            assertEquals(f + ": unexpected end of file at byte 10 (the file has 10 bytes); truncated?", e.getMessage());
        }
    }
}
