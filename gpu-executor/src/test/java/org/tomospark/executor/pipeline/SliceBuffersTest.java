package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ReconstructionParams;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.TiffEncoder;
import org.tomospark.executor.memory.SliceFrame;

import java.nio.ByteOrder;
import java.util.IdentityHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slice frames handed back and out again, bounded by the capacity, and allocated ahead in the background. */
class SliceBuffersTest {

    @Test
    void givenHeapFramesComeBackUpToTheCapacity() {
        SliceBuffers b = new SliceBuffers(6, 2);
        SliceFrame x = b.take(), y = b.take(), z = b.take();
        assertEquals(6, x.pixels());
        assertFalse(x.isDirect());
        assertNotSame(x.array(), y.array());
        b.give(x);
        b.give(y);
        b.give(z); // beyond the capacity: dropped
        b.give(SliceFrame.heap(5)); // another size: dropped
        assertEquals(2, b.free());
        Map<float[], Boolean> seen = new IdentityHashMap<>();
        seen.put(b.take().array(), true);
        seen.put(b.take().array(), true);
        assertTrue(seen.containsKey(x.array()) && seen.containsKey(y.array()));
        assertNotSame(z.array(), b.take().array());
        assertThrows(IllegalArgumentException.class, () -> new SliceBuffers(0, 1));
    }

    @Test
    void prefillAllocatesAheadWithinTheCapacity() throws Exception {
        SliceBuffers b = new SliceBuffers(1 << 10, 5);
        b.prefillInBackground(8);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (b.free() < 5 && System.nanoTime() < deadline) Thread.sleep(5);
        Thread.sleep(50); // the arrays beyond the capacity are dropped, not kept
        assertEquals(5, b.free());
        float[] a = b.take().array();
        assertEquals(1 << 10, a.length);
        b.give(a);
        assertSame(a, b.take().array(), "the last array given is the next taken");
    }

    @Test
    void directFramesKeepTheirRoomAndComeBackFromTheJvmPool() {
        int pixels = 3 * 5;
        SliceBuffers b = SliceBuffers.direct(pixels, 2, 100);
        SliceFrame f = b.take();
        assertTrue(f.isDirect() && f.lasting(), "a direct frame of the JVM's pool: " + f);
        assertEquals(SliceFrame.ALIGN, f.room(), "the room is rounded up to a page");
        assertEquals(0, f.memory().position());
        assertEquals(f.room() + 4 * pixels, f.memory().capacity());
        for (int i = 0; i < pixels; i++) f.floats().put(i, i - 7.5f);
        assertEquals(-7.5f, f.get(0));
        assertEquals(6.5f, f.toArray()[14]);
        // the pixels are little-endian floats right after the room: the bytes a float32 file holds
        assertEquals(Float.floatToRawIntBits(6.5f), f.memory().order(ByteOrder.LITTLE_ENDIAN).getInt(f.room() + 4 * 14));
        assertTrue(b.takeHeap().array().length == pixels, "heap frames from the same buffers for array paths");
        b.give(f);
        assertSame(f, b.take(), "a direct frame given back is taken again");
    }

    @Test
    void aFloat32TiffRunKeepsRoomForItsHeader() {
        SliceGeometry g = SliceGeometry.square(64);
        ReconstructionParams tiff = ReconstructionParams.builder().backend("java").build();
        int header = TiffEncoder.pixelOffset(64, 64, tiff.sliceDescription(), SampleCoding.FLOAT32);
        assertEquals(header, SliceBuffers.frameRoom(tiff, g));
        assertTrue(header > 8 && header % 16 == 0);
        assertEquals(0, SliceBuffers.frameRoom(tiff.toBuilder().outputFormat(OutputFormat.ZARR).build(), g));
        assertEquals(0, SliceBuffers.frameRoom(tiff.toBuilder().outputCoding(SampleCoding.FLOAT16).build(), g));
    }
}
