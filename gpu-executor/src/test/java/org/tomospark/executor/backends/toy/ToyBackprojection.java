package org.tomospark.executor.backends.toy;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendStats;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.BatchContract;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.SliceGeometry;

/**
 * FBP back-projection one pixel at a time: the sum over projections of the filtered sinogram at t = offset(p) + x·cos −
 * y·sin (the geometry's {@link ProjectionTables}), linear or nearest, zero beyond the detector.
 */
final class ToyBackprojection implements BackprojectionBackend {
    private BackendOptions options;
    private BackprojectionJob job;
    private ProjectionTables tables;
    private BackendStats stats = BackendStats.ZERO;

    @Override
    public String id() {
        return ToyBackendProvider.ID;
    }

    @Override
    public void setup(BackendOptions options) {
        if (options.format() != SampleFormat.FLOAT32)
            throw new IllegalArgumentException("toy backend: float32 samples only, not backend.format=" + options.format());
        this.options = options;
    }

    @Override
    public Requisition validate(BackprojectionJob job) {
        if (options == null) throw new IllegalStateException("toy backend: validate() called before setup()");
        this.job = job;
        this.tables = job.tables();
        return new Requisition(1, 0, 0, false, "toy: one pixel at a time, double precision");
    }

    @Override
    public void process(SliceBatch batch, float[][] out) {
        if (job == null) throw new IllegalStateException("toy backend: process() called before validate()");
        BatchContract.check(id(), job, batch, out, false);
        long t0 = System.nanoTime();
        SliceGeometry g = job.slice();
        boolean linear = options.interpolation() == Interpolation.LINEAR;
        int width = tables.detectorWidth(), np = tables.numProjections();
        for (int s = 0; s < batch.count(); s++) {
            float[] sino = batch.sinograms()[s];
            for (int r = 0; r < g.roiRows(); r++)
                for (int c = 0; c < g.roiCols(); c++) {
                    double sum = 0;
                    for (int p = 0; p < np; p++) {
                        double t = tables.offset(p) + c * tables.cos(p) - r * tables.sin(p);
                        sum += linear ? linear(sino, p * width, width, t) : nearest(sino, p * width, width, t);
                    }
                    out[s][r * g.roiCols() + c] = (float) sum;
                }
        }
        stats = stats.plus((long) g.pixels() * np * batch.count(), System.nanoTime() - t0);
    }

    private static double linear(float[] sino, int row, int width, double t) {
        int i = (int) Math.floor(t);
        double f = t - i;
        return (1 - f) * at(sino, row, width, i) + f * at(sino, row, width, i + 1);
    }

    private static double nearest(float[] sino, int row, int width, double t) {
        return at(sino, row, width, (int) Math.floor(t + 0.5));
    }

    private static double at(float[] sino, int row, int width, int i) {
        return i >= 0 && i < width ? sino[row + i] : 0;
    }

    @Override
    public BackendStats stats() {
        return stats;
    }

    @Override
    public String deviceDescription() {
        return "toy: one thread, double precision";
    }

    @Override
    public void close() {
    }
}
