package org.tomospark.executor.memory;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JVM's direct frames: reused by size, capped, other sizes released (their listeners told first), never twice idle. */
class SliceFramesTest {
    private static final int PIXELS = 1000, ROOM = 100;
    /** One frame's bytes as the pool counts them: a page of room, the pixels, a page for alignment. */
    private static final long FRAME = SliceFrame.ALIGN + 4L * PIXELS + SliceFrame.ALIGN;

    @Test
    void framesAreReusedBySizeAndCapped() {
        SliceFrames pool = new SliceFrames(3 * FRAME);
        SliceFrame a = pool.take(PIXELS, ROOM), b = pool.take(PIXELS, ROOM), c = pool.take(PIXELS, ROOM);
        assertNotNull(c);
        assertNull(pool.take(PIXELS, ROOM), "beyond the cap the caller takes a heap frame");
        assertEquals(3 * FRAME, pool.bytes());
        pool.give(b);
        pool.give(b); // given twice: kept once
        assertEquals(1, pool.free(PIXELS, ROOM));
        assertSame(b, pool.take(PIXELS, ROOM));
        assertNull(pool.take(PIXELS, ROOM));
        pool.give(SliceFrame.heap(PIXELS)); // not the pool's: ignored
        pool.give(SliceFrame.directUnpooled(PIXELS, ROOM));
        assertEquals(0, pool.free(PIXELS, ROOM));
        assertTrue(a.lasting() && a.isDirect());
    }

    @Test
    void anotherSizeReleasesIdleFramesAndTellsTheListeners() {
        SliceFrames pool = new SliceFrames(2 * FRAME);
        List<SliceFrame> released = new ArrayList<>();
        pool.addListener(released::add);
        SliceFrame a = pool.take(PIXELS, ROOM), b = pool.take(PIXELS, ROOM);
        pool.give(a);
        // a frame of another size needs room: the idle one of the first size goes, the busy one stays
        SliceFrame other = pool.take(PIXELS / 2, 0);
        assertNotNull(other);
        assertEquals(List.of(a), released);
        assertEquals(0, pool.free(PIXELS, ROOM));
        pool.give(a); // released: no longer the pool's
        assertEquals(0, pool.free(PIXELS, ROOM));
        assertNotNull(pool.take(PIXELS / 2, 0), "two small frames take the room of one large one");
        assertNull(pool.take(PIXELS / 2, 0), "b is still out, and the cap is reached");
        pool.give(b);
        assertFalse(released.contains(b));
    }

    @Test
    void aFrameKeepsItsPixelsAfterItsRoomAsLittleEndianFloats() {
        SliceFrame f = SliceFrame.directUnpooled(5, 10);
        assertEquals(SliceFrame.ALIGN, f.room());
        f.copyFrom(new float[]{1, 2, 3, 4, Float.NaN});
        assertEquals(4f, f.pixelBytes().getFloat(12));
        assertTrue(Float.isNaN(f.toArray()[4]));
        assertThrows(IllegalArgumentException.class, () -> f.copyFrom(new float[4]));
        assertThrows(IllegalStateException.class, f::array);
        assertThrows(IllegalStateException.class, () -> SliceFrame.heap(3).memory());
        assertThrows(IllegalArgumentException.class, () -> SliceFrame.heap(0));
        assertEquals(0, SliceFrame.roundRoom(0));
        assertEquals(2 * SliceFrame.ALIGN, SliceFrame.roundRoom(SliceFrame.ALIGN + 1));
    }
}
