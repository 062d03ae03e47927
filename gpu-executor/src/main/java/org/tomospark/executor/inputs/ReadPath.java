package org.tomospark.executor.inputs;

/** How a dataset's bands are read. */
public enum ReadPath {
    /** Contiguous storage: each frame's band is one byte range, read by positioned reads in parallel. */
    CONTIGUOUS,
    /** Chunked storage: only the chunks the band overlaps are read, and decoded in parallel. */
    CHUNKED,
    /**
     * A general hyperslab read, one thread ({@link HyperslabBandReader}): layouts, types and filters the direct paths
     * do not take.
     */
    HYPERSLAB,
    /** A virtual dataset: the band's part of each source dataset it overlaps, each read by that dataset's own path. */
    VIRTUAL
}
