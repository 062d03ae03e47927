package org.tomospark.executor.conveyor;

import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.Workflow;
import org.tomospark.executor.inputs.ProjectionSource;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads the slice groups of a run in order, {@code depth} groups ahead of their processing, on one background thread:
 * while group n is corrected, filtered and back-projected, groups n+1 … n+depth are being read, one after the other. At
 * most depth + the groups being processed bands are in memory. Read failures surface, with their own message, at
 * {@link #next}. With several lanes taking groups ({@link GroupLoop}), a depth of one per lane keeps the reader
 * streaming instead of waiting for each request.
 */
final class BandPrefetcher implements AutoCloseable {
    /** A band and the nanoseconds its read took (on the reader thread, not the time waited for it). */
    record Read(GroupPlanner.Group group, Workflow.Band band, long nanos) {
    }

    private final ProjectionSource src;
    private final Workflow workflow;
    private final List<GroupPlanner.Group> groups;
    private final ExecutorService reader;
    private final ArrayDeque<Future<Read>> ahead = new ArrayDeque<>();
    private int next, submitted;

    BandPrefetcher(ProjectionSource src, Workflow workflow, List<GroupPlanner.Group> groups) {
        this(src, workflow, groups, 1);
    }

    BandPrefetcher(ProjectionSource src, Workflow workflow, List<GroupPlanner.Group> groups, int depth) {
        this.src = src;
        this.workflow = workflow;
        this.groups = List.copyOf(groups);
        this.reader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tomospark-band-reader");
            t.setDaemon(true);
            return t;
        });
        while (submitted < Math.min(Math.max(1, depth), this.groups.size())) submitNext();
    }

    private void submitNext() {
        GroupPlanner.Group g = groups.get(submitted++);
        ahead.add(reader.submit(() -> read(g)));
    }

    private Read read(GroupPlanner.Group g) {
        long t0 = System.nanoTime();
        Workflow.Band b = workflow.read(src, g.start(), g.rows());
        return new Read(g, b, System.nanoTime() - t0);
    }

    boolean hasNext() {
        return next < groups.size();
    }

    /** The next group's band (waiting for its read), with the read of a further group started. */
    Read next() {
        Read r;
        try {
            r = ahead.poll().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading slice groups", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
        next++;
        if (submitted < groups.size()) submitNext();
        return r;
    }

    @Override
    public void close() {
        reader.shutdownNow();
    }
}
