package org.tomospark.executor.pipeline;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.iterative.IterativeReconstructor;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.util.Cancellation;

import java.util.concurrent.ForkJoinPool;

/**
 * The iterative methods: the −log sinograms go to the solver unfiltered; MLTR also gets each slice's unattenuated
 * counts, flat − dark of its detector row.
 */
final class IterativeMethod implements SinogramMethod {
    private final IterativeReconstructor iterative;
    private final boolean needsCounts;
    private final Preprocessor preprocessor;
    private final ScanGeometry scan;
    private final SliceGeometry slice;
    private final GroupFrames frames;
    private final ForkJoinPool pool;
    private final int rowBin;

    /** @param needsCounts whether the solver takes the unattenuated counts (MLTR) */
    IterativeMethod(IterativeReconstructor iterative, boolean needsCounts, Preprocessor preprocessor, ScanGeometry scan,
                    SliceGeometry slice, GroupFrames frames, ForkJoinPool pool, int rowBin) {
        this.iterative = iterative;
        this.needsCounts = needsCounts;
        this.preprocessor = preprocessor;
        this.scan = scan;
        this.slice = slice;
        this.frames = frames;
        this.pool = pool;
        this.rowBin = rowBin;
    }

    @Override
    public GroupResult reconstruct(CorrectedGroup g, Cancellation cancel) {
        long t0 = System.nanoTime();
        float[][] sinos = g.sinograms();
        float[][] blanks = null;
        if (needsCounts && g.fields().measured()) {
            float[] den = preprocessor.fields(g.fields(), g.flatName()).den();
            int width = scan.detectorWidth();
            blanks = new float[sinos.length][];
            for (int s = 0; s < sinos.length; s++) {
                blanks[s] = new float[width];
                System.arraycopy(den, (g.haloAbove() + s) * width, blanks[s], 0, width);
            }
        }
        SliceFrame[] out = frames.heap(sinos.length);
        float[][] arrays = SliceFrame.arrays(out);
        float[][] b = blanks;
        Convergence c = pool == null ? iterative.reconstruct(sinos, b, arrays, cancel)
                : pool.submit(() -> iterative.reconstruct(sinos, b, arrays, cancel)).join();
        long t1 = System.nanoTime();
        long grid = (long) slice.width() * slice.height();
        long updates = 2L * grid * scan.numProjections() * sinos.length * c.iterations();
        return new GroupResult(g.firstRow() / rowBin, out, slice.roiCols(), slice.roiRows(), g.stats(), g.preprocessNanos(), 0,
                t1 - t0, updates, c);
    }

    @Override
    public void close() {
        iterative.close();
    }
}
