package org.tomospark.job.outputs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that encode, checksum and commit slices, shared by every {@link SliceCommitPool} that uses them: the node's
 * writers ({@link #node}), one set per JVM for as long as it lives, so that on an executor the slices of every task go
 * through the same writers, sized for the node rather than for one task, and a task whose group is done has all of
 * them at once while the others read or compute. Each writer keeps one direct buffer, grown to the largest slice file
 * it has written: a slice is encoded into it once and written from it to a local file by one positioned write,
 * without a copy on the way.
 *
 * <p>Jobs are taken in the order they come, from every pool; a pool bounds how many of its own slices wait.
 */
public final class SliceWriters implements AutoCloseable {
    private static final AtomicInteger SETS = new AtomicInteger();
    private static SliceWriters node;

    /** One slice of one pool, as a writer takes it. */
    interface Job {
        /** Encodes, checksums and commits, using {@code buffer} if it is large enough; returns the buffer it used. */
        ByteBuffer run(ByteBuffer buffer);
    }

    private static final Job END = buffer -> buffer;

    private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private final int set;

    /** {@code threads} writers of their own (a direct engine's, a test's); {@link #close} stops them. */
    public SliceWriters(int threads) {
        if (threads < 1) throw new IllegalArgumentException("slice writers need at least one thread, not " + threads);
        this.set = SETS.incrementAndGet();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::work, "slice-writer-" + set + "-" + i);
            t.setDaemon(true);
            this.threads.add(t);
            t.start();
        }
    }

    /**
     * The node's writers, made at the first call with {@code threads} (the node's cores, as the caller counts them) and
     * kept for the JVM's life; a later call with more threads adds none (the node does not grow).
     */
    public static synchronized SliceWriters node(int threads) {
        if (node == null) node = new SliceWriters(Math.max(1, threads));
        return node;
    }

    public int threads() {
        return threads.size();
    }

    /** Which writers these are, for a report: the set's number in this JVM and its threads. */
    public String describe() {
        return "writer set " + set + " of " + threads.size() + " threads";
    }

    void submit(Job job) {
        queue.add(job);
    }

    /** Stops the writers once the jobs already given are done (never for the node's). */
    @Override
    public void close() {
        if (this == node) return;
        for (int i = 0; i < threads.size(); i++) queue.add(END);
        boolean interrupted = false;
        for (Thread t : threads) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    private void work() {
        ByteBuffer buffer = null;
        while (true) {
            Job j;
            try {
                j = queue.take();
            } catch (InterruptedException e) {
                continue; // only the end mark stops a writer
            }
            if (j == END) return;
            buffer = j.run(buffer);
        }
    }
}
