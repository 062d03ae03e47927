package org.tomospark.executor.io;

import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.exceptions.HdfException;
import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads bands of a chunked 3-D dataset [frame][row][col]: only the chunks the band overlaps, each read and decoded by
 * jhdf ({@link ChunkedDataset#getDecompressedChunk}) on one of several threads, and its overlap with the band copied
 * into the result in the file's byte order. Each chunk fills its own part of the result, so the threads share
 * nothing but the chunk counter.
 * <p>
 * Where jhdf cannot give a chunk (a chunk never written: HDF5 files may leave them out, and jhdf's hyperslab reads
 * them as zeros; or a damaged one), the band is read again through the hyperslab path, whose result or error
 * stands.
 */
final class ChunkedBandReader implements BandReader {
    /** jhdf's Fletcher-32 decoder leaves the checksum after the samples; like jhdf's hyperslab reader, this does not check it. */
    private static final int FLETCHER32_BYTES = 4;

    private final ChunkedDataset ds;
    private final String name;
    private final ScanMetadata.SampleType type;
    private final ByteOrder order;
    private final int threads;
    private final boolean checksummed;
    private final BandReader fallback;
    private final AtomicInteger fallbacks = new AtomicInteger();

    /**
     * @param checksummed the filters include Fletcher-32
     * @param fallback    reads a band whose chunks jhdf cannot give
     */
    ChunkedBandReader(ChunkedDataset ds, String name, ScanMetadata.SampleType type, ByteOrder order, int threads,
                      boolean checksummed, BandReader fallback) {
        this.ds = ds;
        this.name = name;
        this.type = type;
        this.order = order;
        this.threads = threads;
        this.checksummed = checksummed;
        this.fallback = fallback;
    }

    @Override
    public RawStack read(int rowStart, int rows) throws IOException {
        try {
            return readChunks(rowStart, rows);
        } catch (HdfException e) {
            fallbacks.incrementAndGet();
            return fallback.read(rowStart, rows);
        }
    }

    /** Bands read again through the hyperslab path because a chunk could not be read here. */
    int fallbacks() {
        return fallbacks.get();
    }

    private RawStack readChunks(int rowStart, int rows) throws IOException {
        int[] dims = ds.getDimensions();
        int[] chunk = ds.getChunkDimensions();
        int frames = dims[0], width = dims[2];
        int total = RawStack.samples(frames, rows, width, name);
        int bytes = type == ScanMetadata.SampleType.UINT16 ? 2 : 4;
        long chunkBytes = (long) chunk[0] * chunk[1] * chunk[2] * bytes;
        int frameChunks = (frames + chunk[0] - 1) / chunk[0];
        int firstRowChunk = rowStart / chunk[1];
        int rowChunks = (rowStart + rows - 1) / chunk[1] - firstRowChunk + 1;
        int colChunks = (width + chunk[2] - 1) / chunk[2];
        short[] u16 = type == ScanMetadata.SampleType.UINT16 ? new short[total] : null;
        float[] f32 = u16 == null ? new float[total] : null;
        ParallelReads.run(threads, frameChunks * rowChunks * colChunks, () -> item -> {
            int[] at = {
                    item / (rowChunks * colChunks) * chunk[0],
                    (firstRowChunk + item / colChunks % rowChunks) * chunk[1],
                    item % colChunks * chunk[2]};
            byte[] decoded = ds.getDecompressedChunk(at);
            if (decoded.length != chunkBytes && !(checksummed && decoded.length == chunkBytes + FLETCHER32_BYTES))
                throw new IOException(name + ": the chunk at " + Arrays.toString(at) + " decodes to " + decoded.length
                        + " bytes, expected " + chunkBytes + " (" + Arrays.toString(chunk) + " samples of " + bytes + " bytes)");
            ByteBuffer bb = ByteBuffer.wrap(decoded).order(order);
            ShortBuffer s = u16 != null ? bb.asShortBuffer() : null;
            FloatBuffer f = u16 == null ? bb.asFloatBuffer() : null;
            int frameEnd = Math.min(at[0] + chunk[0], frames);
            int rowFrom = Math.max(rowStart, at[1]), rowEnd = Math.min(rowStart + rows, at[1] + chunk[1]);
            int n = Math.min(at[2] + chunk[2], width) - at[2];
            for (int p = at[0]; p < frameEnd; p++)
                for (int r = rowFrom; r < rowEnd; r++) {
                    int src = ((p - at[0]) * chunk[1] + (r - at[1])) * chunk[2];
                    int dst = (p * rows + r - rowStart) * width + at[2];
                    if (s != null) s.get(src, u16, dst, n);
                    else f.get(src, f32, dst, n);
                }
        });
        return u16 != null ? RawStack.ofUint16(frames, rows, width, u16) : RawStack.ofFloat(frames, rows, width, f32);
    }

    @Override
    public ReadPath path() {
        return ReadPath.CHUNKED;
    }
}
