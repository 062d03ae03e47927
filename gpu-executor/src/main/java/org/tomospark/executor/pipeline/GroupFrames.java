package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.memory.SliceFrame;

import java.util.concurrent.CancellationException;
import java.util.function.LongSupplier;

/**
 * The frames a processor's slices go into: direct frames where the backend fills them from its device, heap frames for
 * the paths that compute into Java arrays; taken from the processor's {@link SliceBuffers} and given back there.
 */
final class GroupFrames {
    private final SliceBuffers buffers;
    private final BackprojectionBackend backend;

    GroupFrames(SliceBuffers buffers, BackprojectionBackend backend) {
        this.buffers = buffers;
        this.backend = backend;
    }

    /** Frames for n slices of the back-projector: direct where the backend fills them, else heap frames. */
    SliceFrame[] forBackend(int n) {
        if (!backend.fillsDirectFrames()) return heap(n);
        SliceFrame[] out = new SliceFrame[n];
        for (int i = 0; i < n; i++) out[i] = buffers.take();
        return out;
    }

    /** Heap frames for n slices, for the paths that compute into Java arrays. */
    SliceFrame[] heap(int n) {
        SliceFrame[] out = new SliceFrame[n];
        for (int i = 0; i < n; i++) out[i] = buffers.takeHeap();
        return out;
    }

    float[][] arrays(int n) {
        return SliceFrame.arrays(heap(n));
    }

    /** A frame of a written result, for the next groups. */
    void give(SliceFrame frame) {
        buffers.give(frame);
    }

    /**
     * Runs a batch into {@code out}; if it is cancelled, the frames go back for the next group (a backend stops a
     * cancelled batch with nothing in flight; after another failure a device may still be writing into them).
     */
    long givingBack(SliceFrame[] out, LongSupplier body) {
        try {
            return body.getAsLong();
        } catch (CancellationException e) {
            for (SliceFrame f : out) buffers.give(f);
            throw e;
        }
    }
}
