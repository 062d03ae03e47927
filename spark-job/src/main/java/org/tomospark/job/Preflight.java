package org.tomospark.job;

import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The checks both engines run before they touch the output, for what would otherwise fail half-way through a run:
 * the flat/dark denominators of every group, and the first and last rows of the projections (read, and their repairs
 * counted as the preprocessing counts them, {@link Preprocessor#check}: which catches a file cut short and unusable
 * data). The rows a binned run can reconstruct are checked by {@link GroupPlanner#binnedRange}.
 */
public final class Preflight {
    private Preflight() {
    }

    /**
     * Applies the run's preprocessor to the flats of every group of {@code groupRows} rows in {@code range} (so a flat
     * not above its dark fails here, naming the dataset) and to the first and last rows of the projections.
     * {@code fields} must cover the range.
     */
    public static void check(ProjectionSource src, ReconstructionParams params, FlatDark fields, int[] range, int groupRows) {
        checkIterative(src, params);
        check(src, params, fields, range, groupRows, readRows(src, params, range));
    }

    /**
     * Starts reading the flats and darks of rows [fromRow, fromRow + rows) on a thread of its own: {@link Ahead#check}
     * reads the projection rows the check needs meanwhile, and checks both.
     */
    public static Ahead start(ProjectionSource src, ReconstructionParams params, int fromRow, int rows) {
        checkIterative(src, params);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tomospark-flats-and-darks");
            t.setDaemon(true);
            return t;
        });
        try {
            return new Ahead(src, params, thread.submit(() -> src.readFlatDark(fromRow, rows)));
        } finally {
            thread.shutdown();
        }
    }

    /** The flats and darks being read, and what the check needs besides. */
    public static final class Ahead {
        private final ProjectionSource src;
        private final ReconstructionParams params;
        private final Future<FlatDark> fields;
        private int[] rowsRange;
        private Rows rows;

        private Ahead(ProjectionSource src, ReconstructionParams params, Future<FlatDark> fields) {
            this.src = src;
            this.params = params;
            this.fields = fields;
        }

        /**
         * Reads the projection rows the check of {@code range} needs now, while the flats and darks are read (for a driver
         * that learns the group size later); a failure to read them is reported by {@link #check}, after the flats'.
         */
        public Ahead readRows(int[] range) {
            rows = Preflight.readRows(src, params, range);
            rowsRange = range.clone();
            return this;
        }

        /**
         * Reads the projection rows of the check while the flats and darks are read (unless {@link #readRows} read them for
         * this range), then checks as {@link Preflight#check} does, with the same errors first (a bad flat before a bad
         * row): the flats and darks.
         */
        public FlatDark check(int[] range, int groupRows) {
            Rows r = rows != null && Arrays.equals(rowsRange, range) ? rows : Preflight.readRows(src, params, range);
            FlatDark f;
            try {
                f = fields.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException re) throw re;
                if (e.getCause() instanceof Error err) throw err;
                throw new IllegalStateException(src.flatName() + ": " + e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException e) {
                fields.cancel(true);
                Thread.currentThread().interrupt();
                throw new CancellationException("reading the flats and darks of " + src.flatName() + ": interrupted");
            }
            Preflight.check(src, params, f, range, groupRows, r);
            return f;
        }
    }

    /** The projection rows the check reads, by row, or why they could not be read. */
    private record Rows(Map<Integer, RawStack> bands, RuntimeException failure) {
    }

    /** The first and last rows of the range (for a cone-beam run, of the detector rows its slabs project to). */
    private static Rows readRows(ProjectionSource src, ReconstructionParams params, int[] range) {
        int[] r = checkedRange(params, range);
        Map<Integer, RawStack> bands = new TreeMap<>();
        try {
            for (int row : new TreeSet<>(List.of(r[0], r[1] - 1))) bands.put(row, src.readProjections(row, 1));
            return new Rows(bands, null);
        } catch (RuntimeException e) {
            return new Rows(bands, e);
        }
    }

    /** The rows a run reads: the range, or a cone-beam run's detector rows, which its slabs project to. */
    private static int[] checkedRange(ReconstructionParams params, int[] range) {
        ConeParams cone = params.coneBeam();
        if (cone == null) return range;
        int[] band = SlabPlanner.rows(cone.geometry(), cone.volume(), range[0], range[1]);
        return new int[]{band[0], band[0] + band[1]};
    }

    private static void check(ProjectionSource src, ReconstructionParams params, FlatDark fields, int[] range, int groupRows,
                              Rows rows) {
        ConeParams cone = params.coneBeam();
        if (cone != null) {
            // a cone-beam run reads the detector rows its slabs project to: those are checked, in bands of 64 rows
            range = checkedRange(params, range);
            groupRows = 64;
            if (cone.prefiltered()) {
                if (rows.failure() != null) throw rows.failure();
                return;
            }
        }
        Preprocessor pre = params.preprocessor();
        for (int s = range[0]; s < range[1]; s += groupRows) {
            int n = Math.min(groupRows, range[1] - s);
            FlatDark sub = fields.subBand(s - fields.rowStart(), n);
            pre.check(sub.flatFrame(), sub, src.flatName(), src.flatName());
        }
        if (rows.failure() != null) throw rows.failure();
        for (Map.Entry<Integer, RawStack> e : rows.bands().entrySet())
            pre.check(e.getValue(), fields.subBand(e.getKey() - fields.rowStart(), 1), src.dataName(), src.flatName());
    }

    /** MLTR needs the flats (its counts are flat − dark times the transmission), and subsets need enough projections. */
    static void checkIterative(ProjectionSource src, ReconstructionParams params) {
        IterativeParams it = params.algorithm().iterative();
        if (!it.iterative()) return;
        ScanMetadata meta = src.metadata();
        if (it.algorithm() == Algorithm.MLTR && meta.numFlats() == 0)
            throw new IllegalArgumentException("config key algorithm=mltr needs flats (the unattenuated counts), but "
                    + "the scan has none (" + src.flatName() + "): use sirt or cgls");
        if (it.stop() == StopRule.Rule.DISCREPANCY && meta.numFlats() == 0)
            throw new IllegalArgumentException("config key iterative.stop=discrepancy measures the noise by the flats' counts, but "
                    + "the scan has none (" + src.flatName() + "): use change");
        it.checkProjections(params.effectiveGeometry(meta).numProjections());
    }
}
