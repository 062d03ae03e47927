package org.tomospark.executor.inputs;

import io.jhdf.api.Dataset;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.object.message.DataLayout;
import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.lang.reflect.Array;

/**
 * Reads a band as a hyperslab of jhdf's nested Java arrays, one thread, then copies them into one flat array:
 * contiguous and compact storage through jhdf's own reader ({@link Dataset#getData(long[], int[])}), chunked storage
 * through {@link ChunkedSlices}, which decodes each chunk by the filters its filter mask names and reads a chunk
 * never written as the fill value. Takes every layout, filter and integer type jhdf does; the direct readers are
 * checked against it.
 */
final class HyperslabBandReader implements BandReader {
    private final Dataset ds;
    private final String file, path;
    private final ScanMetadata.SampleType type;
    private final int firstFrame, frameCount;
    /** The dataset's chunks where it is chunked, else null. */
    private final StoredChunks chunks;

    /** @param file and {@code path} name the dataset in errors */
    HyperslabBandReader(Dataset ds, String file, String path, ScanMetadata.SampleType type) {
        this(ds, file, path, type, 0, ds.getDimensions()[0]);
    }

    /** Reads only frames [firstFrame, firstFrame + frameCount) of the dataset. */
    HyperslabBandReader(Dataset ds, String file, String path, ScanMetadata.SampleType type, int firstFrame,
                        int frameCount) {
        this.ds = ds;
        this.file = file;
        this.path = path;
        this.type = type;
        this.firstFrame = firstFrame;
        this.frameCount = frameCount;
        this.chunks = ds instanceof ChunkedDataset c ? new StoredChunks(c, file + ":" + path) : null;
    }

    @Override
    public RawStack read(int rowStart, int rows) throws IOException {
        int[] d = ds.getDimensions();
        int n = RawStack.samples(frameCount, rows, d[2], file + ":" + path);  // before jhdf allocates the band
        // jhdf slices no compact dataset; one is at most 64 KiB, so it is read whole and its rows taken
        boolean whole = ds.getDataLayout() == DataLayout.COMPACT;
        long[] offset = {firstFrame, rowStart, 0};
        int[] shape = {frameCount, rows, d[2]};
        Object o = whole ? ds.getData()
                : chunks != null ? ChunkedSlices.slice(chunks, offset, shape) : ds.getData(offset, shape);
        int first = whole ? rowStart : 0;
        int skip = whole ? firstFrame : 0;
        int frames = frameCount, w = d[2];
        if (type == ScanMetadata.SampleType.UINT16) {
            short[] out = new short[n];
            int i = 0;
            for (int f = 0; f < frames; f++) {
                Object plane = Array.get(o, skip + f);
                for (int r = 0; r < rows; r++) {
                    Object row = Array.get(plane, first + r);
                    if (row instanceof int[] ir) for (int c = 0; c < w; c++) out[i++] = (short) ir[c];
                    else if (row instanceof short[] sr) { System.arraycopy(sr, 0, out, i, w); i += w; }
                    else if (row instanceof char[] cr) for (int c = 0; c < w; c++) out[i++] = (short) cr[c];
                    else throw new IllegalArgumentException(file + ": unexpected element type in " + path);
                }
            }
            return RawStack.ofUint16(frames, rows, w, out);
        }
        float[] out = new float[n];
        int i = 0;
        for (int f = 0; f < frames; f++) {
            float[][] plane = (float[][]) Array.get(o, skip + f);
            for (int r = 0; r < rows; r++) {
                System.arraycopy(plane[first + r], 0, out, i, w);
                i += w;
            }
        }
        return RawStack.ofFloat(frames, rows, w, out);
    }

    @Override
    public ReadPath path() {
        return ReadPath.HYPERSLAB;
    }
}
