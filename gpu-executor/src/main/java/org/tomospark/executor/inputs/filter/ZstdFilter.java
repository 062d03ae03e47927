package org.tomospark.executor.inputs.filter;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.jhdf.exceptions.HdfFilterException;
import io.jhdf.filter.Filter;

/**
 * The Zstandard filter (HDF5 filter 32015): each chunk is one Zstandard frame that records its decoded size, decoded
 * by aircompressor. Stateless, so chunks may be decoded on several threads at once.
 */
public final class ZstdFilter implements Filter {
    public static final int ID = 32015;

    @Override
    public int getId() {
        return ID;
    }

    @Override
    public String getName() {
        return "zstd";
    }

    @Override
    public byte[] decode(byte[] src, int[] filterData) {
        long size;
        try {
            size = ZstdDecompressor.getDecompressedSize(src, 0, src.length);
        } catch (MalformedInputException e) {
            throw new HdfFilterException("a Zstd chunk is not a Zstandard frame (" + e.getMessage() + ")", e);
        }
        if (size < 0 || size > Integer.MAX_VALUE - 8)
            throw new HdfFilterException("a Zstd chunk's frame does not record a usable decoded size (" + size + ")");
        byte[] out = new byte[(int) size];
        try {
            int n = new ZstdDecompressor().decompress(src, 0, src.length, out, 0, out.length);
            if (n != out.length) throw new HdfFilterException("a Zstd chunk decodes to " + n
                    + " bytes, its frame says " + size);
        } catch (MalformedInputException e) {
            throw new HdfFilterException("a Zstd chunk does not decode (" + e.getMessage() + ")", e);
        }
        return out;
    }
}
