package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;

/** Reads a band of detector rows of every frame of one dataset or file. */
public interface BandReader {
    /** Rows [rowStart, rowStart + rows) of every frame, [frame][row][col]; the caller has checked the range. */
    RawStack read(int rowStart, int rows) throws IOException;

    ReadPath path();
}
