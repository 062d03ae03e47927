package org.tomospark.executor.backend;

import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.Cancellation;

import java.nio.ShortBuffer;

/**
 * Raw uint16 counts of {@code count} detector rows, for a backend that corrects them itself
 * ({@link BackprojectionBackend#correctsOnDevice}): slice s is band row {@code bandRow0 + s} of every projection of
 * {@code band} ([projection][row][column]). {@code dark} and {@code den} hold, per slice and column, the dark field
 * and the clamped denominator flat − dark ({@code count × width}); transmissions below {@code transmissionFloor} are
 * raised to it before −log. The backend stops between its steps once {@code cancellation} says so.
 */
public record RawSliceBatch(int firstRow, RawStack band, int bandRow0, int count, float[] dark, float[] den,
                            float transmissionFloor, Cancellation cancellation) {
    /** A batch no one cancels. */
    public RawSliceBatch(int firstRow, RawStack band, int bandRow0, int count, float[] dark, float[] den, float transmissionFloor) {
        this(firstRow, band, bandRow0, count, dark, den, transmissionFloor, Cancellation.NONE);
    }

    public RawSliceBatch {
        if (cancellation == null) throw new IllegalArgumentException("a batch needs a cancellation (Cancellation.NONE)");
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

    /**
     * Copies the counts of slices [first, first + n) of projections [p0, p1) into {@code dst} as
     * [projection][slice][column], {@code dst} holding all the batch's projections of those slices: one contiguous
     * copy a projection, since a projection holds its rows one after another. Disjoint projection ranges may be copied
     * on several threads at once.
     */
    public void copyCountsByProjection(int first, int n, int p0, int p1, ShortBuffer dst) {
        short[] src = band.uint16Data();
        int rows = band.rows(), w = band.width();
        int r = bandRow0 + first;
        for (int p = p0; p < p1; p++) dst.put(p * n * w, src, (p * rows + r) * w, n * w);
    }
}
