package org.tomospark.job;

import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.pipeline.ConeParams;
import org.tomospark.executor.pipeline.ReconstructionParams;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;

import java.util.List;
import java.util.TreeSet;

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
        ConeParams cone = params.coneBeam();
        if (cone != null) {
            // a cone-beam run reads the detector rows its slabs project to: those are checked, in bands of 64 rows
            int[] band = SlabPlanner.rows(cone.geometry(), cone.volume(), range[0], range[1]);
            range = new int[]{band[0], band[0] + band[1]};
            groupRows = 64;
            if (cone.prefiltered()) {
                for (int row : new TreeSet<>(List.of(range[0], range[1] - 1))) src.readProjections(row, 1);
                return;
            }
        }
        Preprocessor pre = params.preprocessor();
        for (int s = range[0]; s < range[1]; s += groupRows) {
            int n = Math.min(groupRows, range[1] - s);
            FlatDark sub = fields.subBand(s - fields.rowStart(), n);
            pre.check(sub.flatFrame(), sub, src.flatName(), src.flatName());
        }
        for (int row : new TreeSet<>(List.of(range[0], range[1] - 1))) {
            RawStack band = src.readProjections(row, 1);
            pre.check(band, fields.subBand(row - fields.rowStart(), 1), src.dataName(), src.flatName());
        }
    }

    /** MLTR needs the flats (its counts are flat − dark times the transmission), and subsets need enough projections. */
    static void checkIterative(ProjectionSource src, ReconstructionParams params) {
        IterativeParams it = params.iterative();
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
