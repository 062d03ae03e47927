package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads bands of frames stored one after the other as [frame][row][col] samples from {@code start} on (an HDF5
 * dataset with contiguous layout, a headerless raw file). A frame's band is one byte range, and with every row
 * the whole band is one range; ranges are cut into pieces of at most {@link #PIECE_BYTES}, read by positioned
 * reads on several threads and converted from the file's byte order straight into the result's array.
 */
public final class ContiguousBandReader implements BandReader {
    /** Small enough that a piece is still in the core's cache when it is converted into the result. */
    static final int PIECE_BYTES = 1 << 20;

    private final RangeReader ranges;
    private final String name;
    private final long start;
    private final int frames, frameRows, width;
    private final ScanMetadata.SampleType type;
    private final ByteOrder order;
    private final int threads;
    private final int pieceBytes;

    /**
     * @param ranges    the file
     * @param name      names the data in errors
     * @param start     byte position of frame 0, row 0, column 0
     * @param frames    frames stored
     * @param frameRows rows of each frame
     * @param width     samples in a row
     * @param type      uint16 (2 bytes) or float32 (4 bytes)
     * @param order     the file's byte order
     * @param threads   reads at once
     */
    public ContiguousBandReader(RangeReader ranges, String name, long start, int frames, int frameRows, int width,
                                ScanMetadata.SampleType type, ByteOrder order, int threads) {
        this(ranges, name, start, frames, frameRows, width, type, order, threads, PIECE_BYTES);
    }

    /** With pieces of at most {@code pieceBytes} bytes (rounded down to whole samples). */
    ContiguousBandReader(RangeReader ranges, String name, long start, int frames, int frameRows, int width,
                         ScanMetadata.SampleType type, ByteOrder order, int threads, int pieceBytes) {
        if (start < 0 || frames < 0 || frameRows < 1 || width < 1 || threads < 1 || pieceBytes < 4)
            throw new IllegalArgumentException(name + ": bad contiguous layout: start " + start + ", " + frames + " frames of "
                    + frameRows + " x " + width + ", " + threads + " threads");
        this.ranges = ranges;
        this.name = name;
        this.start = start;
        this.frames = frames;
        this.frameRows = frameRows;
        this.width = width;
        this.type = type;
        this.order = order;
        this.threads = threads;
        this.pieceBytes = pieceBytes;
    }

    @Override
    public RawStack read(int rowStart, int rows) throws IOException {
        int total = RawStack.samples(frames, rows, width, name);
        int bytes = type == ScanMetadata.SampleType.UINT16 ? 2 : 4;
        long rowBytes = (long) width * bytes;
        boolean wholeFrames = rows == frameRows;
        // a segment is one byte range of the file and one run of the result: every frame's band, or all of it
        int segments = wholeFrames ? 1 : frames;
        long segmentSamples = wholeFrames ? total : (long) rows * width;
        long stride = frameRows * rowBytes;
        long first = start + rowStart * rowBytes;
        int pieceSamples = pieceBytes / bytes;
        int piecesPerSegment = (int) ((segmentSamples + pieceSamples - 1) / pieceSamples);
        int scratchBytes = (int) Math.min(segmentSamples, pieceSamples) * bytes;
        // the band's array: one a consumer released (BandArrays), or a new one
        RawStack band = type == ScanMetadata.SampleType.UINT16 ? BandArrays.uint16(frames, rows, width, total)
                : BandArrays.float32(frames, rows, width, total);
        short[] u16 = band.uint16Data();
        float[] f32 = band.floatData();
        if (total > 0)
            ParallelReads.run(threads, segments * piecesPerSegment, () -> {
                ByteBuffer scratch = ranges.buffer(scratchBytes).order(order);
                return item -> {
                    int segment = item / piecesPerSegment;
                    long offset = (long) (item % piecesPerSegment) * pieceSamples;
                    int n = (int) Math.min(pieceSamples, segmentSamples - offset);
                    scratch.clear().limit(n * bytes);
                    ranges.readFully(first + segment * stride + offset * bytes, scratch);
                    scratch.flip();
                    int at = (int) (segment * segmentSamples + offset);
                    if (u16 != null) scratch.asShortBuffer().get(u16, at, n);
                    else scratch.asFloatBuffer().get(f32, at, n);
                };
            });
        return band;
    }

    @Override
    public ReadPath path() {
        return ReadPath.CONTIGUOUS;
    }
}
