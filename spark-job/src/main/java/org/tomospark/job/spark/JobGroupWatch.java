package org.tomospark.job.spark;

import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.tomospark.executor.util.Cancellation;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Watches the caller's job group for a cancel while the driver works alone (the centre search, planning, a sweep):
 * Spark acts on a group's cancel only through the jobs the group has at that moment, so a notebook's Cancel during such
 * work would find no job and be lost. The watch keeps one job of one waiting task in the group; the group's cancel
 * ends that job, and the watch says so. {@link #close} ends the job (its task stops at once). Without a job group
 * (a command line's run) there is no job, and only the thread's interrupt counts.
 */
public final class JobGroupWatch implements Cancellation, AutoCloseable {
    private static final long POLL_MS = 50;
    private final SparkContext sc;
    private final JavaFutureAction<Void> job;
    private final Thread caller = Thread.currentThread();
    private volatile boolean closed;

    private JobGroupWatch(SparkContext sc, JavaFutureAction<Void> job) {
        this.sc = sc;
        this.job = job;
    }

    /** A watch of no job group (a context this process started has none): only the thread's interrupt counts. */
    public static JobGroupWatch none() {
        return new JobGroupWatch(null, null);
    }

    /** Starts watching the calling thread's job group, if it has one. */
    public static JobGroupWatch start(SparkContext sc) {
        if (sc.getLocalProperty(JobScope.GROUP) == null) return new JobGroupWatch(sc, null);
        String description = sc.getLocalProperty(JobScope.DESCRIPTION);
        sc.setLocalProperty(JobScope.DESCRIPTION, "tomospark: the driver's own work (centre, plan, sweep); cancel stops it");
        try {
            JavaFutureAction<Void> job = JavaSparkContext.fromSparkContext(sc).parallelize(List.of(0), 1).foreachAsync(x -> {
                TaskContext tc = TaskContext.get();
                while (!tc.isInterrupted()) Thread.sleep(POLL_MS);
            });
            return new JobGroupWatch(sc, job);
        } finally {
            sc.setLocalProperty(JobScope.DESCRIPTION, description);
        }
    }

    /** Whether the group was cancelled (or the calling thread interrupted) since the watch started. */
    @Override
    public boolean requested() {
        return caller.isInterrupted() || (job != null && !closed && job.isDone());
    }

    /**
     * Runs {@code body} on a thread of its own and returns its result, or throws a {@link CancellationException} as soon
     * as the group is cancelled: the caller returns at once, and the body, interrupted, is left to end by itself. Only
     * for work that writes nothing (reading the input, searching, planning), or that asks this watch before it writes.
     */
    public <T> T await(String what, Supplier<T> body) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tomospark-driver-work");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<T> f = thread.submit(body::get);
            while (true) {
                try {
                    return f.get(POLL_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (requested()) {
                        f.cancel(true);
                        check(what);
                    }
                } catch (InterruptedException e) {
                    f.cancel(true);
                    Thread.currentThread().interrupt();
                    throw new CancellationException(what + ": interrupted");
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException r) throw r;
                    if (c instanceof Error err) throw err;
                    throw new IllegalStateException(what + ": " + c.getMessage(), c);
                }
            }
        } finally {
            thread.shutdown();
        }
    }

    /**
     * Ends the watch once the run's own job is in the group (so that the group always has a job a cancel can reach);
     * throws a {@link CancellationException} if the group was cancelled before, which the run's job then missed.
     */
    public void release(String what) {
        boolean cancelled = requested();
        close();
        if (cancelled) throw new CancellationException(what + ": cancelled");
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (job != null && !job.isDone()) job.cancel(true);
    }
}
