package org.tomospark.executor.conveyor;

import org.tomospark.executor.memory.SliceFrame;

/** Receives finished slices; slice index = detector row. */
@FunctionalInterface
public interface SliceSink {
    /** A {@code width × height} slice in {@code pixels}, which the sink may keep until it hands it back to the buffers. */
    void accept(int sliceIndex, SliceFrame pixels, int width, int height);
}
