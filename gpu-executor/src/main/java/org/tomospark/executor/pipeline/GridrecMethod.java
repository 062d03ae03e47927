package org.tomospark.executor.pipeline;

import org.tomospark.executor.fourier.Gridrec;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.util.Cancellation;

import java.util.concurrent.ForkJoinPool;

/**
 * Gridrec: the −log sinograms, unfiltered, regridded in Fourier space on the processor's threads, two slices per
 * transform. Its time is reported as back-projection's, the filter included.
 */
final class GridrecMethod implements SinogramMethod {
    private final Gridrec gridrec;
    private final ScanGeometry scan;
    private final SliceGeometry slice;
    private final GroupFrames frames;
    private final ForkJoinPool pool;
    private final int rowBin;

    /** Starts gridrec's warm-up (once per JVM) while the first group is read and corrected. */
    GridrecMethod(Gridrec gridrec, ScanGeometry scan, SliceGeometry slice, GroupFrames frames, ForkJoinPool pool, int rowBin) {
        this.gridrec = gridrec;
        this.scan = scan;
        this.slice = slice;
        this.frames = frames;
        this.pool = pool;
        this.rowBin = rowBin;
        gridrec.warmUpInBackground();
    }

    @Override
    public GroupResult reconstruct(CorrectedGroup g, Cancellation cancel) {
        long t0 = System.nanoTime();
        float[][] sinos = g.sinograms();
        SliceFrame[] out = frames.heap(sinos.length);
        float[][] arrays = SliceFrame.arrays(out);
        frames.givingBack(out, () -> {
            gridrec.reconstruct(sinos, arrays, pool, cancel);
            return 0L;
        });
        long t1 = System.nanoTime();
        long updates = (long) slice.pixels() * scan.numProjections() * sinos.length;
        return new GroupResult(g.firstRow() / rowBin, out, slice.roiCols(), slice.roiRows(), g.stats(), g.preprocessNanos(), 0,
                t1 - t0, updates);
    }
}
