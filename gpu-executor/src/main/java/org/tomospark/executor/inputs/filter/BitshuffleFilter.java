package org.tomospark.executor.inputs.filter;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.jhdf.exceptions.HdfFilterException;
import io.jhdf.filter.Filter;

import java.nio.ByteBuffer;

/**
 * The bitshuffle filter (HDF5 filter 32008), replacing jhdf's own (registered after it, so it takes its id): the chunk
 * is cut into blocks of elements (a multiple of 8), each bit-shuffled and, with LZ4 or Zstd, compressed on its own
 * behind its 4-byte compressed length; a last, shorter block holds the whole multiples of 8 left, and the last few
 * elements are stored as they are. Compressed chunks start with their decoded size (8 bytes) and the block size in
 * bytes (4 bytes), big-endian. jhdf's decoder unshuffles bit by bit and has no Zstd; this one transposes 8 x 8 bits at
 * a time ({@link Unshuffle#bits}) and takes LZ4 and Zstd from aircompressor.
 */
public final class BitshuffleFilter implements Filter {
    public static final int ID = 32008;
    private static final int NONE = 0, LZ4 = 2, ZSTD = 3;
    /** The block size bitshuffle picks where the parameters give none: about 8 KiB, a multiple of 8, at least 128. */
    private static final int TARGET_BLOCK_BYTES = 8192, MIN_BLOCK = 128, MULTIPLE = 8;

    @Override
    public int getId() {
        return ID;
    }

    @Override
    public String getName() {
        return "bitshuffle";
    }

    @Override
    public byte[] decode(byte[] src, int[] filterData) {
        if (filterData.length < 3 || filterData[2] < 1)
            throw new HdfFilterException("bitshuffle filter parameters without the element size");
        int elementSize = filterData[2];
        int compression = filterData.length > 4 ? filterData[4] : NONE;
        if (compression == NONE) {
            int blockElements = filterData.length > 3 && filterData[3] > 0 ? filterData[3] : defaultBlock(elementSize);
            byte[] out = new byte[src.length];
            unshuffleBlocks(src, out, src.length / elementSize, elementSize, blockElements);
            return out;
        }
        if (compression != LZ4 && compression != ZSTD)
            throw new HdfFilterException("bitshuffle with compression " + compression + " (LZ4 and Zstd are read)");
        ByteBuffer h = ByteBuffer.wrap(src); // big-endian, as bitshuffle writes its header
        long size = h.getLong(0);
        int blockBytes = h.getInt(8);
        if (size < 0 || size > Integer.MAX_VALUE - 8 || blockBytes <= 0 || blockBytes % elementSize != 0)
            throw new HdfFilterException("a bitshuffle chunk with a bad header (" + size + " bytes, blocks of "
                    + blockBytes + ")");
        byte[] out = new byte[(int) size];
        int elements = (int) size / elementSize, blockElements = blockBytes / elementSize;
        byte[] tmp = new byte[blockBytes];
        int at = 12, done = 0;
        while (elements - done >= MULTIPLE) {
            int n = Math.min(blockElements, (elements - done) / MULTIPLE * MULTIPLE);
            int length = n * elementSize;
            if (at + 4 > src.length)
                throw new HdfFilterException("a bitshuffle chunk ends inside its block at element " + done);
            int stored = h.getInt(at);
            at += 4;
            if (stored < 0 || at
                    + stored > src.length) throw new HdfFilterException("a bitshuffle block past the chunk's end");
            int got = decompress(compression, src, at, stored, tmp, length);
            if (got != length) throw new HdfFilterException("a bitshuffle block decodes to " + got
                    + " bytes, expected " + length);
            Unshuffle.bits(tmp, 0, out, done * elementSize, n, elementSize);
            at += stored;
            done += n;
        }
        int rest = (elements - done) * elementSize;
        if (at + rest > src.length) throw new HdfFilterException("a bitshuffle chunk shorter than its last elements");
        System.arraycopy(src, at, out, done * elementSize, rest);
        return out;
    }

    private static int decompress(int compression, byte[] src, int at, int length, byte[] out, int outLength) {
        try {
            return compression == LZ4 ? new Lz4Decompressor().decompress(src, at, length, out, 0, outLength)
                    : new ZstdDecompressor().decompress(src, at, length, out, 0, outLength);
        } catch (MalformedInputException e) {
            throw new HdfFilterException("a bitshuffle block does not decode (" + e.getMessage() + ")", e);
        }
    }

    /** Uncompressed bitshuffle: whole blocks, a last block of the multiples of 8 left, then the rest as it is. */
    private static void unshuffleBlocks(byte[] src, byte[] out, int elements, int elementSize, int blockElements) {
        int done = 0;
        while (elements - done >= MULTIPLE) {
            int n = Math.min(blockElements, (elements - done) / MULTIPLE * MULTIPLE);
            Unshuffle.bits(src, done * elementSize, out, done * elementSize, n, elementSize);
            done += n;
        }
        System.arraycopy(src, done * elementSize, out, done * elementSize, src.length - done * elementSize);
    }

    private static int defaultBlock(int elementSize) {
        return Math.max(TARGET_BLOCK_BYTES / elementSize / MULTIPLE * MULTIPLE, MIN_BLOCK);
    }
}
