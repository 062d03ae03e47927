package org.tomospark.executor.pipeline;

import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.preprocess.PreprocessStats;

/**
 * The reconstructed slices of one slice group and what it cost.
 *
 * @param firstRow     detector row of slices[0]
 * @param slices       roiRows × roiCols images, row-major, each in a frame of the processor's {@link SliceBuffers}
 * @param updates      voxel updates (pixels × projections × slices; for an iterative method, one forward and one
 *                     back-projection of the whole slice grid per iteration)
 * @param convergence  the iterative method's residual per iteration (none for filtered back-projection)
 */
public record GroupResult(int firstRow, SliceFrame[] slices, int width, int height, PreprocessStats preprocess,
                          long preprocessNanos, long filterNanos, long backprojectNanos, long updates, Convergence convergence) {
    public GroupResult(int firstRow, SliceFrame[] slices, int width, int height, PreprocessStats preprocess,
                       long preprocessNanos, long filterNanos, long backprojectNanos, long updates) {
        this(firstRow, slices, width, height, preprocess, preprocessNanos, filterNanos, backprojectNanos, updates, Convergence.none());
    }
}
