package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryPlannerTest {
    private static final long GiB = 1L << 30, MiB = 1L << 20;

    @Test
    void pitchIs512ByteAligned() {
        assertEquals(2048, MemoryPlanner.pitch(2048, 4));   // 8 KiB rows, already aligned
        assertEquals(384, MemoryPlanner.pitch(333, 4));     // 128 floats = 512 B
        assertEquals(352, MemoryPlanner.pitch(333, 16));    // 32 float4 bins = 512 B
        assertEquals(64, MemoryPlanner.pitch(1, 8));
    }

    @Test
    void deviceBytesCountsDoubleBuffersPackedAndTables() {
        // 32 slices, 2048x2048 detector/projections, 2048^2 output, 4-slice half (8 B/bin), FFT 4096
        long in = 32L * 2048 * 2048 * 4;          // 512 MiB
        long out = 32L * 2048 * 2048 * 4;         // 512 MiB
        long packed = 2048L * 2048 * 8;           // 32 MiB
        long tables = 2048L * 24 + 4096L * 8 + 2049L * 4;
        assertEquals(2 * in + 2 * out + packed + tables,
                MemoryPlanner.deviceBytes(32, 2048, 2048, 2048, 2048, 4, 2, 4096));
        // a partial last group still gets whole output planes: 5 slices with k=4 -> 8 planes
        long expected = 2L * 5 * 10 * 100 * 4 + 2L * 8 * 20 * 30 * 4 + 10L * MemoryPlanner.pitch(100, 16) * 16 + 10L * 24;
        assertEquals(expected, MemoryPlanner.deviceBytes(5, 100, 10, 20, 30, 4, 4, 0));
        // a hybrid :xe variant also keeps one 16-byte entry per column and one more (column -1) per projection:
        // 2049 entries round up to a 512-byte aligned pitch of 2080
        assertEquals(2 * in + 2 * out + packed + 2048L * 2080 * 16 + tables,
                MemoryPlanner.deviceBytes(32, 2048, 2048, 2048, 2048, 4, 2, 4096, 16, 1));
        // a variant that back-projects the chunk's 8 groups in one launch keeps 8 of each; a cap of 3 groups per
        // launch keeps 3; a cap above the chunk's groups changes nothing
        assertEquals(2 * in + 2 * out + 8 * (packed + 2048L * 2080 * 16) + tables,
                MemoryPlanner.deviceBytes(32, 2048, 2048, 2048, 2048, 4, 2, 4096, 16, 8));
        assertEquals(2 * in + 2 * out + 3 * (packed + 2048L * 2080 * 16) + tables,
                MemoryPlanner.deviceBytes(32, 2048, 2048, 2048, 2048, 4, 2, 4096, 16, 3));
        assertEquals(MemoryPlanner.deviceBytes(32, 2048, 2048, 2048, 2048, 4, 2, 4096, 16, 8),
                MemoryPlanner.deviceBytes(32, 2048, 2048, 2048, 2048, 4, 2, 4096, 16, 1000));
    }

    @Test
    void planKeepsPreferredChunkWhenMemoryIsAmple() {
        MemoryPlanner.Plan p = MemoryPlanner.plan(80 * GiB, 2048, 2048, 2048, 2048, 4, 2, 2048, 32, 0.8, 4096);
        assertEquals(32, p.chunkSlices());
        assertEquals(4, p.kernelSlices());
        assertEquals(2L * 32 * 2048 * 2048 * 4 * 2, p.pinnedHostBytes());
        assertTrue(p.deviceBytes() < 80 * GiB);
    }

    @Test
    void planRoundsChunkToKernelSlicesAndCapsAtBatch() {
        assertEquals(8, MemoryPlanner.plan(80 * GiB, 256, 180, 256, 256, 8, 2, 5, 32, 0.8, 0).chunkSlices());
        assertEquals(12, MemoryPlanner.plan(80 * GiB, 256, 180, 256, 256, 4, 2, 100, 10, 0.8, 0).chunkSlices());
    }

    @Test
    void planShrinksChunkToFitFreeMemory() {
        // each slice costs 2*16 MiB in + 2*16 MiB out = 64 MiB; 1.3 GiB free, 0.8 of (free - 256 MiB) ~ 860 MiB
        MemoryPlanner.Plan p = MemoryPlanner.plan(1300 * MiB, 2048, 2048, 2048, 2048, 4, 2, 2048, 64, 0.8, 0);
        assertEquals(12, p.chunkSlices());
        assertTrue(p.deviceBytes() <= (long) ((1300 * MiB - MemoryPlanner.RESERVE_BYTES) * 0.8));
        assertTrue(MemoryPlanner.deviceBytes(16, 2048, 2048, 2048, 2048, 4, 2, 0)
                > (long) ((1300 * MiB - MemoryPlanner.RESERVE_BYTES) * 0.8));
    }

    @Test
    void planKeepsPinnedBuffersUnder2GiB() {
        MemoryPlanner.Plan p = MemoryPlanner.plan(140 * GiB, 2048, 2048, 2048, 2048, 4, 2, 2048, 256, 0.9, 0);
        assertTrue((long) p.chunkSlices() * 2048 * 2048 * 4 < Integer.MAX_VALUE, "chunk " + p.chunkSlices());
        assertEquals(124, p.chunkSlices());
    }

    @Test
    void tooLittleMemoryIsAClearError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MemoryPlanner.plan(300 * MiB, 2048, 2048, 2048, 2048, 1, 4, 10, 10, 0.8, 0));
        assertTrue(e.getMessage().contains("not enough device memory"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MemoryPlanner.plan(GiB, 10, 10, 10, 10, 1, 4, 1, 1, 1.5, 0));
    }
}
