package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;

/**
 * Runs a {@link CenterFinder} method on a scan: reads a band of up to {@code rows} detector rows around the
 * middle of the requested row range, corrects it (flat/dark, −log) and searches. This is what the driver
 * does once, before planning, when the centre is {@code auto}; the centre found then goes into the
 * parameters every task receives.
 */
public final class CenterSearch {
    private CenterSearch() {
    }

    /** Corrected −log sinograms of rows [rowStart, rowStart+rows). */
    public static float[][] sinograms(ProjectionSource src, Preprocessor pre, int rowStart, int rows) {
        RawStack band = src.readProjections(rowStart, rows);
        FlatDark fd = src.readFlatDark(rowStart, rows);
        return pre.apply(band, fd, src.dataName(), src.flatName()).sinograms();
    }

    /** The centre of the scan by {@code method}, from up to {@code rows} rows around the middle of the params' row range. */
    public static CenterFinder.Result find(ProjectionSource src, ReconstructionParams params, CenterFinder.Method method,
                                           int rows, double searchRadius) {
        ScanMetadata meta = src.metadata();
        ScanGeometry scan = params.scanGeometry(meta);
        int[] range = params.rowRange(meta);
        int n = Math.max(1, Math.min(rows, range[1] - range[0]));
        int start = (range[0] + range[1]) / 2 - n / 2;
        start = Math.max(range[0], Math.min(start, range[1] - n));
        float[][] s = sinograms(src, params.preprocessor(), start, n);
        return CenterFinder.find(method, s, scan.numProjections(), scan.detectorWidth(), scan.anglesRad(), searchRadius);
    }
}
