package org.tomospark.executor.inputs;

import io.jhdf.Constants;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.dataset.chunked.Chunk;
import io.jhdf.dataset.chunked.ChunkOffset;
import io.jhdf.filter.FilterPipeline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The chunks of one chunked dataset, decoded as HDF5 stored them: each by the filters its filter mask says were
 * applied to it ({@link MaskedPipelines}; HDF5 leaves an optional filter out of a chunk where it fails, e.g. a
 * compressor on a chunk it cannot shrink), and a chunk never written as the dataset's fill value
 * ({@link FillValues}). The chunk index comes from jhdf ({@link JhdfChunkIndex}), the stored bytes from
 * {@link ChunkedDataset#getRawChunkBuffer}. Safe to use from several threads; nothing is read before the first chunk.
 */
final class StoredChunks {
    private static final int FLETCHER32_BYTES = 4;

    private final ChunkedDataset ds;
    private final String where;
    private final int[] chunkDims;
    private final int elementSize;
    private final int chunkBytes;
    /** Made at the first chunk: jhdf refuses the pipeline of a dataset with a filter that no decoder is known for. */
    private volatile MaskedPipelines pipelines;
    private volatile byte[] fillChunk;

    /** @param where names the file and dataset in errors ({@code file:path}) */
    StoredChunks(ChunkedDataset ds, String where) {
        this.ds = ds;
        this.where = where;
        this.chunkDims = ds.getChunkDimensions();
        this.elementSize = ds.getDataType().getSize();
        long bytes = elementSize;
        for (int d : chunkDims) bytes *= d;
        if (bytes > Integer.MAX_VALUE - FLETCHER32_BYTES)
            throw new IllegalArgumentException(where + ": chunks of " + Arrays.toString(chunkDims) + " elements of "
                    + elementSize + " bytes are too large to decode (at most 2 GiB); rechunk the dataset, e.g. with"
                    + " h5repack -l DATASET:CHUNK=...");
        this.chunkBytes = (int) bytes;
    }

    ChunkedDataset dataset() {
        return ds;
    }

    String where() {
        return where;
    }

    int[] chunkDimensions() {
        return chunkDims.clone();
    }

    int elementSize() {
        return elementSize;
    }

    /**
     * The decoded elements of the chunk whose first element is at {@code offset}, in row-major order over the whole
     * chunk (a chunk that reaches past the dataset's edge is stored whole), followed by a Fletcher-32 checksum where
     * one was applied; for a chunk never written, the fill value. The array may be shared: read it, do not change it.
     *
     * @throws IOException naming the file, dataset and chunk where the chunk cannot be read or decoded
     */
    byte[] read(int[] offset) throws IOException {
        long[] at = Arrays.stream(offset).asLongStream().toArray();
        Chunk chunk = JhdfChunkIndex.of(ds, where).get(new ChunkOffset(at));
        // a fixed-array index lists the chunks never written with an undefined address
        if (chunk == null || chunk.getAddress() == Constants.UNDEFINED_ADDRESS) return fillChunk();
        BitSet mask = chunk.getFilterMask();
        FilterPipeline pipeline = null;
        byte[] decoded;
        try {
            ByteBuffer raw = ds.getRawChunkBuffer(offset);
            byte[] stored = new byte[raw.remaining()];
            raw.get(stored);
            pipeline = pipelines().forMask(mask);
            decoded = pipeline.decode(stored);
        } catch (RuntimeException e) {
            throw new IOException(where + ": cannot decode the chunk at " + Arrays.toString(offset) + " (filter mask "
                    + mask + ", decoded by " + (pipeline == null ? "?" : pipeline) + "): " + e.getMessage(), e);
        }
        if (decoded.length != chunkBytes
                && !(decoded.length == chunkBytes + FLETCHER32_BYTES && pipelines().checksummed(mask)))
            throw new IOException(where + ": the chunk at " + Arrays.toString(offset) + " decodes to " + decoded.length
                    + " bytes, expected " + chunkBytes + " (" + Arrays.toString(chunkDims) + " elements of "
                    + elementSize + " bytes; filter mask " + mask + ", decoded by " + pipeline + ")");
        return decoded;
    }

    private MaskedPipelines pipelines() {
        MaskedPipelines p = pipelines;
        if (p == null) pipelines = p = new MaskedPipelines(ds.getFilters());
        return p;
    }

    private byte[] fillChunk() {
        byte[] f = fillChunk;
        if (f != null) return f;
        byte[] element = FillValues.element(ds, where);
        f = new byte[chunkBytes];
        for (int i = 0; i < chunkBytes; i += elementSize) System.arraycopy(element, 0, f, i, elementSize);
        fillChunk = f;
        return f;
    }
}
