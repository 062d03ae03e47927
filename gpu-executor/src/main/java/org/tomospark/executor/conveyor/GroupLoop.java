package org.tomospark.executor.conveyor;

import org.tomospark.executor.pipeline.GroupResult;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.PipelineTimes;
import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.preprocess.PreprocessStats;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * The single-machine run's groups, taken in order from the {@link BandPrefetcher} by one or more lanes: each lane has a
 * processor of its own and processes one group at a time, then hands its slices to the sink. With two lanes on one GPU,
 * one group's host copies and its pipeline's fill and drain overlap the other's kernels, as Spark's tasks sharing a GPU
 * do. The first failure stops the lanes from taking new groups and is thrown once every lane has stopped; a further
 * lane whose processor cannot be set up (a small GPU's memory) is dropped with a warning, and the others take its
 * groups. Totals are summed over the lanes.
 */
final class GroupLoop {
    private static final Logger LOG = LoggerFactory.getLogger(GroupLoop.class);
    private static final AtomicInteger LANE_NUMBER = new AtomicInteger();
    private final BandPrefetcher reads;
    private final SliceSink sink;
    private final IntPredicate skip;
    private final VolumeReconstructor.Progress progress;
    private final int total;
    private final long start;
    private final String dataName, flatName;
    private final Object sinkLock = new Object();
    private volatile boolean failed;
    private final AtomicInteger lanesRun = new AtomicInteger(1);

    // totals, guarded by this
    private long readNs, preNs, filtNs, bpNs, updates;
    private long firstReadNs, readWaitNs, processNs, sinkNs;
    private PreprocessStats stats = PreprocessStats.ZERO;
    private Convergence convergence = Convergence.none();
    private PipelineTimes device = PipelineTimes.NONE;
    private int done, skipped;

    GroupLoop(BandPrefetcher reads, SliceSink sink, IntPredicate skip, VolumeReconstructor.Progress progress, int total,
              int done, int skipped, long start, String dataName, String flatName) {
        this.reads = reads;
        this.sink = sink;
        this.skip = skip;
        this.progress = progress;
        this.total = total;
        this.done = done;
        this.skipped = skipped;
        this.start = start;
        this.dataName = dataName;
        this.flatName = flatName;
    }

    /**
     * Runs every group: lane one on {@code first} in the calling thread, the other {@code lanes − 1} each on a thread and
     * a processor of its own from {@code more} (closed when its lane ends).
     */
    void run(SliceGroupProcessor first, int lanes, Supplier<SliceGroupProcessor> more) {
        lanesRun.set(Math.max(1, lanes));
        if (lanes <= 1) {
            lane(first, true);
            return;
        }
        ExecutorService threads = Executors.newFixedThreadPool(lanes - 1, r -> {
            Thread t = new Thread(r, "tomospark-group-lane-" + LANE_NUMBER.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Throwable failure = null;
        try {
            List<Future<?>> others = new ArrayList<>();
            for (int k = 1; k < lanes; k++)
                others.add(threads.submit(() -> {
                    SliceGroupProcessor p;
                    try {
                        p = more.get();
                    } catch (RuntimeException e) {
                        // a further processor that cannot be set up (a small GPU's memory) leaves its groups to the
                        // lanes that run: the first lane's processor is already set up, and the report counts the lanes
                        LOG.warn("a further group lane could not set up its processor; the run goes on without it", e);
                        lanesRun.decrementAndGet();
                        return;
                    }
                    try (SliceGroupProcessor proc = p) {
                        lane(proc, false);
                    } catch (RuntimeException | Error e) {
                        failed = true;
                        throw e;
                    }
                }));
            try {
                lane(first, true);
            } catch (RuntimeException | Error e) {
                failed = true;
                failure = e;
            }
            for (Future<?> f : others) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (failure == null) failure = e.getCause();
                    else if (failure != e.getCause()) failure.addSuppressed(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failed = true;
                    if (failure == null) failure = new IllegalStateException("interrupted while the group lanes ran", e);
                }
            }
        } finally {
            threads.shutdownNow();
        }
        if (failure instanceof RuntimeException r) throw r;
        if (failure instanceof Error e) throw e;
        if (failure != null) throw new IllegalStateException(failure);
    }

    private void lane(SliceGroupProcessor proc, boolean firstLane) {
        PipelineTimes before = proc.backend().pipelineTimes();
        try {
            groups(proc, firstLane);
        } finally {
            PipelineTimes mine = minus(proc.backend().pipelineTimes(), before);
            synchronized (this) {
                device = device.plus(mine);
            }
        }
    }

    private static PipelineTimes minus(PipelineTimes a, PipelineTimes b) {
        return new PipelineTimes(a.computeNanos() - b.computeNanos(), a.stageNanos() - b.stageNanos(), a.waitNanos() - b.waitNanos(),
                a.batchNanos() - b.batchNanos(), a.chunks() - b.chunks());
    }

    private void groups(SliceGroupProcessor proc, boolean firstLane) {
        boolean firstGroup = true;
        while (!failed) {
            long w0 = System.nanoTime();
            BandPrefetcher.Read read;
            synchronized (reads) {
                if (!reads.hasNext()) return;
                read = reads.next();
            }
            long w1 = System.nanoTime();
            GroupResult res = proc.process(read.group(), read.band(), dataName, flatName);
            read.band().projections().release(); // processed: a later band is read into its array
            long w2 = System.nanoTime();
            int computedSkipped = 0;
            synchronized (sinkLock) {
                for (int i = 0; i < res.slices().length; i++) {
                    int row = res.firstRow() + i;
                    if (skip != null && skip.test(row)) {
                        computedSkipped++;
                        proc.recycle(res.slices()[i]); // done already: its frame serves a later group
                    } else {
                        sink.accept(row, res.slices()[i], res.width(), res.height());
                    }
                }
            }
            long w3 = System.nanoTime();
            synchronized (this) {
                if (firstLane && firstGroup) firstReadNs += w1 - w0;
                else readWaitNs += w1 - w0;
                processNs += w2 - w1;
                sinkNs += w3 - w2;
                readNs += read.nanos();
                preNs += res.preprocessNanos();
                filtNs += res.filterNanos();
                bpNs += res.backprojectNanos();
                updates += res.updates();
                stats = stats.plus(res.preprocess());
                convergence = convergence.plus(res.convergence());
                skipped += computedSkipped;
                done += res.slices().length;
                if (progress != null) progress.update(done, total, updates, System.nanoTime() - start);
            }
            firstGroup = false;
        }
    }

    synchronized long readNanos() {
        return readNs;
    }

    synchronized long preprocessNanos() {
        return preNs;
    }

    synchronized long filterNanos() {
        return filtNs;
    }

    synchronized long backprojectNanos() {
        return bpNs;
    }

    synchronized long updates() {
        return updates;
    }

    synchronized PreprocessStats stats() {
        return stats;
    }

    synchronized Convergence convergence() {
        return convergence;
    }

    synchronized int skipped() {
        return skipped;
    }

    /** The lanes that ran: those asked for, less those whose processor could not be set up. */
    int lanesRun() {
        return lanesRun.get();
    }

    synchronized VolumeReconstructor.Waits waits() {
        return new VolumeReconstructor.Waits(lanesRun(), firstReadNs, readWaitNs, processNs, sinkNs, device);
    }
}
