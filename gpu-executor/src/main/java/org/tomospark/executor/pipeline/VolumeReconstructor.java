package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.executor.preprocess.RawStack;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * The single-machine reconstruction: reads each slice group from a {@link ProjectionSource}, runs the
 * {@link SliceGroupProcessor} and hands every slice to a {@link SliceSink}. The Spark job runs the same
 * {@link SliceGroupProcessor} per task, so both give bit-identical slices.
 */
public final class VolumeReconstructor {

    /** Progress callback: slices done, total, voxel updates so far, elapsed nanoseconds. */
    @FunctionalInterface
    public interface Progress {
        void update(int slicesDone, int slicesTotal, long updates, long elapsedNanos);
    }

    /** What a run did. */
    public record Summary(ScanGeometry scan, SliceGeometry slice, int slices, int skipped, long updates, long elapsedNanos,
                          long readNanos, long preprocessNanos, long filterNanos, long backprojectNanos,
                          PreprocessStats preprocess, String backend, String device, String variant) {
        public double gups() {
            return elapsedNanos == 0 ? 0 : updates / (double) elapsedNanos;
        }

        public double backprojectGups() {
            return backprojectNanos == 0 ? 0 : updates / (double) backprojectNanos;
        }
    }

    /** Default rows per group when the parameters leave it to the planner. */
    public static int defaultGroupRows(ReconstructionParams p, ScanMetadata meta) {
        if (p.groupRows() > 0) return p.groupRows();
        int k = p.backendOptions().preferredGroupMultiple();
        // about 256 MiB of raw rows per group, at least one pass, at most 64 rows
        long perRow = Math.max(1, meta.bytesPerRow());
        int rows = (int) Math.max(k, Math.min(64, (256L << 20) / perRow));
        return Math.max(k, rows / k * k);
    }

    /**
     * @param skip slices (detector rows) already done, e.g. committed by an earlier run; null for none
     */
    public static Summary run(ProjectionSource src, ReconstructionParams params, SliceSink sink, Progress progress,
                              IntPredicate skip) {
        ScanMetadata meta = src.metadata();
        ScanGeometry scan = params.scanGeometry(meta);
        SliceGeometry slice = params.sliceGeometry(meta);
        int[] range = params.rowRange(meta);
        int groupRows = defaultGroupRows(params, meta);
        List<GroupPlanner.Group> groups = GroupPlanner.plan(range[0], range[1], groupRows, params.backendOptions().groupMultiple());
        int total = range[1] - range[0];
        long start = System.nanoTime();
        long readNs = 0, preNs = 0, filtNs = 0, bpNs = 0, updates = 0;
        int done = 0, skipped = 0;
        PreprocessStats stats = PreprocessStats.ZERO;
        BackprojectionBackend backend = Backends.open(params.backend(), params.backendOptions());
        String device = backend.deviceDescription();
        try (SliceGroupProcessor proc = new SliceGroupProcessor(scan, slice, params, backend, groupRows, true)) {
            String variant = proc.requisition().description();
            for (GroupPlanner.Group g : groups) {
                boolean all = true;
                for (int r = g.start(); r < g.end(); r++) all &= skip != null && skip.test(r);
                if (all) {
                    skipped += g.rows();
                    done += g.rows();
                    continue;
                }
                long t0 = System.nanoTime();
                RawStack band = src.readProjections(g.start(), g.rows());
                FlatDark fd = FlatDark.average(g.start(), src.readFlats(g.start(), g.rows()), src.readDarks(g.start(), g.rows()),
                        src.flatName(), src.darkName());
                readNs += System.nanoTime() - t0;
                GroupResult res = proc.process(g.start(), band, fd, src.dataName(), src.flatName());
                preNs += res.preprocessNanos();
                filtNs += res.filterNanos();
                bpNs += res.backprojectNanos();
                updates += res.updates();
                stats = stats.plus(res.preprocess());
                for (int i = 0; i < res.slices().length; i++) {
                    int row = g.start() + i;
                    if (skip != null && skip.test(row)) {
                        skipped++;
                    } else {
                        sink.accept(row, res.slices()[i], res.width(), res.height());
                    }
                    done++;
                }
                if (progress != null) progress.update(done, total, updates, System.nanoTime() - start);
            }
            return new Summary(scan, slice, total, skipped, updates, System.nanoTime() - start, readNs, preNs, filtNs, bpNs,
                    stats, backend.id(), device, variant);
        }
    }
}
