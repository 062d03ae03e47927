package org.tomospark.executor.inputs;

import io.jhdf.api.Dataset;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.dataset.DatasetReader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Hyperslabs of a chunked dataset of any rank and type, as {@link Dataset#getData(long[], int[])} and
 * {@link Dataset#getDataFlat()} give them, but assembled from {@link StoredChunks}: each chunk decoded by the filters
 * its filter mask names, a chunk never written as the fill value. The elements are gathered as stored, then turned
 * into Java arrays by jhdf's {@link DatasetReader}. One thread: this serves the small reads (angles, image keys) and
 * the reference path of the band readers.
 */
final class ChunkedSlices {
    private ChunkedSlices() {
    }

    /** The elements [offset, offset + shape) as jhdf's nested Java array of {@code shape}. */
    static Object slice(StoredChunks chunks, long[] offset, int[] shape) throws IOException {
        ChunkedDataset ds = chunks.dataset();
        return DatasetReader.readDataset(ds.getDataType(), bytes(chunks, offset, shape), shape,
                ds.getHdfFile().getHdfBackingStorage());
    }

    /** Every element, as jhdf's flat Java array. */
    static Object flat(StoredChunks chunks) throws IOException {
        ChunkedDataset ds = chunks.dataset();
        int[] dims = ds.getDimensions();
        ByteBuffer b = bytes(chunks, new long[dims.length], dims);
        return DatasetReader.readDataset(ds.getDataType(), b, b.capacity() / chunks.elementSize(),
                ds.getHdfFile().getHdfBackingStorage());
    }

    /** The stored bytes of the elements [offset, offset + shape), row-major. */
    static ByteBuffer bytes(StoredChunks chunks, long[] offset, int[] shape) throws IOException {
        int[] dims = chunks.dataset().getDimensions();
        int rank = dims.length;
        int[] from = checkedOffset(chunks.where(), dims, offset, shape);
        int[] chunkDims = chunks.chunkDimensions();
        int es = chunks.elementSize();
        long bytes = es;
        for (int n : shape) bytes *= n;
        if (bytes > Integer.MAX_VALUE)
            throw new IllegalArgumentException(chunks.where() + ": a slice of " + Arrays.toString(shape)
                    + " elements is over 2 GiB");
        byte[] out = new byte[(int) bytes];
        if (bytes == 0) return ByteBuffer.wrap(out);
        // the chunks the slice overlaps, by their index along each dimension
        int[] first = new int[rank], end = new int[rank];
        for (int d = 0; d < rank; d++) {
            first[d] = from[d] / chunkDims[d];
            end[d] = (from[d] + shape[d] - 1) / chunkDims[d] + 1;
        }
        int[] grid = first.clone();
        int[] origin = new int[rank];
        do {
            for (int d = 0; d < rank; d++) origin[d] = grid[d] * chunkDims[d];
            copyOverlap(chunks.read(origin), origin, chunkDims, from, shape, es, out);
        } while (next(grid, first, end, rank));
        return ByteBuffer.wrap(out);
    }

    /** Copies the part of a decoded chunk inside the slice, one run along the last dimension at a time. */
    private static void copyOverlap(byte[] chunk, int[] origin, int[] chunkDims, int[] from, int[] shape, int es,
                                    byte[] out) {
        int rank = origin.length;
        int[] lo = new int[rank], hi = new int[rank];
        for (int d = 0; d < rank; d++) {
            lo[d] = Math.max(from[d], origin[d]);
            hi[d] = Math.min(from[d] + shape[d], origin[d] + chunkDims[d]);
        }
        int runBytes = (hi[rank - 1] - lo[rank - 1]) * es;
        int[] at = lo.clone();
        do {
            long src = 0, dst = 0;
            for (int d = 0; d < rank; d++) {
                src = src * chunkDims[d] + at[d] - origin[d];
                dst = dst * shape[d] + at[d] - from[d];
            }
            System.arraycopy(chunk, (int) (src * es), out, (int) (dst * es), runBytes);
        } while (next(at, lo, hi, rank - 1));
    }

    /**
     * Steps {@code i} to the next index of the box [lo, hi) over its first {@code dims} dimensions, the last of them
     * fastest; false once every index has been visited (at once where {@code dims} is 0).
     */
    private static boolean next(int[] i, int[] lo, int[] hi, int dims) {
        for (int d = dims - 1; d >= 0; d--) {
            if (++i[d] < hi[d]) return true;
            i[d] = lo[d];
        }
        return false;
    }

    private static int[] checkedOffset(String where, int[] dims, long[] offset, int[] shape) {
        boolean ok = offset.length == dims.length && shape.length == dims.length && dims.length > 0;
        for (int d = 0; ok && d < dims.length; d++)
            ok = offset[d] >= 0 && shape[d] >= 0 && offset[d] + shape[d] <= dims[d];
        if (!ok)
            throw new IllegalArgumentException(where + ": the slice at " + Arrays.toString(offset) + " of "
                    + Arrays.toString(shape) + " elements is outside the dataset's " + Arrays.toString(dims));
        return Arrays.stream(offset).mapToInt(Math::toIntExact).toArray();
    }
}
