package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.RawSliceBatch;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.Cancellation;

import java.util.concurrent.ForkJoinPool;

/**
 * Filtered back-projection: the ramp filter on the host (none where the backend filters on its device), then the
 * backend's multi-slice back-projection into frames it fills. For raw counts that a backend corrects on its device, all
 * of it there ({@link #reconstructRaw}).
 */
final class FbpMethod implements SinogramMethod {
    private final ScanGeometry scan;
    private final SliceGeometry slice;
    private final BackprojectionBackend backend;
    private final RampFilter filter;
    private final GroupFrames frames;
    private final ForkJoinPool pool;
    private final int rowBin;

    /**
     * @param scan   the effective geometry (after binning and stitching)
     * @param filter the host's ramp filter, or null where the sinograms reach the backend unfiltered
     * @param pool   where the host filter runs (null: the common pool)
     */
    FbpMethod(ScanGeometry scan, SliceGeometry slice, BackprojectionBackend backend, RampFilter filter, GroupFrames frames,
              ForkJoinPool pool, int rowBin) {
        this.scan = scan;
        this.slice = slice;
        this.backend = backend;
        this.filter = filter;
        this.frames = frames;
        this.pool = pool;
        this.rowBin = rowBin;
    }

    @Override
    public GroupResult reconstruct(CorrectedGroup g, Cancellation cancel) {
        long t1 = System.nanoTime();
        float[][] sinos = g.sinograms();
        if (filter != null) for (float[] s : sinos) filter.filterRows(s, scan.numProjections(), pool);
        cancel.check("slice group at row " + g.firstRow() + ", filtered");
        long t2 = System.nanoTime();
        SliceFrame[] out = backproject(g.firstRow(), sinos, filter != null, cancel);
        long t3 = System.nanoTime();
        long updates = (long) slice.pixels() * scan.numProjections() * sinos.length;
        return new GroupResult(g.firstRow() / rowBin, out, slice.roiCols(), slice.roiRows(), g.stats(), g.preprocessNanos(),
                t2 - t1, t3 - t2, updates);
    }

    /** Back-projects corrected sinograms (filtered or not, as the backend expects). */
    SliceFrame[] backproject(int firstRow, float[][] sinos, boolean filtered, Cancellation cancel) {
        SliceFrame[] out = frames.forBackend(sinos.length);
        SliceBatch batch = new SliceBatch(firstRow, sinos, scan.numProjections(), scan.detectorWidth(), filtered, cancel);
        frames.givingBack(out, () -> {
            backend.process(batch, out);
            return 0L;
        });
        return out;
    }

    /**
     * A group whose only sinogram stage is the flat/dark correction, on a backend that corrects on its device: the raw
     * counts go to the device as they are (half the bytes of float sinograms) and the host only prepares the flat-field
     * rows. The counts are checked against preprocess.maxRepairFraction as on the host.
     */
    GroupResult reconstructRaw(int firstRow, RawStack band, FlatDark fields, Preprocessor preprocessor, String dataName,
                               String flatName, Cancellation cancel) {
        long t0 = System.nanoTime();
        Preprocessor.Fields f = preprocessor.fields(fields, flatName);
        int n = band.rows();
        SliceFrame[] out = frames.forBackend(n);
        long t1 = System.nanoTime();
        RawSliceBatch batch = new RawSliceBatch(firstRow, band, 0, n, f.dark(), f.den(), preprocessor.transmissionFloor(), cancel);
        long clamped = frames.givingBack(out, () -> backend.processRaw(batch, out));
        long t2 = System.nanoTime();
        int np = scan.numProjections();
        PreprocessStats stats = preprocessor.stats(f, (long) np * n * band.width(), np, clamped, 0, dataName, fields);
        long updates = (long) slice.pixels() * np * n;
        return new GroupResult(firstRow, out, slice.roiCols(), slice.roiRows(), stats, t1 - t0, 0, t2 - t1, updates);
    }
}
