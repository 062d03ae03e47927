package org.tomospark.executor.inputs;

import io.jhdf.Utils;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * A dataspace selection as HDF5 stores it in a virtual dataset's mappings: everything, nothing, or a hyperslab
 * (regular: start, stride, count and block per dimension; or a list of blocks). Only selections that are a product
 * of one set of indices per dimension are taken, which is what regular hyperslabs and the block lists HDF5 writes
 * for them are: their elements, in row-major order, pair up with another such selection of the same extents
 * dimension by dimension.
 */
final class Selection {
    private static final int NONE = 0, POINTS = 1, HYPERSLABS = 2, ALL = 3;
    private static final int REGULAR = 0x1;

    private final int kind;
    private final int rank;
    private final long[][] regular; // a regular hyperslab: per dimension {start, stride, count, block}
    private final long[][] blocks;  // a block list: per block start[0..rank) then end[0..rank) (inclusive)

    private Selection(int kind, int rank, long[][] regular, long[][] blocks) {
        this.kind = kind;
        this.rank = rank;
        this.regular = regular;
        this.blocks = blocks;
    }

    boolean isNone() {
        return kind == NONE;
    }

    /** Reads a serialized selection, leaving {@code bb} after it. */
    static Selection read(ByteBuffer bb) {
        int kind = bb.getInt();
        int version = bb.getInt();
        switch (kind) {
            case NONE, ALL -> {
                bb.position(bb.position() + 8);
                return new Selection(kind, 0, null, null);
            }
            case HYPERSLABS -> {
                return readHyperslab(bb, version);
            }
            case POINTS -> throw new IllegalArgumentException(
                    "a point selection (only hyperslab and whole-dataset selections are read)");
            default -> throw new IllegalArgumentException("an unknown selection type " + kind);
        }
    }

    private static Selection readHyperslab(ByteBuffer bb, int version) {
        int flags = 0, size;
        switch (version) {
            case 1 -> {
                bb.position(bb.position() + 8); // reserved, length
                size = 4;
            }
            case 2 -> {
                flags = bb.get() & 0xff;
                bb.getInt(); // length
                size = 8;
            }
            case 3 -> {
                flags = bb.get() & 0xff;
                size = bb.get() & 0xff;
            }
            default -> throw new IllegalArgumentException("a hyperslab selection of unknown version " + version);
        }
        int rank = bb.getInt();
        if ((flags & REGULAR) != 0) {
            long[][] perDim = new long[rank][];
            for (int d = 0; d < rank; d++) {
                long start = read(bb, size), stride = read(bb, size), count = read(bb, size), block = read(bb, size);
                if (count == unlimited(size) || block == unlimited(size))
                    throw new IllegalArgumentException(
                            "an unlimited hyperslab selection (a virtual dataset that grows with its sources)");
                perDim[d] = new long[]{start, stride, count, block};
            }
            return new Selection(HYPERSLABS, rank, perDim, null);
        }
        long n = version == 1 ? Integer.toUnsignedLong(bb.getInt()) : read(bb, size);
        long[][] blocks = new long[Math.toIntExact(n)][2 * rank];
        for (long[] b : blocks)
            for (int i = 0; i < 2 * rank; i++) b[i] = read(bb, size);
        return new Selection(HYPERSLABS, rank, null, blocks);
    }

    private static long unlimited(int size) {
        return size == 8 ? -1L : (1L << (8 * size)) - 1;
    }

    private static long read(ByteBuffer bb, int size) {
        return size == 8 ? bb.getLong() : Utils.readBytesAsUnsignedLong(bb, size);
    }

    /**
     * The selected indices of each dimension of a dataspace of extents {@code dims}, ascending.
     *
     * @throws IllegalArgumentException where the selection does not fit the dataspace or is not a product of one set
     *                                  of indices per dimension
     */
    int[][] indices(int[] dims) {
        if (kind == ALL) {
            int[][] out = new int[dims.length][];
            for (int d = 0; d < dims.length; d++) {
                out[d] = new int[dims[d]];
                Arrays.setAll(out[d], i -> i);
            }
            return out;
        }
        if (rank != dims.length)
            throw new IllegalArgumentException("a selection of rank " + rank + " over a dataset of rank "
                    + dims.length);
        return regular != null ? regularIndices(dims) : blockIndices(dims);
    }

    private int[][] regularIndices(int[] dims) {
        int[][] out = new int[rank][];
        for (int d = 0; d < rank; d++) {
            long start = regular[d][0], stride = regular[d][1], count = regular[d][2], block = regular[d][3];
            long last = start + (count - 1) * stride + block - 1;
            if (count < 1 || block < 1 || (count > 1 && stride < block) || start < 0 || last >= dims[d])
                throw new IllegalArgumentException("a hyperslab (start " + start + ", stride " + stride + ", count "
                        + count
                        + ", block " + block + ") that does not fit dimension " + d + " (" + dims[d] + ")");
            out[d] = new int[Math.toIntExact(count * block)];
            for (int i = 0; i < out[d].length; i++) out[d][i] = (int) (start + i / block * stride + i % block);
        }
        return out;
    }

    private int[][] blockIndices(int[] dims) {
        List<TreeMap<Long, Long>> intervals = new ArrayList<>();
        for (int d = 0; d < rank; d++) intervals.add(new TreeMap<>());
        for (long[] b : blocks)
            for (int d = 0; d < rank; d++) {
                if (b[d] < 0 || b[d] > b[rank + d] || b[rank + d] >= dims[d])
                    throw new IllegalArgumentException("a selection block " + b[d] + ".." + b[rank + d]
                            + " outside dimension "
                            + d + " (" + dims[d] + ")");
                Long end = intervals.get(d).putIfAbsent(b[d], b[rank + d]);
                if (end != null && end != b[rank + d])
                    throw new IllegalArgumentException("an irregular selection (blocks of different extents start at "
                            + b[d] + " in dimension " + d + ")");
            }
        long combinations = 1;
        for (TreeMap<Long, Long> m : intervals) combinations *= m.size();
        if (combinations != blocks.length)
            throw new IllegalArgumentException("an irregular selection (" + blocks.length
                    + " blocks that are not a grid)");
        int[][] out = new int[rank][];
        for (int d = 0; d < rank; d++) {
            int n = 0;
            long last = -1;
            for (var e : intervals.get(d).entrySet()) {
                if (e.getKey() <= last)
                    throw new IllegalArgumentException("an irregular selection (overlapping blocks in dimension " + d
                            + ")");
                n += (int) (e.getValue() - e.getKey() + 1);
                last = e.getValue();
            }
            out[d] = new int[n];
            int i = 0;
            for (var e : intervals.get(d).entrySet())
                for (long v = e.getKey(); v <= e.getValue(); v++) out[d][i++] = (int) v;
        }
        return out;
    }
}
