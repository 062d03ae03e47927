package org.tomospark.executor.inputs;

import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.dataset.chunked.Chunk;
import io.jhdf.dataset.chunked.ChunkOffset;
import io.jhdf.dataset.chunked.ChunkedDatasetBase;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * The chunk index of a chunked dataset as jhdf reads it: each stored chunk by its offset in the dataset, with its
 * address, size and filter mask.
 * <p>
 * HDF5 keeps a 32-bit filter mask for every chunk: bit i set means filter i of the dataset's pipeline was not applied
 * to that chunk (HDF5 skips an optional filter that fails, such as a compressor on a chunk it cannot shrink, and
 * stores the chunk as it is). jhdf 0.13.0 reads the masks but ignores them when it decodes, running the whole
 * pipeline on every chunk, and keeps the index behind the protected {@code ChunkedDatasetBase.getChunkLookup()}. So
 * this project reads the index here, by reflection, and decodes each chunk itself ({@link StoredChunks}). This is the
 * project's only reflection into jhdf: remove it, and let jhdf decode the chunks, once a jhdf release honours the
 * masks.
 */
final class JhdfChunkIndex {
    private static final String METHOD = "getChunkLookup";
    private static volatile Method lookup;

    private JhdfChunkIndex() {
    }

    /**
     * @param where names the file and dataset in errors
     * @return the stored chunks by offset; a chunk never written is absent, or (in a fixed-array index) present with
     * an undefined address
     * @throws IllegalStateException where jhdf's internals are no longer as this class expects
     */
    @SuppressWarnings("unchecked")
    static Map<ChunkOffset, Chunk> of(ChunkedDataset ds, String where) {
        if (!(ds instanceof ChunkedDatasetBase))
            throw changed(where, "the dataset is a " + ds.getClass().getName() + ", not a ChunkedDatasetBase", null);
        Object index;
        try {
            index = method(where).invoke(ds);
        } catch (IllegalAccessException e) {
            throw changed(where, "ChunkedDatasetBase." + METHOD + "() cannot be called", e);
        } catch (InvocationTargetException e) {
            // jhdf's own failure to read the index (a damaged file): rethrown as it is
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(where + ": cannot read the chunk index", e.getCause());
        }
        if (!(index instanceof Map<?, ?> map))
            throw changed(where, "ChunkedDatasetBase." + METHOD + "() returned "
                    + (index == null ? "null" : "a " + index.getClass().getName()) + ", not a Map", null);
        return (Map<ChunkOffset, Chunk>) map;
    }

    private static Method method(String where) {
        Method m = lookup;
        if (m != null) return m;
        try {
            m = ChunkedDatasetBase.class.getDeclaredMethod(METHOD);
            m.setAccessible(true);
        } catch (NoSuchMethodException | RuntimeException e) {
            throw changed(where, "ChunkedDatasetBase has no accessible " + METHOD + "()", e);
        }
        lookup = m;
        return m;
    }

    private static IllegalStateException changed(String where, String what, Exception cause) {
        String version = ChunkedDatasetBase.class.getPackage().getImplementationVersion();
        return new IllegalStateException(where + ": cannot read the chunk index of this chunked dataset, which"
                + " tomospark needs to honour each chunk's filter mask: " + what + " in jhdf "
                + (version == null ? "(version unknown)" : version) + ". tomospark was built against jhdf 0.13.0;"
                + " its class JhdfChunkIndex must follow jhdf's change (or be removed where jhdf honours the masks"
                + " itself)", cause);
    }
}
