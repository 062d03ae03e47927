package org.tomospark.executor.pipeline;

/** Receives finished slices; slice index = detector row. */
@FunctionalInterface
public interface SliceSink {
    void accept(int sliceIndex, float[] pixels, int width, int height);
}
