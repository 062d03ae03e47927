package org.tomospark.executor.pipeline;

import org.tomospark.executor.io.ProjectionSource;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads the slice groups of a run in order, one group ahead of their processing, on one background thread: while
 * group n is corrected, filtered and back-projected, group n+1 is being read. At most two bands are in memory (the
 * one being processed and the one being read). Read failures surface, with their own message, at {@link #next}.
 */
final class BandPrefetcher implements AutoCloseable {
    /** A band and the nanoseconds its read took (on the reader thread, not the time waited for it). */
    record Read(GroupPlanner.Group group, Workflow.Band band, long nanos) {
    }

    private final ProjectionSource src;
    private final Workflow workflow;
    private final List<GroupPlanner.Group> groups;
    private final ExecutorService reader;
    private Future<Read> ahead;
    private int next;

    BandPrefetcher(ProjectionSource src, Workflow workflow, List<GroupPlanner.Group> groups) {
        this.src = src;
        this.workflow = workflow;
        this.groups = List.copyOf(groups);
        this.reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tomospark-band-reader");
            t.setDaemon(true);
            return t;
        });
        if (!this.groups.isEmpty()) ahead = reader.submit(() -> read(this.groups.get(0)));
    }

    private Read read(GroupPlanner.Group g) {
        long t0 = System.nanoTime();
        Workflow.Band b = workflow.read(src, g.start(), g.rows());
        return new Read(g, b, System.nanoTime() - t0);
    }

    boolean hasNext() {
        return next < groups.size();
    }

    /** The next group's band (waiting for its read), with the read of the group after it started. */
    Read next() {
        Read r;
        try {
            r = ahead.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading slice groups", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
        next++;
        if (next < groups.size()) {
            GroupPlanner.Group g = groups.get(next);
            ahead = reader.submit(() -> read(g));
        }
        return r;
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
