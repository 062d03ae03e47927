package org.tomospark.executor.pipeline;

import org.junit.jupiter.api.Test;

import java.util.IdentityHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slice arrays handed back and out again, bounded by the capacity, and allocated ahead in the background. */
class SliceBuffersTest {

    @Test
    void givenArraysComeBackUpToTheCapacity() {
        SliceBuffers b = new SliceBuffers(6, 2);
        float[] x = b.take(), y = b.take(), z = b.take();
        assertEquals(6, x.length);
        assertNotSame(x, y);
        b.give(x);
        b.give(y);
        b.give(z); // beyond the capacity: dropped
        b.give(new float[5]); // another size: dropped
        assertEquals(2, b.free());
        Map<float[], Boolean> seen = new IdentityHashMap<>();
        seen.put(b.take(), true);
        seen.put(b.take(), true);
        assertTrue(seen.containsKey(x) && seen.containsKey(y));
        assertNotSame(z, b.take());
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
        float[] a = b.take();
        assertEquals(1 << 10, a.length);
        b.give(a);
        assertSame(a, b.take(), "the last array given is the next taken");
    }
}
