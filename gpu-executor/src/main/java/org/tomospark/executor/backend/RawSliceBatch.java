package org.tomospark.executor.backend;

import org.tomospark.executor.preprocess.RawStack;

import java.nio.ShortBuffer;

/**
 * Raw uint16 counts of {@code count} detector rows, for a backend that corrects them itself
 * ({@link BackprojectionBackend#correctsOnDevice}): slice s is band row {@code bandRow0 + s} of every projection of
 * {@code band} ([projection][row][column]). {@code dark} and {@code den} hold, per slice and column, the dark field
 * and the clamped denominator flat − dark ({@code count × width}); transmissions below {@code transmissionFloor} are
 * raised to it before −log.
 */
public record RawSliceBatch(int firstRow, RawStack band, int bandRow0, int count, float[] dark, float[] den,
                            float transmissionFloor) {
    public RawSliceBatch {
        if (!band.isUint16()) throw new IllegalArgumentException("raw batches hold uint16 counts");
        if (count < 1 || bandRow0 < 0 || bandRow0 + count > band.rows())
            throw new IllegalArgumentException("rows " + bandRow0 + ".." + (bandRow0 + count - 1) + " outside a band of " + band.rows());
        long n = (long) count * band.width();
        if (dark.length != n || den.length != n)
            throw new IllegalArgumentException("dark and den must hold " + count + " x " + band.width() + " values");
    }

    public int numProjections() {
        return band.frames();
    }

    public int width() {
        return band.width();
    }

    /** Copies the counts of slices [first, first + n) into {@code dst} as [slice][projection][column]. */
    public void copyCounts(int first, int n, ShortBuffer dst) {
        short[] src = band.uint16Data();
        int rows = band.rows(), w = band.width(), np = band.frames();
        for (int s = 0; s < n; s++) {
            int r = bandRow0 + first + s;
            for (int p = 0; p < np; p++) dst.put((s * np + p) * w, src, (p * rows + r) * w, w);
        }
    }
}
