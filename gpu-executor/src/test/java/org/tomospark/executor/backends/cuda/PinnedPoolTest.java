package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pinned buffers come back to the next processor of the same shape, and the pool keeps no more than its bound. */
class PinnedPoolTest {

    /** Records what the pool pins and unpins, without a GPU. */
    private static final class FakeDriver implements PinnedPool.Allocator {
        final List<Pointer> pinned = new ArrayList<>(), unpinned = new ArrayList<>();

        @Override
        public Pointer pin(long bytes) {
            Pointer p = new Pointer();
            pinned.add(p);
            return p;
        }

        @Override
        public void unpin(Pointer p) {
            unpinned.add(p);
        }
    }

    @Test
    void aClosedProcessorsBuffersServeTheNextProcessorOfItsShape() {
        FakeDriver d = new FakeDriver();
        PinnedPool pool = new PinnedPool(d, 1 << 20);
        // a processor's pipeline: two input and two output buffers of two sizes
        Pointer in0 = pool.take(400), in1 = pool.take(400), out0 = pool.take(100), out1 = pool.take(100);
        assertEquals(4, d.pinned.size());
        pool.give(in0, 400);
        pool.give(in1, 400);
        pool.give(out0, 100);
        pool.give(out1, 100);
        assertEquals(1000, pool.freeBytes());
        // the next processor of that shape pins nothing
        List<Pointer> again = List.of(pool.take(400), pool.take(400), pool.take(100), pool.take(100));
        assertEquals(4, d.pinned.size(), "nothing pinned anew");
        assertTrue(again.containsAll(List.of(in0, in1, out0, out1)));
        assertEquals(0, pool.freeBytes());
        assertArrayEquals(new long[]{4, 4}, pool.counts());
        assertTrue(d.unpinned.isEmpty());
    }

    @Test
    void aSizeNotKeptIsPinnedAnew() {
        FakeDriver d = new FakeDriver();
        PinnedPool pool = new PinnedPool(d, 1 << 20);
        Pointer a = pool.take(400);
        pool.give(a, 400);
        Pointer b = pool.take(300);
        assertNotSame(a, b);
        assertEquals(2, d.pinned.size());
        assertSame(a, pool.take(400));
    }

    @Test
    void buffersBeyondTheBoundAreUnpinnedAndReleaseUnpinsTheRest() {
        FakeDriver d = new FakeDriver();
        PinnedPool pool = new PinnedPool(d, 250);
        Pointer a = pool.take(100), b = pool.take(100), c = pool.take(100);
        pool.give(a, 100);
        pool.give(b, 100);
        pool.give(c, 100); // 300 > 250: unpinned
        assertEquals(List.of(c), d.unpinned);
        assertEquals(200, pool.freeBytes());
        pool.release();
        assertEquals(3, d.unpinned.size());
        assertTrue(d.unpinned.containsAll(List.of(a, b, c)));
        assertEquals(0, pool.freeBytes());
    }
}
