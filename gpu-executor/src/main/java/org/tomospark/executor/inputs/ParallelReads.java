package org.tomospark.executor.inputs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs the items of one band read on up to N threads: the caller's own thread and N-1 threads of a shared pool
 * of daemon threads (kept for a minute when idle, so the next band reuses them). The helpers come out of the node's
 * read slots, one per processor, shared by every read of the JVM: a band read while the node is otherwise idle gets
 * every core, and reads that overlap (an executor's tasks) share them instead of each starting N threads. Items are
 * taken in order from a shared counter, so threads that finish early take more. The first failure stops the others from taking new
 * items, and the call returns only when every thread has stopped, so nothing writes into the result after it
 * returns.
 */
final class ParallelReads {
    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tomospark-read-" + THREAD_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /** Helper threads the node's reads may run at once, beside their callers' own threads. */
    private static volatile Semaphore slots = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
    private static volatile int nodeCores = Runtime.getRuntime().availableProcessors();

    private ParallelReads() {
    }

    /**
     * The node's cores, as the caller counts them (an executor's share of its machine): the read slots become one fewer
     * than these. Reads under way finish on the slots they took.
     */
    static synchronized void nodeCores(int cores) {
        if (cores < 1 || cores == nodeCores) return;
        nodeCores = cores;
        slots = new Semaphore(Math.max(1, cores - 1));
    }

    /** One thread's reader: its scratch buffers are its own. */
    @FunctionalInterface
    interface Worker {
        void read(int item) throws IOException;
    }

    /**
     * Reads items 0..items-1. {@code workers} is called once on each thread that takes part, so each gets its own
     * scratch state.
     */
    static void run(int threads, int items, Supplier<Worker> workers) throws IOException {
        if (items <= 0) return;
        int n = Math.max(1, Math.min(threads, items));
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable loop = () -> {
            try {
                Worker w = workers.get();
                for (int i; failure.get() == null && (i = next.getAndIncrement()) < items; ) w.read(i);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };
        Semaphore node = slots;
        int taken = 0;
        while (taken < n - 1 && node.tryAcquire()) taken++;
        List<Future<?>> helpers = new ArrayList<>(taken);
        try {
            for (int k = 0; k < taken; k++) helpers.add(POOL.submit(loop));
            loop.run();
            waitFor(helpers, failure);
        } finally {
            node.release(taken);
        }
        Throwable t = failure.get();
        if (t == null) return;
        if (t instanceof IOException io) throw io;
        if (t instanceof RuntimeException re) throw re;
        if (t instanceof Error e) throw e;
        throw new IOException(t);
    }

    /** Waits for every helper: they write into the caller's array, so none may outlive the call. */
    private static void waitFor(List<Future<?>> helpers, AtomicReference<Throwable> failure) {
        boolean interrupted = false;
        for (Future<?> f : helpers) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    // stop the helpers taking new items, then still wait for them: they write into the caller's array
                    interrupted = true;
                    failure.compareAndSet(null, new InterruptedIOException("interrupted while reading"));
                } catch (ExecutionException e) {
                    failure.compareAndSet(null, e.getCause());
                    break;
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
