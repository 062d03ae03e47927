package org.tomospark.job.outputs;

import org.apache.spark.TaskContext;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.TiffEncoder;
import org.tomospark.executor.memory.SliceFrame;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Commits the slices of one run or one slice group through {@link SliceWriters}: each slice's file is written from its
 * direct frame as it is, the header put in the frame's room ({@link SliceFiles#fileInFrame}: float32 TIFFs and raw
 * chunks), or else encoded once into a writer's direct buffer ({@link SliceFiles#encodeInto}); then checksummed (CRC32C,
 * {@link SliceChecksum}) and committed by
 * {@link OutputCommit#commitSlice} (written under {@code _temporary/}, renamed into place, then its marker), while the
 * caller goes on computing the next ones. The writers are the pool's own ({@code threads} of them) or the node's,
 * shared with every other pool of the JVM ({@link #shared}).
 *
 * <p>Memory is bounded: {@link #submit} takes ownership of the slice's frame and blocks while {@code queueSlices} of
 * this pool's slices wait for a writer, so the pool holds at most {@link #maxSlicesHeld()} frames, and each writer one
 * direct buffer of one slice's file ({@link #maxBytesHeld}). A frame goes back through {@code afterEncode} once nothing
 * reads it: after its encoding, or after its write where the file was written from the frame itself.
 *
 * <p>Failures: the first failure of any slice cancels this pool's slices still waiting, lets the ones being written
 * finish (each whole or absent, as {@link SliceWriter} guarantees), and is rethrown as it was (its message names the
 * output and the file) by the next {@link #submit} and by {@link #finish}. Other pools on the same writers go on.
 * {@link #close} without {@link #finish}, and an interrupt of a thread waiting in {@link #finish} (a Spark task
 * killed), cancel the waiting slices and wait for the ones in flight, so nothing is written into the output after it
 * returns.
 */
public final class SliceCommitPool implements AutoCloseable {
    /**
     * What the pool did: slices and bytes committed, the time its writers spent encoding, checksumming and writing
     * (slice and marker, each written and renamed), summed over the writers, its wall time from the first submit to
     * the last commit, and the slices whose files were written from their frames as they were (no encoding).
     */
    public record Timings(int slices, long bytes, long encodeNanos, long hashNanos, long writeNanos, long wallNanos, int fromFrames) {
        /** Committed bytes per second of wall time, in GB/s. */
        public double gigabytesPerSecond() {
            return wallNanos == 0 ? 0 : bytes / (double) wallNanos;
        }

        /** The writers' busy time, summed over them: encoding, checksumming, writing and committing. */
        public long busyNanos() {
            return encodeNanos + hashNanos + writeNanos;
        }
    }

    private final OutputCommit out;
    private final String description;
    private final SampleCoding coding;
    private final IntConsumer beforeEachCommit;
    private final Consumer<SliceFrame> afterEncode;
    private final SliceWriters writers;
    private final boolean ownWriters;
    private final int queueSlices;
    /** One permit per slice that may wait for a writer; a writer that takes a slice gives its permit back. */
    private final Semaphore waiting;
    private final Set<Integer> submitted = ConcurrentHashMap.newKeySet();
    private final Map<Integer, OutputCommit.Committed> committed = new ConcurrentSkipListMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final LongAdder encodeNanos = new LongAdder(), hashNanos = new LongAdder(), writeNanos = new LongAdder(),
            bytes = new LongAdder(), fromFrames = new LongAdder();
    private final AtomicLong firstSubmit = new AtomicLong(), lastCommit = new AtomicLong();
    /** Slices submitted and not yet done (committed, failed or skipped), guarded by {@link #lock}. */
    private int outstanding;
    /** Guards {@link #outstanding} apart from the pool's own monitor, which a blocked {@link #submit} holds. */
    private final Object lock = new Object();
    private volatile boolean cancelled, ended;
    private boolean closed;

    /** A pool of {@code threads} writers of its own and at most {@code queueSlices} waiting slices; TIFFs without description. */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices) {
        this(out, threads, queueSlices, null, row -> {
        });
    }

    /**
     * @param description      the TIFFs' ImageDescription (ASCII), null for none
     * @param beforeEachCommit run by a writer with the slice's row before it writes the slice; what it throws fails the
     *                         pool like a failed write (e.g. a check that this run still owns the output)
     */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices, String description, IntConsumer beforeEachCommit) {
        this(out, threads, queueSlices, description, beforeEachCommit, pixels -> {
        });
    }

    /**
     * As above; {@code afterEncode} gets each slice's frame once the pool no longer reads it (to be reused for a later
     * slice), written or not.
     */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices, String description, IntConsumer beforeEachCommit,
                           Consumer<SliceFrame> afterEncode) {
        this(out, threads, queueSlices, description, SampleCoding.FLOAT32, beforeEachCommit, afterEncode);
    }

    /** As above, the slices' samples stored in {@code coding}. */
    public SliceCommitPool(OutputCommit out, int threads, int queueSlices, String description, SampleCoding coding,
                           IntConsumer beforeEachCommit, Consumer<SliceFrame> afterEncode) {
        this(out, ownWriters(threads, queueSlices, description), true, queueSlices, description, coding, beforeEachCommit,
                afterEncode);
    }

    /**
     * A pool on the node's writers ({@link SliceWriters#node}, made with {@code nodeThreads} at the JVM's first use),
     * shared with every other pool of the JVM; closing it leaves them running.
     */
    public static SliceCommitPool shared(OutputCommit out, int nodeThreads, int queueSlices, String description,
                                         SampleCoding coding, IntConsumer beforeEachCommit, Consumer<SliceFrame> afterEncode) {
        return new SliceCommitPool(out, SliceWriters.node(nodeThreads), false, queueSlices, description, coding, beforeEachCommit,
                afterEncode);
    }

    /** A pool on {@code writers}, which it shares: closing it leaves them running. */
    public static SliceCommitPool on(SliceWriters writers, OutputCommit out, int queueSlices, String description,
                                     IntConsumer beforeEachCommit) {
        return new SliceCommitPool(out, writers, false, queueSlices, description, SampleCoding.FLOAT32, beforeEachCommit,
                pixels -> {
                });
    }

    private SliceCommitPool(OutputCommit out, SliceWriters writers, boolean ownWriters, int queueSlices, String description,
                            SampleCoding coding, IntConsumer beforeEachCommit, Consumer<SliceFrame> afterEncode) {
        checkArguments(queueSlices, description);
        this.out = out;
        this.description = description;
        this.coding = coding;
        this.beforeEachCommit = beforeEachCommit;
        this.afterEncode = afterEncode;
        this.writers = writers;
        this.ownWriters = ownWriters;
        this.queueSlices = queueSlices;
        this.waiting = new Semaphore(queueSlices);
    }

    /** The pool's own writers, once its arguments are known to be good (so that a refused pool leaves no thread). */
    private static SliceWriters ownWriters(int threads, int queueSlices, String description) {
        if (threads < 1) throw new IllegalArgumentException("a slice commit pool needs at least one thread, not " + threads);
        checkArguments(queueSlices, description);
        return new SliceWriters(threads);
    }

    private static void checkArguments(int queueSlices, String description) {
        if (queueSlices < 1)
            throw new IllegalArgumentException("a slice commit pool needs room for at least one waiting slice, not " + queueSlices);
        TiffEncoder.size(1, 1, description); // refuses a description a TIFF cannot hold, before any slice
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
     * slices and one per writer) and one file buffer per writer. The caller's own array, while it waits in
     * {@link #submit}, is not counted.
     */
    public static long maxBytesHeld(int threads, int queueSlices, int width, int height, String description) {
        return (long) (queueSlices + threads) * 4L * width * height + (long) threads * TiffEncoder.size(width, height, description);
    }

    /** Pixel arrays the pool holds at most: the waiting slices and one per writer. */
    public int maxSlicesHeld() {
        return queueSlices + writers.threads();
    }

    /** Slices of this pool waiting for a writer now. */
    public int queued() {
        return queueSlices - waiting.availablePermits();
    }

    public int threads() {
        return writers.threads();
    }

    /** The writers this pool commits on ({@link SliceWriters#describe}). */
    public String writers() {
        return writers.describe();
    }

    public int queueSlices() {
        return queueSlices;
    }

    /**
     * Queues slice {@code row} for commit; the pool owns {@code pixels} from now on. Blocks while {@code queueSlices} of
     * this pool's slices wait. Throws the pool's first failure, if there was one. Calls from several threads are taken
     * one at a time.
     */
    public void submit(int row, float[] pixels, int width, int height) {
        submit(row, SliceFrame.wrap(pixels), width, height);
    }

    /** As above, the slice in a frame (a direct frame's file is written from the frame where it can be). */
    public synchronized void submit(int row, SliceFrame pixels, int width, int height) {
        if (ended) throw new IllegalStateException(out.dir() + ": slice " + row
                + " submitted after the commit pool was finished or closed");
        if (width <= 0 || height <= 0 || pixels.pixels() != (long) width * height)
            throw new IllegalArgumentException(out.dir() + ": slice " + row + " holds " + pixels.pixels() + " values, expected "
                    + width + "x" + height);
        rethrowFailure();
        if (!submitted.add(row)) throw new IllegalArgumentException(out.dir() + ": slice " + row + " submitted twice");
        firstSubmit.compareAndSet(0, System.nanoTime());
        try {
            while (!waiting.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                rethrowFailure();
                if (cancelled) throw new CancellationException(out.dir() + ": the commit pool was cancelled");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            throw new CancellationException(out.dir() + ": interrupted while waiting to commit " + SliceWriter.sliceName(row));
        }
        synchronized (lock) {
            outstanding++;
        }
        writers.submit(buffer -> commit(row, pixels, width, height, buffer));
        rethrowFailure();
    }

    /**
     * A writer's work on one slice: everything but the skip is timed and counted. The frame goes back once nothing reads
     * it: after the encoding, or after the write where the file is the frame's own memory.
     */
    private ByteBuffer commit(int row, SliceFrame pixels, int width, int height, ByteBuffer buffer) {
        waiting.release();
        ByteBuffer b = buffer;
        boolean handedBack = false;
        try {
            if (cancelled || failure.get() != null) return b;
            long t0 = System.nanoTime();
            ByteBuffer file = out.files().fileInFrame(pixels, width, height, description, coding);
            if (file == null) {
                int size = out.files().size(width, height, description, coding);
                if (b == null || b.capacity() < size) b = ByteBuffer.allocateDirect(size);
                out.files().encodeInto(pixels.floats(), width, height, description, coding, b);
                handedBack = true;
                afterEncode.accept(pixels);
                file = b;
            }
            boolean inPlace = file != b;
            int length = file.remaining();
            long t1 = System.nanoTime();
            String sum = SliceChecksum.crc32c(file);
            long t2 = System.nanoTime();
            beforeEachCommit.accept(row);
            committed.put(row, out.commitSlice(row, file, sum));
            long t3 = System.nanoTime();
            encodeNanos.add(t1 - t0);
            hashNanos.add(t2 - t1);
            writeNanos.add(t3 - t2);
            bytes.add(length);
            if (inPlace) fromFrames.increment();
            lastCommit.accumulateAndGet(t3, Math::max);
        } catch (Throwable t) {
            fail(t);
        } finally {
            try {
                if (!handedBack) afterEncode.accept(pixels);
            } finally {
                done();
            }
        }
        return b;
    }

    private void done() {
        synchronized (lock) {
            outstanding--;
            lock.notifyAll();
        }
    }

    /**
     * Waits until every submitted slice is committed; returns them by row, or throws the first failure. After
     * {@link #close} it throws, as the slices still waiting then were cancelled.
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
                first == 0 || last < first ? 0 : last - first, fromFrames.intValue());
    }

    /** Cancels the slices still waiting and waits for those being written; does nothing after {@link #finish}. */
    @Override
    public synchronized void close() {
        if (closed) return;
        if (!ended) cancel();
        end();
    }

    /** The waiting slices are skipped: each writer drops them as it takes them. */
    private void cancel() {
        cancelled = true;
    }

    /** No more slices: waits until every one submitted is done, then lets the pool's own writers go. */
    private synchronized void end() {
        if (closed) return;
        ended = true;
        boolean interrupted = false;
        synchronized (lock) {
            while (outstanding > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    // a killed task: its slices not yet taken by a writer are dropped, the ones being written finish
                    interrupted = true;
                    cancel();
                }
            }
        }
        closed = true;
        if (ownWriters) writers.close();
        if (interrupted) Thread.currentThread().interrupt();
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
