package org.tomospark.job.outputs;

import org.tomospark.job.fs.HadoopConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.testing.Checksums;
import org.tomospark.job.ExitCode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** A pool that deadlocks fails its test instead of hanging the build. */
@Timeout(120)
class SliceCommitPoolTest {
    @TempDir
    Path tmp;

    static float[] slice(int w, int h, int row) {
        Random r = new Random(row);
        float[] px = new float[w * h];
        for (int i = 0; i < px.length; i++) px[i] = (float) r.nextGaussian();
        px[row % px.length] = Float.NaN;
        return px;
    }

    /** An output as a prepared run finds it: its directory and the markers' directory exist. */
    static OutputCommit output(Path dir) {
        try {
            Files.createDirectories(dir.resolve(OutputCommit.COMMITTED));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new OutputCommit(dir.toString(), HadoopConf.create());
    }

    /** Waits for a condition another thread brings about (not a timing assertion: the deadline only stops a hang). */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail("gave up waiting: " + what + "\n" + threadDump());
            Thread.sleep(2);
        }
    }

    static String threadDump() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, st) -> {
            b.append(t.getName()).append(' ').append(t.getState()).append('\n');
            for (StackTraceElement e : st) b.append("    ").append(e).append('\n');
        });
        return b.toString();
    }

    static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "latch never released");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static long temporaryFiles(Path out) throws Exception {
        return SliceWriterTest.filesUnder(out.resolve(SliceWriter.TEMP_DIR));
    }

    @Test
    void everySliceIsCommittedWithItsPixelsAndAMarkerOfItsBytes() throws Exception {
        Path dir = tmp.resolve("out");
        OutputCommit out = output(dir);
        int w = 61, h = 47, rows = 12;
        Map<Integer, float[]> sent = new HashMap<>();
        Map<Integer, OutputCommit.Committed> done;
        try (SliceCommitPool pool = new SliceCommitPool(out, 3, 2)) {
            for (int row = 100; row < 100 + rows; row++) {
                float[] px = slice(w, h, row);
                sent.put(row, px.clone());
                pool.submit(row, px, w, h);
            }
            done = pool.finish();
            SliceCommitPool.Timings t = pool.timings();
            assertEquals(rows, t.slices());
            long total = 0;
            for (int row : sent.keySet()) total += Files.size(dir.resolve(SliceWriter.sliceName(row)));
            assertEquals(total, t.bytes());
        }
        assertEquals(sent.keySet(), done.keySet());
        for (int row : sent.keySet()) {
            byte[] tif = Files.readAllBytes(dir.resolve(SliceWriter.sliceName(row)));
            FloatTiff.Image img = FloatTiff.decode(tif);
            assertEquals(w, img.width());
            assertEquals(h, img.height());
            for (int i = 0; i < w * h; i++)
                assertEquals(Float.floatToRawIntBits(sent.get(row)[i]), Float.floatToRawIntBits(img.pixels()[i]), "row " + row + " pixel "
                        + i);
            String sum = Checksums.crc32c(tif);
            assertEquals(new OutputCommit.Committed(row, sum, tif.length), done.get(row));
            assertEquals("2 " + sum + " " + tif.length + "\n",
                    Files.readString(dir.resolve(OutputCommit.markerName(row)), StandardCharsets.US_ASCII));
        }
        // what --resume trusts: every marker matches its slice
        assertEquals(done, out.verifiedCommitted(0, 1000));
        assertEquals(0, temporaryFiles(dir));
    }

    /** The pool writes the same files as committing each slice on the calling thread. */
    @Test
    void filesAreByteForByteThoseOfTheSingleThreadPath() throws Exception {
        int w = 40, h = 33;
        String description = "tomospark slice";
        OutputCommit serial = output(tmp.resolve("serial"));
        Map<Integer, OutputCommit.Committed> expected = new HashMap<>();
        try (SliceCommitPool pool = new SliceCommitPool(output(tmp.resolve("pool")), 2, 1, description, row -> {
        })) {
            for (int row = 0; row < 9; row++) {
                expected.put(row, serial.commitSlice(row, FloatTiff.encode(slice(w, h, row), w, h, description)));
                pool.submit(row, slice(w, h, row), w, h);
            }
            assertEquals(expected, pool.finish());
        }
        for (int row = 0; row < 9; row++)
            for (String name : List.of(SliceWriter.sliceName(row), OutputCommit.markerName(row)))
                assertArrayEquals(Files.readAllBytes(tmp.resolve("serial").resolve(name)),
                        Files.readAllBytes(tmp.resolve("pool").resolve(name)), name);
    }

    /** submit blocks once the workers each hold a slice and the queue is full: the pool never holds more than its bound. */
    @Test
    void submitBlocksWhenTheQueueIsFull() throws Exception {
        int threads = 2, queue = 3, w = 8, h = 8;
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch working = new CountDownLatch(threads);
        AtomicInteger accepted = new AtomicInteger();
        try (SliceCommitPool pool = new SliceCommitPool(output(tmp.resolve("out")), threads, queue, null, row -> {
            working.countDown();
            awaitLatch(release);
        })) {
            assertEquals(threads + queue, pool.maxSlicesHeld());
            Thread producer = new Thread(() -> {
                for (int row = 0; row < 20; row++) {
                    pool.submit(row, slice(w, h, row), w, h);
                    accepted.incrementAndGet();
                }
            });
            producer.start();
            assertTrue(working.await(30, TimeUnit.SECONDS));
            // with the workers held and the queue full, a waiting producer is blocked in its next submit
            await(() -> pool.queued() == queue && (producer.getState() == Thread.State.WAITING
                    || producer.getState() == Thread.State.TIMED_WAITING), "the producer blocks");
            assertEquals(pool.maxSlicesHeld(), accepted.get(), "slices accepted before submit blocked");
            release.countDown();
            producer.join();
            assertEquals(20, pool.finish().size());
        }
    }

    /**
     * A failing slice (here the run losing its claim on the output) stops the pool: the slice being written finishes, the
     * queued ones are cancelled, and submit and finish rethrow the first failure as it was.
     */
    @Test
    void aFailureLetsInFlightSlicesFinishAndCancelsQueuedOnes() throws Exception {
        Path dir = tmp.resolve("out");
        int w = 16, h = 4;
        CountDownLatch inFlight = new CountDownLatch(1), release = new CountDownLatch(1);
        OutputBusyException lost = new OutputBusyException(dir + ": this run lost its claim on the output");
        List<Integer> rowsAccepted = new ArrayList<>();
        RuntimeException seen = null;
        SliceCommitPool pool = new SliceCommitPool(output(dir), 2, 4, null, row -> {
            if (row == 0) {
                inFlight.countDown();
                awaitLatch(release);
            }
            if (row == 1) throw lost;
        });
        try {
            pool.submit(0, slice(w, h, 0), w, h);
            awaitLatch(inFlight);
            // row 1 fails on a worker; any submit from row 1 on may be the one that sees it first
            for (int row = 1; seen == null; row++) {
                try {
                    pool.submit(row, slice(w, h, row), w, h);
                    rowsAccepted.add(row);
                } catch (RuntimeException e) {
                    seen = e;
                }
            }
            assertSame(lost, seen);
            release.countDown();
            assertSame(lost, assertThrows(RuntimeException.class, pool::finish));
        } finally {
            pool.close();
        }
        assertTrue(Files.exists(dir.resolve(SliceWriter.sliceName(0))), "the slice in flight is committed");
        assertEquals(Map.of(0, pool.committed().get(0)), output(dir).verifiedCommitted(0, 1000));
        for (int row = 1; row <= rowsAccepted.size() + 1; row++) {
            assertFalse(Files.exists(dir.resolve(SliceWriter.sliceName(row))), "slice " + row);
            assertFalse(Files.exists(dir.resolve(OutputCommit.markerName(row))), "marker " + row);
        }
        assertEquals(0, temporaryFiles(dir));
        assertEquals(ExitCode.ENVIRONMENT, ExitCode.of(seen));
    }

    /** A write that fails names the output and the file, and leaves neither a partial slice nor a temporary file. */
    @Test
    void aFailedWriteNamesTheOutputAndTheFileAndLeavesNothingHalfWritten() throws Exception {
        Path dir = tmp.resolve("out");
        // a non-empty directory where slice 3 must go: the rename into place fails
        Files.createDirectories(dir.resolve(SliceWriter.sliceName(3)));
        Files.writeString(dir.resolve(SliceWriter.sliceName(3)).resolve("x"), "x");
        int w = 32, h = 32;
        UncheckedIOException e;
        try (SliceCommitPool pool = new SliceCommitPool(output(dir), 2, 2)) {
            e = assertThrows(UncheckedIOException.class, () -> {
                for (int row = 0; row < 8; row++) pool.submit(row, slice(w, h, row), w, h);
                pool.finish();
            });
        }
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("cannot write " + SliceWriter.sliceName(3)),
                e.getMessage());
        assertEquals(ExitCode.ENVIRONMENT, ExitCode.of(e));
        assertTrue(Files.isDirectory(dir.resolve(SliceWriter.sliceName(3))));
        assertFalse(Files.exists(dir.resolve(OutputCommit.markerName(3))));
        assertEquals(0, temporaryFiles(dir));
        // whatever else was committed before the failure is whole and verified
        Map<Integer, OutputCommit.Committed> kept = output(dir).verifiedCommitted(0, 8);
        assertFalse(kept.containsKey(3));
        try (var files = Files.list(dir)) {
            assertEquals(kept.size() + 1, files.filter(p -> SliceWriter.SLICE_NAME.matcher(p.getFileName().toString()).matches()).count());
        }
    }

    /** close() before finish() cancels the queued slices and returns only once the slice being written is done. */
    @Test
    void closeCancelsQueuedSlicesAndWaitsForTheOneInFlight() throws Exception {
        Path dir = tmp.resolve("out");
        int w = 8, h = 8;
        CountDownLatch inFlight = new CountDownLatch(1), release = new CountDownLatch(1);
        SliceCommitPool pool = new SliceCommitPool(output(dir), 1, 4, null, row -> {
            if (row == 0) {
                inFlight.countDown();
                awaitLatch(release);
            }
        });
        for (int row = 0; row < 5; row++) pool.submit(row, slice(w, h, row), w, h);
        awaitLatch(inFlight);
        Thread closer = new Thread(pool::close);
        closer.start();
        await(() -> closer.getState() == Thread.State.WAITING, "close() waits for the slice in flight");
        assertFalse(Files.exists(dir.resolve(SliceWriter.sliceName(0))));
        release.countDown();
        closer.join();
        assertEquals(List.of(0), new ArrayList<>(output(dir).verifiedCommitted(0, 5).keySet()));
        for (int row = 1; row < 5; row++) assertFalse(Files.exists(dir.resolve(SliceWriter.sliceName(row))), "slice " + row);
        assertThrows(CancellationException.class, pool::finish);
        IllegalStateException late = assertThrows(IllegalStateException.class, () -> pool.submit(9, new float[64], w, h));
        assertTrue(late.getMessage().contains("after the commit pool was finished or closed"), late.getMessage());
        pool.close();
    }

    /**
     * Pools on one set of writers (as an executor's tasks on the node's writers): every pool's slices are committed, a
     * pool whose slice fails stops alone, and closing a pool leaves the writers to the others.
     */
    @Test
    void poolsShareTheNodesWritersAndFailAlone() throws Exception {
        int w = 24, h = 20;
        try (SliceWriters writers = new SliceWriters(3)) {
            Map<String, Map<Integer, float[]>> sent = new ConcurrentHashMap<>();
            List<Thread> tasks = new ArrayList<>();
            for (String task : List.of("a", "b", "c")) {
                Path dir = tmp.resolve(task);
                Map<Integer, float[]> mine = new ConcurrentHashMap<>();
                sent.put(task, mine);
                tasks.add(new Thread(() -> {
                    try (SliceCommitPool pool = SliceCommitPool.on(writers, output(dir), 2, null, row -> {
                        if (task.equals("c") && row == 3) throw new IllegalStateException("task c: slice 3 fails");
                    })) {
                        for (int row = 0; row < 12; row++) {
                            float[] px = slice(w, h, row + task.charAt(0));
                            mine.put(row, px.clone());
                            pool.submit(row, px, w, h);
                        }
                        pool.finish();
                    } catch (IllegalStateException e) {
                        assertEquals("c", task, e.getMessage());
                    }
                }));
            }
            for (Thread t : tasks) t.start();
            for (Thread t : tasks) t.join();
            for (String task : List.of("a", "b")) {
                Map<Integer, OutputCommit.Committed> done = output(tmp.resolve(task)).verifiedCommitted(0, 100);
                assertEquals(12, done.size(), task);
                for (int row = 0; row < 12; row++) {
                    float[] back = FloatTiff.decode(Files.readAllBytes(tmp.resolve(task).resolve(SliceWriter.sliceName(row)))).pixels();
                    assertArrayEquals(sent.get(task).get(row), back, task + " " + row);
                }
            }
            assertFalse(output(tmp.resolve("c")).verifiedCommitted(0, 100).containsKey(3), "the failed slice of c");
            // the writers serve a later pool
            try (SliceCommitPool later = SliceCommitPool.on(writers, output(tmp.resolve("d")), 1, null, row -> {
            })) {
                later.submit(0, slice(w, h, 0), w, h);
                assertEquals(1, later.finish().size());
            }
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheirReason() {
        OutputCommit out = output(tmp.resolve("out"));
        assertThrows(IllegalArgumentException.class, () -> new SliceCommitPool(out, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new SliceCommitPool(out, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SliceCommitPool(out, 1, 1, "µm", row -> {
        }));
        try (SliceCommitPool pool = new SliceCommitPool(out, 1, 1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.submit(4, new float[10], 3, 3));
            assertTrue(e.getMessage().contains("slice 4 holds 10 values, expected 3x3"), e.getMessage());
            pool.submit(5, new float[9], 3, 3);
            e = assertThrows(IllegalArgumentException.class, () -> pool.submit(5, new float[9], 3, 3));
            assertTrue(e.getMessage().contains("slice 5 submitted twice"), e.getMessage());
            assertEquals(List.of(5), new ArrayList<>(pool.finish().keySet()));
        }
    }
}
