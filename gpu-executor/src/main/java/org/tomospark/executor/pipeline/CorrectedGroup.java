package org.tomospark.executor.pipeline;

import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;

/**
 * A slice group's sinograms after every workflow stage (corrected, −log, phase-retrieved, binned, stitched), with what
 * an algorithm may need besides them.
 *
 * @param firstRow        the group's first detector row (before row binning)
 * @param sinograms       one per slice, projections × width of the effective geometry
 * @param preprocessNanos the time the workflow's stages took
 * @param fields          the flats and darks of the band's rows, halo rows included
 * @param haloAbove       halo rows above the group's first row in {@code fields}
 */
record CorrectedGroup(int firstRow, float[][] sinograms, PreprocessStats stats, long preprocessNanos, FlatDark fields,
                      int haloAbove, String flatName) {
}
