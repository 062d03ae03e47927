package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ConeResolution;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.backend.Operation;
import org.tomospark.executor.cone.SlabPlanner;
import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.Cancellation;

import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * What one executor does to one z-slab of a cone-beam volume once its band of detector rows is read: flat/dark
 * correction and −log (the parallel-beam preprocessor, row by row), FDK's weighting and ramp filtering of every
 * projection's band ({@link FdkFilter}; skipped for prefiltered projections), and the back-projection into the slab's
 * slices on the backend's device ({@link ConeBackprojector}). Deterministic: the same band gives the same slices,
 * whatever process runs it.
 */
final class ConeSlabProcessor implements AutoCloseable {
    private final ConeGeometry g;
    private final ConeVolume vol;
    private final ConeParams cone;
    private final FdkFilter filter;
    private final ConeBackprojector bp;
    private final Preprocessor preprocessor;
    private final int maxSlices;

    /**
     * @param backend   the run's backend, set up: its provider opens the back-projector ({@link Operation#FDK})
     * @param maxSlices the most slices a slab holds
     */
    ConeSlabProcessor(ConeParams cone, ReconstructionParams params, BackprojectionBackend backend, int maxSlices) {
        this.cone = cone;
        this.g = cone.geometry();
        this.vol = cone.volume();
        this.maxSlices = Math.min(maxSlices, vol.nz());
        this.preprocessor = params.preprocessor();
        this.filter = cone.prefiltered() ? null : new FdkFilter(g, params.algorithm().filter(), ConeResolution.ANGLES);
        this.bp = Backends.offering(backend.id(), Operation.FDK, "geometry=cone")
                .openFdk(g, vol, SlabPlanner.maxRows(g, vol, this.maxSlices), this.maxSlices, params.algorithm().backendOptions());
    }

    String description() {
        return bp.description() + (filter != null && bp.filtersOnDevice() ? ", FDK weighting and ramp filter on the device" : "");
    }

    /**
     * Slices [k0, k1) of the volume from their band of detector rows ({@link SlabPlanner}), every projection.
     *
     * @param band    projections of rows [first, first + count) of the slab's band
     * @param fields  the flats/darks of the same rows
     * @param outputs where the slices go (n × n arrays, overwritten)
     *                The stages run in parallel on the pool the caller runs this in (the task's threads).
     * @param cancel  asked between the stages (correction, filter, back-projection): once it says so, the slab throws
     */
    GroupResult process(int k0, int k1, RawStack band, FlatDark fields, String dataName, String flatName,
                        IntFunction<float[][]> outputs, Cancellation cancel) {
        if (k1 - k0 > maxSlices)
            throw new IllegalArgumentException("slab of " + (k1 - k0) + " slices exceeds the planned " + maxSlices);
        int[] planned = SlabPlanner.rows(g, vol, k0, k1);
        if (band.rows() != planned[1] || fields.rowStart() != planned[0])
            throw new IllegalArgumentException(dataName + ": slab " + k0 + ".." + (k1 - 1) + " needs detector rows " + planned[0] + ".."
                    + (planned[0] + planned[1] - 1) + " but a band of " + band.rows() + " rows from " + fields.rowStart() + " was read");
        if (band.frames() != g.numProjections())
            throw new IllegalArgumentException(dataName + ": " + band.frames() + " projections read but the geometry has "
                    + g.numProjections());
        int first = planned[0], rows = planned[1], cols = g.cols(), np = g.numProjections();
        long t0 = System.nanoTime();
        float[][] q;
        PreprocessStats stats;
        if (cone.prefiltered()) {
            q = new float[np][];
            IntStream.range(0, np).parallel().forEach(p -> q[p] = band.frame(p));
            stats = new PreprocessStats((long) np * rows * cols, 0, 0, 0);
        } else {
            Preprocessor.Frames pre = preprocessor.applyPerFrame(band, fields, dataName, flatName);
            q = pre.frames();
            stats = pre.stats();
        }
        cancel.check("slab " + k0 + ".." + (k1 - 1) + ", corrected");
        long t1 = System.nanoTime();
        // a device that filters takes the band unfiltered: the filter's time is then part of the back-projection's
        boolean onDevice = filter != null && bp.filtersOnDevice();
        if (filter != null && !onDevice) IntStream.range(0, np).parallel().forEach(p -> filter.apply(p, q[p], 0, first, rows));
        cancel.check("slab " + k0 + ".." + (k1 - 1) + ", filtered");
        long t2 = System.nanoTime();
        float[][] out = outputs.apply(k1 - k0);
        for (float[] o : out) Arrays.fill(o, 0f);
        if (onDevice) bp.backprojectFiltering(filter, q, first, rows, k0, out);
        else bp.backproject(q, first, rows, k0, out);
        long t3 = System.nanoTime();
        long updates = (long) vol.pixels() * np * (k1 - k0);
        return new GroupResult(k0, SliceFrame.wrap(out), vol.n(), vol.n(), stats, t1 - t0, t2 - t1, t3 - t2, updates);
    }

    @Override
    public void close() {
        bp.close();
    }
}
