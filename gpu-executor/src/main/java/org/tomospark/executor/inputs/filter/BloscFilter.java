package org.tomospark.executor.inputs.filter;

import io.jhdf.exceptions.HdfFilterException;
import io.jhdf.filter.Filter;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The Blosc filter (HDF5 filter 32001) as c-blosc 1.x writes a chunk: a 16-byte header (format version, flags, element
 * size, decoded size, block size, encoded size), then either the bytes as they are or, per block, its start, and in
 * the block one compressed stream (or one per byte of the element, when the encoder split it), then the block's byte
 * or bit shuffle undone. The filter's own parameters are not needed: the header says everything. Stateless, so chunks
 * may be decoded on several threads at once.
 */
public final class BloscFilter implements Filter {
    public static final int ID = 32001;
    private static final int HEADER = 16;
    private static final int BYTE_SHUFFLE = 0x1, MEMCPYED = 0x2, BIT_SHUFFLE = 0x4, DONT_SPLIT = 0x10;
    /** c-blosc splits a block into one stream per byte of the element for elements of at most this size ... */
    private static final int MAX_SPLITS = 16;
    /** ... and blocks of at least this many elements. */
    private static final int MIN_BUFFER_SIZE = 128;
    /**
     * Up to this format version (c-blosc 1.x), a bit-shuffled block whose element count is not a multiple of 8 is
     * stored as it is.
     */
    private static final int BLOSC1_FORMAT = 2;

    @Override
    public int getId() {
        return ID;
    }

    @Override
    public String getName() {
        return "blosc";
    }

    @Override
    public byte[] decode(byte[] src, int[] filterData) {
        if (src.length < HEADER) throw new HdfFilterException("a Blosc chunk of " + src.length
                + " bytes is shorter than its header");
        ByteBuffer h = ByteBuffer.wrap(src).order(ByteOrder.LITTLE_ENDIAN);
        int version = src[0] & 0xff;
        int flags = src[2] & 0xff;
        int typeSize = Math.max(1, src[3] & 0xff);
        int size = h.getInt(4), blockSize = h.getInt(8), encoded = h.getInt(12);
        if (size < 0 || blockSize <= 0 || encoded > src.length || encoded < HEADER)
            throw new HdfFilterException("a Blosc chunk with a bad header (" + size + " bytes in blocks of "
                    + blockSize + ", "
                    + encoded + " encoded of " + src.length + " stored)");
        byte[] out = new byte[size];
        if ((flags & MEMCPYED) != 0) {
            if (HEADER + size > src.length) throw new HdfFilterException("a stored Blosc chunk shorter than its "
                    + size + " bytes");
            System.arraycopy(src, HEADER, out, 0, size);
            return out;
        }
        BloscCodec codec = BloscCodec.of((flags >> 5) & 0x7);
        int blocks = (int) (((long) size + blockSize - 1) / blockSize);
        byte[] tmp = new byte[blockSize];
        for (int b = 0; b < blocks; b++) {
            int start = h.getInt(HEADER + 4 * b);
            int length = Math.min(blockSize, size - b * blockSize);
            boolean leftover = length < blockSize;
            int splits = (flags & DONT_SPLIT) == 0 && typeSize <= MAX_SPLITS && length / typeSize >= MIN_BUFFER_SIZE
                    && !leftover
                    ? typeSize : 1;
            int streamLength = length / splits;
            int at = start;
            for (int s = 0; s < splits; s++) {
                if (at + 4 > encoded) throw new HdfFilterException("a Blosc chunk ends inside block " + b);
                int n = h.getInt(at);
                at += 4;
                if (n < 0 || at + n > encoded) throw new HdfFilterException("a Blosc stream of " + n
                        + " bytes past the chunk's end");
                if (n == streamLength) System.arraycopy(src, at, tmp, s * streamLength, n);
                else codec.decode(src, at, n, tmp, s * streamLength, streamLength);
                at += n;
            }
            unshuffle(version, flags, typeSize, tmp, out, b * blockSize, length);
        }
        return out;
    }

    private static void unshuffle(int version, int flags, int typeSize, byte[] tmp, byte[] out, int at, int length) {
        if ((flags & BYTE_SHUFFLE) != 0 && typeSize > 1) {
            Unshuffle.bytes(tmp, 0, out, at, length, typeSize);
            return;
        }
        if ((flags & BIT_SHUFFLE) != 0) {
            int elements = length / typeSize;
            if (version <= BLOSC1_FORMAT && elements % 8 != 0) {
                System.arraycopy(tmp, 0, out, at, length);
                return;
            }
            int whole = elements - elements % 8;
            Unshuffle.bits(tmp, 0, out, at, whole, typeSize);
            System.arraycopy(tmp, whole * typeSize, out, at + whole * typeSize, length - whole * typeSize);
            return;
        }
        System.arraycopy(tmp, 0, out, at, length);
    }

    /** The codec a dataset's filter parameters ask for (the seventh value), or null where they do not say. */
    public static String requestedCodec(int[] filterData) {
        return filterData != null && filterData.length >= 7 && filterData[6] >= 0
                && filterData[6] < BloscCodec.values().length
                ? BloscCodec.of(filterData[6]).label() : null;
    }

    /** Whether tomospark decodes the codec a dataset's filter parameters ask for (true where they do not say). */
    public static boolean readsRequestedCodec(int[] filterData) {
        return filterData == null || filterData.length < 7 || filterData[6] < 0
                || filterData[6] >= BloscCodec.values().length
                || BloscCodec.of(filterData[6]).readable();
    }

    /** How to repack a dataset whose codec tomospark does not read. */
    public static String repackAdvice(String dataset) {
        return BloscCodec.REPACK.replace("DATASET", dataset);
    }
}
