package org.tomospark.executor.pipeline;

import org.tomospark.executor.preprocess.PreprocessStats;

/**
 * The reconstructed slices of one slice group and what it cost.
 *
 * @param firstRow     detector row of slices[0]
 * @param slices       roiRows × roiCols images, row-major
 * @param updates      voxel updates (pixels × projections × slices)
 */
public record GroupResult(int firstRow, float[][] slices, int width, int height, PreprocessStats preprocess,
                          long preprocessNanos, long filterNanos, long backprojectNanos, long updates) {
}
