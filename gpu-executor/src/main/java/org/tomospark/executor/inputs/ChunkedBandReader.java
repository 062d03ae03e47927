package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;

/**
 * Reads bands of a chunked 3-D dataset [frame][row][col]: only the chunks the band overlaps, each read and decoded
 * ({@link StoredChunks}: by the filters its filter mask names; a chunk never written as the fill value) on one of
 * several threads, and its overlap with the band copied into the result in the file's byte order. Each chunk fills
 * its own part of the result, so the threads share nothing but the chunk counter.
 */
final class ChunkedBandReader implements BandReader {
    private final StoredChunks chunks;
    private final String name;
    private final ScanMetadata.SampleType type;
    private final ByteOrder order;
    private final int threads;

    /** @param name names the file and dataset in errors */
    ChunkedBandReader(StoredChunks chunks, String name, ScanMetadata.SampleType type, ByteOrder order, int threads) {
        this.chunks = chunks;
        this.name = name;
        this.type = type;
        this.order = order;
        this.threads = threads;
    }

    @Override
    public RawStack read(int rowStart, int rows) throws IOException {
        int[] dims = chunks.dataset().getDimensions();
        int[] chunk = chunks.chunkDimensions();
        int frames = dims[0], width = dims[2];
        int total = RawStack.samples(frames, rows, width, name);
        int frameChunks = (frames + chunk[0] - 1) / chunk[0];
        int firstRowChunk = rowStart / chunk[1];
        int rowChunks = (rowStart + rows - 1) / chunk[1] - firstRowChunk + 1;
        int colChunks = (width + chunk[2] - 1) / chunk[2];
        // every chunk of the band's rows is read, so an array a consumer released (BandArrays) needs no clearing
        RawStack band = type == ScanMetadata.SampleType.UINT16 ? BandArrays.uint16(frames, rows, width, total)
                : BandArrays.float32(frames, rows, width, total);
        short[] u16 = band.uint16Data();
        float[] f32 = band.floatData();
        ParallelReads.run(threads, frameChunks * rowChunks * colChunks, () -> item -> {
            int[] at = {
                    item / (rowChunks * colChunks) * chunk[0],
                    (firstRowChunk + item / colChunks % rowChunks) * chunk[1],
                    item % colChunks * chunk[2]};
            ByteBuffer bb = ByteBuffer.wrap(chunks.read(at)).order(order);
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
        return band;
    }

    @Override
    public ReadPath path() {
        return ReadPath.CHUNKED;
    }
}
