package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;

/** Some frames of another reader's bands: that reader's band of every frame, with only {@code frames} kept. */
record FrameSelection(BandReader all, int[] frames) implements BandReader {
    @Override
    public RawStack read(int rowStart, int rows) throws IOException {
        return FrameStacks.select(all.read(rowStart, rows), frames);
    }

    @Override
    public ReadPath path() {
        return all.path();
    }
}
