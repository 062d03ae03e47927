package org.tomospark.job.io;

import org.apache.spark.TaskContext;
import org.tomospark.executor.io.SampleCoding;
import org.tomospark.executor.io.TiffEncoder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Commits slices on a few worker threads: each slice is encoded as a TIFF ({@link TiffEncoder}), checksummed and
 * committed by {@link OutputCommit#commitSlice} (written under {@code _temporary/}, renamed into place, then its
 * marker), while the caller goes on computing the next ones.
 *
 * <p>Memory is bounded: {@link #submit} takes ownership of the pixel array and blocks while {@code queueSlices} slices
 * wait, so the pool holds at most {@link #maxSlicesHeld()} pixel arrays, plus one encoding buffer per worker
 * ({@link #maxBytesHeld}).
 *
 * <p>Failures: the first failure of any slice cancels the slices still queued, lets the ones being written finish
 * (each whole or absent, as {@link SliceWriter} guarantees), and is rethrown as it was (its message names the output and
 * the file) by the next {@link #submit} and by {@link #finish}. {@link #close} without {@link #finish} cancels the queued
 * slices and waits for the ones in flight, so nothing is written into the output after it returns.
 */
public final class SliceCommitPool implements AutoCloseable {
    /**
     * What the pool did: slices and TIFF bytes committed, the time its workers spent encoding, hashing and writing
     * (slice and marker, each written and renamed), summed over the workers, and its wall time from the first submit to
     * the last commit.
     */
    public record Timings(int slices, long bytes, long encodeNanos, long hashNanos, long writeNanos, long wallNanos) {
        /** Committed bytes per second of wall time, in GB/s. */
        public double gigabytesPerSecond() {
            return wallNanos == 0 ? 0 : bytes / (double) wallNanos;
        }

        /** The writers' busy time, summed over them: encoding, hashing, writing and committing. */
        public long busyNanos() {
            return encodeNanos + hashNanos + writeNanos;
        }
    }

    private record Job(int row, float[] pixels, int width, int height) {
    }

    private static final Job END = new Job(-1, null, 0, 0);

    private final OutputCommit out;
    private final String description;
    private final SampleCoding coding;
    private final IntConsumer beforeEachCommit;
    private final Consumer<float[]> afterEncode;
    private final int threads, queueSlices;
    private final BlockingQueue<Job> queue;
    private final List<Thread> workers = new ArrayList<>();
    private final Set<Integer> submitted = ConcurrentHashMap.newKeySet();
    private final Map<Integer, OutputCommit.Committed> committed = new ConcurrentSkipListMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final LongAdder encodeNanos = new LongAdder(), hashNanos = new LongAdder(), writeNanos = new LongAdder(),
            bytes = new LongAdder();
    private final AtomicLong firstSubmit = new AtomicLong(), lastCommit = new AtomicLong();
    private volatile boolean cancelled, ended;
    private boolean joined;

    /** A pool of {@code threads} workers and at most {@code queueSlices} waiting slices; TIFFs without description. */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices) {
        this(out, threads, queueSlices, null, row -> {
        });
    }

    /**
     * @param description      the TIFFs' ImageDescription (ASCII), null for none
     * @param beforeEachCommit run by a worker with the slice's row before it writes the slice; what it throws fails the
     *                         pool like a failed write (e.g. a check that this run still owns the output)
     */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices, String description, IntConsumer beforeEachCommit) {
        this(out, threads, queueSlices, description, beforeEachCommit, pixels -> {
        });
    }

    /**
     * As above; {@code afterEncode} gets each slice's pixel array once its TIFF is encoded, when the pool no longer
     * reads it (to be reused for a later slice).
     */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices, String description, IntConsumer beforeEachCommit,
                           Consumer<float[]> afterEncode) {
        this(out, threads, queueSlices, description, SampleCoding.FLOAT32, beforeEachCommit, afterEncode);
    }

    /** As above, the slices' samples stored in {@code coding}. */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices, String description, SampleCoding coding,
                           IntConsumer beforeEachCommit, Consumer<float[]> afterEncode) {
        if (threads < 1) throw new IllegalArgumentException("a slice commit pool needs at least one thread, not " + threads);
        if (queueSlices < 1) throw new IllegalArgumentException("a slice commit pool needs room for at least one waiting slice, not "
                + queueSlices);
        TiffEncoder.size(1, 1, description); // refuses a description a TIFF cannot hold, before any slice
        this.out = out;
        this.description = description;
        this.coding = coding;
        this.beforeEachCommit = beforeEachCommit;
        this.afterEncode = afterEncode;
        this.threads = threads;
        this.queueSlices = queueSlices;
        this.queue = new ArrayBlockingQueue<>(queueSlices);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::work, "slice-commit-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    /**
     * Writer threads for this JVM's share of the CPUs: inside a Spark task the task's CPUs ({@code spark.task.cpus}),
     * elsewhere every available processor.
     */
    public static int defaultThreads() {
        TaskContext task = TaskContext.get();
        return task != null ? Math.max(1, task.cpus()) : Runtime.getRuntime().availableProcessors();
    }

    /**
     * Bytes a pool of these dimensions holds at most for slices of {@code width × height}: its pixel arrays (waiting
     * slices and one per worker) and one TIFF buffer per worker. The caller's own array, while it waits in
     * {@link #submit}, is not counted.
     */
    public static long maxBytesHeld(int threads, int queueSlices, int width, int height, String description) {
        return (long) (queueSlices + threads) * 4L * width * height + (long) threads * TiffEncoder.size(width, height, description);
    }

    /** Pixel arrays the pool holds at most: the waiting slices and one per worker. */
    public int maxSlicesHeld() {
        return queueSlices + threads;
    }

    /** Slices waiting for a worker now. */
    public int queued() {
        int n = 0;
        for (Job j : queue) if (j != END) n++;
        return n;
    }

    public int threads() {
        return threads;
    }

    public int queueSlices() {
        return queueSlices;
    }

    /**
     * Queues slice {@code row} for commit; the pool owns {@code pixels} from now on. Blocks while the queue is full.
     * Throws the pool's first failure, if there was one. Calls from several threads are taken one at a time.
     */
    public synchronized void submit(int row, float[] pixels, int width, int height) {
        if (ended) throw new IllegalStateException(out.dir() + ": slice " + row
                + " submitted after the commit pool was finished or closed");
        if (width <= 0 || height <= 0 || pixels.length != (long) width * height)
            throw new IllegalArgumentException(out.dir() + ": slice " + row + " holds " + pixels.length + " values, expected "
                    + width + "x" + height);
        rethrowFailure();
        if (!submitted.add(row)) throw new IllegalArgumentException(out.dir() + ": slice " + row + " submitted twice");
        firstSubmit.compareAndSet(0, System.nanoTime());
        try {
            queue.put(new Job(row, pixels, width, height));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            throw new CancellationException(out.dir() + ": interrupted while waiting to commit " + SliceWriter.sliceName(row));
        }
        rethrowFailure();
    }

    /**
     * Waits until every submitted slice is committed; returns them by row, or throws the first failure. After
     * {@link #close} it throws, as the slices still queued then were cancelled.
     */
    public synchronized Map<Integer, OutputCommit.Committed> finish() {
        end();
        rethrowFailure();
        if (cancelled) throw new CancellationException(out.dir() + ": the commit pool was closed before all its slices were committed");
        return Collections.unmodifiableMap(new TreeMap<>(committed));
    }

    /** Slices committed so far, by row (all of them once {@link #finish} has returned). */
    public Map<Integer, OutputCommit.Committed> committed() {
        return Collections.unmodifiableMap(new TreeMap<>(committed));
    }

    public Timings timings() {
        long first = firstSubmit.get(), last = lastCommit.get();
        return new Timings(committed.size(), bytes.sum(), encodeNanos.sum(), hashNanos.sum(), writeNanos.sum(),
                first == 0 || last < first ? 0 : last - first);
    }

    /** Cancels the slices still queued and waits for those being written; does nothing after {@link #finish}. */
    @Override
    public synchronized void close() {
        if (joined) return;
        cancel();
        end();
    }

    /**
     * The queued slices are skipped: each worker drops them as it takes them, so a blocked submit goes on at once.
     * Nothing is removed from the queue instead: {@code ArrayBlockingQueue.removeIf} does not wake a producer blocked in
     * {@code put}.
     */
    private void cancel() {
        cancelled = true;
    }

    /** No more slices: every worker gets an end mark after the queued slices, and the pool waits for them. */
    private void end() {
        if (joined) return;
        ended = true;
        boolean interrupted = false;
        for (int i = 0; i < workers.size(); ) {
            try {
                queue.put(END);
                i++;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        for (Thread t : workers) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        joined = true;
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void work() {
        byte[] tiff = new byte[0];
        while (true) {
            Job j;
            try {
                j = queue.take();
            } catch (InterruptedException e) {
                continue; // only the end mark stops a worker
            }
            if (j == END) return;
            if (cancelled || failure.get() != null) continue;
            try {
                long t0 = System.nanoTime();
                int size = out.files().size(j.width(), j.height(), description, coding);
                if (tiff.length != size) tiff = new byte[size];
                int length = out.files().encodeInto(j.pixels(), j.width(), j.height(), description, coding, tiff);
                byte[] file = length == tiff.length ? tiff : Arrays.copyOf(tiff, length);
                afterEncode.accept(j.pixels());
                long t1 = System.nanoTime();
                String sha = OutputCommit.checksum(file);
                long t2 = System.nanoTime();
                beforeEachCommit.accept(j.row());
                committed.put(j.row(), out.commitSlice(j.row(), file, sha));
                long t3 = System.nanoTime();
                encodeNanos.add(t1 - t0);
                hashNanos.add(t2 - t1);
                writeNanos.add(t3 - t2);
                bytes.add(length);
                lastCommit.accumulateAndGet(t3, Math::max);
            } catch (Throwable t) {
                fail(t);
            }
        }
    }

    private void fail(Throwable t) {
        if (!failure.compareAndSet(null, t) && failure.get() != t) failure.get().addSuppressed(t);
    }

    private void rethrowFailure() {
        Throwable t = failure.get();
        if (t == null) return;
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(out.dir() + ": " + t.getMessage(), t);
    }
}
