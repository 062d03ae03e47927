package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;

import java.util.concurrent.ForkJoinPool;

/**
 * Everything one executor does to one slice group after reading it: flat/dark correction and −log,
 * ramp filtering (on the host unless the backend filters on its device), and multi-slice back-projection.
 * Deterministic: the same inputs give bit-identical slices, whatever process runs it.
 */
public final class SliceGroupProcessor implements AutoCloseable {
    private final ScanGeometry scan;
    private final SliceGeometry slice;
    private final Preprocessor preprocessor;
    private final RampFilter filter;
    private final BackprojectionBackend backend;
    private final Requisition requisition;
    private final int maxRows;
    private final boolean ownsBackend;
    private final ForkJoinPool pool;

    /**
     * @param backend     a backend after {@code setup}; validated here for this geometry
     * @param ownsBackend close the backend with this processor
     */
    public SliceGroupProcessor(ScanGeometry scan, SliceGeometry slice, ReconstructionParams params,
                               BackprojectionBackend backend, int maxRows, boolean ownsBackend) {
        this.scan = scan;
        this.slice = slice;
        this.preprocessor = params.preprocessor();
        this.backend = backend;
        this.maxRows = maxRows;
        this.ownsBackend = ownsBackend;
        this.requisition = backend.validate(new BackprojectionJob(scan, slice, maxRows, params.filter()));
        this.filter = requisition.filtersOnDevice() ? null : new RampFilter(scan.detectorWidth(), scan.numProjections(), params.filter());
        int threads = params.backendOptions().effectiveThreads();
        this.pool = threads == ForkJoinPool.commonPool().getParallelism() ? null : new ForkJoinPool(threads);
    }

    public Requisition requisition() {
        return requisition;
    }

    public BackprojectionBackend backend() {
        return backend;
    }

    /** Reconstructs the band's rows. {@code band} frames = projections; {@code fields} covers the same rows. */
    public GroupResult process(int firstRow, RawStack band, FlatDark fields, String dataName, String flatName) {
        if (band.frames() != scan.numProjections())
            throw new IllegalArgumentException(dataName + ": " + band.frames() + " projections read but the geometry has "
                    + scan.numProjections() + " angles");
        if (band.width() != scan.detectorWidth())
            throw new IllegalArgumentException(dataName + ": rows are " + band.width() + " wide but the geometry says "
                    + scan.detectorWidth());
        if (band.rows() > maxRows)
            throw new IllegalArgumentException("slice group of " + band.rows() + " rows exceeds the planned " + maxRows);
        long t0 = System.nanoTime();
        Preprocessor.Result pre = preprocessor.apply(band, fields, dataName, flatName);
        long t1 = System.nanoTime();
        float[][] sinos = pre.sinograms();
        if (filter != null) for (float[] s : sinos) filter.filterRows(s, scan.numProjections(), pool);
        long t2 = System.nanoTime();
        float[][] out = backproject(firstRow, sinos, filter != null);
        long t3 = System.nanoTime();
        long updates = (long) slice.pixels() * scan.numProjections() * sinos.length;
        return new GroupResult(firstRow, out, slice.roiCols(), slice.roiRows(), pre.stats(), t1 - t0, t2 - t1, t3 - t2, updates);
    }

    /** Back-projects already corrected sinograms (filtered or not, as the backend expects). */
    public float[][] backproject(int firstRow, float[][] sinos, boolean filtered) {
        float[][] out = new float[sinos.length][slice.pixels()];
        backend.process(new SliceBatch(firstRow, sinos, scan.numProjections(), scan.detectorWidth(), filtered), out);
        return out;
    }

    @Override
    public void close() {
        if (pool != null) pool.shutdown();
        if (ownsBackend) backend.close();
    }
}
