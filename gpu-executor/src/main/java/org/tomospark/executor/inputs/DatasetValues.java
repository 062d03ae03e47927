package org.tomospark.executor.inputs;

import io.jhdf.api.Dataset;
import io.jhdf.api.dataset.ChunkedDataset;

import java.io.IOException;

/**
 * Reads every value of a small dataset (a scan's angles, image keys, geometry) as jhdf's flat Java array, as
 * {@link Dataset#getDataFlat()} gives it. A chunked dataset is read through {@link ChunkedSlices}, so that each chunk
 * is decoded by the filters its filter mask names and a chunk never written reads as the fill value, where jhdf's own
 * read runs every filter on every chunk and reads missing chunks as zeros.
 */
public final class DatasetValues {
    private DatasetValues() {
    }

    /**
     * @param where names the file and dataset in errors ({@code file:path})
     * @throws IllegalArgumentException naming them where a chunk cannot be read or decoded
     */
    public static Object flat(Dataset ds, String where) {
        if (!(ds instanceof ChunkedDataset c)) return ds.getDataFlat();
        try {
            return ChunkedSlices.flat(new StoredChunks(c, where));
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage() + "; truncated or corrupt file?", e);
        }
    }
}
