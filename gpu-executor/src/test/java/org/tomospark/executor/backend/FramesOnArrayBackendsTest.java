package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.testing.Noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A backend that fills Java arrays takes slice frames too: heap frames are filled in place, direct frames get the same
 * values through arrays of their own, and a missing frame is refused as a missing array is.
 */
class FramesOnArrayBackendsTest {

    @Test
    void directAndHeapFramesHoldWhatArraysHold() {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(67).anglesRange(180, 45).centerOfRotation(33.2).build();
        SliceGeometry sg = SliceGeometry.square(67);
        float[][] sino = Noise.centred(3, 45 * 67, 3, i -> 1f);
        try (BackprojectionBackend b = Backends.open("java", BackendOptions.defaults())) {
            b.validate(new BackprojectionJob(scan, sg, 3));
            assertFalse(b.fillsDirectFrames());
            SliceBatch batch = new SliceBatch(0, sino, 45, 67, true);
            float[][] arrays = new float[3][sg.pixels()];
            b.process(batch, arrays);
            float[] heap = new float[sg.pixels()];
            SliceFrame[] frames = {SliceFrame.directUnpooled(sg.pixels(), 100), SliceFrame.wrap(heap),
                    SliceFrame.directUnpooled(sg.pixels(), 0), SliceFrame.heap(5)};
            b.process(batch, frames);
            for (int s = 0; s < 3; s++) assertArrayEquals(arrays[s], frames[s].toArray(), "slice " + s);
            assertSame(heap, frames[1].array());
            assertArrayEquals(new float[5], frames[3].array(), "a frame past the batch is left alone");
            SliceFrame[] missing = {frames[0], null, frames[2]};
            assertThrows(IllegalArgumentException.class, () -> b.process(batch, missing));
        }
    }
}
