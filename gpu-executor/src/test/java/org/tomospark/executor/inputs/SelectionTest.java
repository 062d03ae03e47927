package org.tomospark.executor.inputs;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Serialized selections built byte by byte as the HDF5 file format specification lays them out (selection type,
 * version, then per version: reserved bytes and lengths, flags, the encoding size, the rank, a regular hyperslab's
 * start, stride, count and block, or a list of blocks), and the indices they select in each dimension.
 */
class SelectionTest {
    private static final int ALL = 3, HYPERSLAB = 2, POINTS = 1;

    private static ByteBuffer buffer() {
        return ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static Selection read(ByteBuffer b) {
        b.flip();
        Selection s = Selection.read(b);
        assertEquals(0, b.remaining(), "the whole selection is read, and no more");
        return s;
    }

    @Test
    void allSelectsEveryIndex() {
        ByteBuffer b = buffer().putInt(ALL).putInt(1).putInt(0).putInt(0);
        assertArrayEquals(new int[][]{{0, 1, 2}, {0, 1}}, read(b).indices(new int[]{3, 2}));
    }

    @Test
    void regularHyperslabVersion2() {
        ByteBuffer b = buffer().putInt(HYPERSLAB).putInt(2).put((byte) 1).putInt(0).putInt(2);
        b.putLong(1).putLong(4).putLong(3).putLong(2);  // dimension 0: blocks of 2 every 4 from 1, three of them
        b.putLong(0).putLong(1).putLong(1).putLong(5);  // dimension 1: 0..4
        assertArrayEquals(new int[][]{{1, 2, 5, 6, 9, 10}, {0, 1, 2, 3, 4}}, read(b).indices(new int[]{12, 5}));
    }

    @Test
    void regularHyperslabVersion3WithFourByteValues() {
        ByteBuffer b = buffer().putInt(HYPERSLAB).putInt(3).put((byte) 1).put((byte) 4).putInt(1);
        b.putInt(3).putInt(1).putInt(1).putInt(4);
        assertArrayEquals(new int[][]{{3, 4, 5, 6}}, read(b).indices(new int[]{7}));
    }

    /** Version 1 lists blocks: start of every dimension, then end (inclusive); a grid of blocks is a product. */
    @Test
    void blockListOfVersion1ThatFormsAGrid() {
        ByteBuffer b = buffer().putInt(HYPERSLAB).putInt(1).putInt(0).putInt(0).putInt(2).putInt(4);
        int[][] blocks = {{0, 0, 1, 2}, {0, 5, 1, 6}, {4, 0, 4, 2}, {4, 5, 4, 6}};
        for (int[] blk : blocks) for (int v : blk) b.putInt(v);
        assertArrayEquals(new int[][]{{0, 1, 4}, {0, 1, 2, 5, 6}}, read(b).indices(new int[]{5, 7}));
    }

    @Test
    void blockListOfVersion3WithEightByteValues() {
        ByteBuffer b = buffer().putInt(HYPERSLAB).putInt(3).put((byte) 0).put((byte) 8).putInt(1).putLong(2);
        b.putLong(6).putLong(7).putLong(0).putLong(1);
        assertArrayEquals(new int[][]{{0, 1, 6, 7}}, read(b).indices(new int[]{8}));
    }

    @Test
    void blocksThatAreNoGridAreRefused() {
        ByteBuffer b = buffer().putInt(HYPERSLAB).putInt(1).putInt(0).putInt(0).putInt(2).putInt(2);
        for (int v : new int[]{0, 0, 0, 3, 1, 4, 1, 7}) b.putInt(v);  // [0, 0..3] and [1, 4..7]: an L, not a grid
        Selection grid = read(b);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> grid.indices(new int[]{2, 8}));
        assertTrue(e.getMessage().contains("irregular"), e.getMessage());
    }

    @Test
    void pointsAndUnlimitedHyperslabsAreRefused() {
        ByteBuffer points = buffer().putInt(POINTS).putInt(1).putInt(0).putInt(0);
        points.flip();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Selection.read(points));
        assertTrue(refused.getMessage().contains("point"), refused.getMessage());
        ByteBuffer unlimited = buffer().putInt(HYPERSLAB).putInt(2).put((byte) 1).putInt(0).putInt(1);
        unlimited.putLong(0).putLong(10).putLong(-1).putLong(10);
        unlimited.flip();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Selection.read(unlimited)).getMessage()
                .contains("unlimited"));
    }

    @Test
    void aHyperslabOutsideTheDatasetIsRefused() {
        ByteBuffer b = buffer().putInt(HYPERSLAB).putInt(2).put((byte) 1).putInt(0).putInt(1);
        b.putLong(2).putLong(1).putLong(1).putLong(5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(b).indices(new int[]{6}));
        assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
    }
}
