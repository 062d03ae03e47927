package org.tomospark.executor.preprocess;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RawStackTest {
    private static final int FRAMES = 3, ROWS = 5, WIDTH = 7;

    @Test
    void frameOfFloatsIsThatFramesValuesInRowMajorOrder() {
        float[] data = new float[FRAMES * ROWS * WIDTH];
        for (int i = 0; i < data.length; i++) data[i] = i * 0.5f - 20f;
        RawStack s = RawStack.ofFloat(FRAMES, ROWS, WIDTH, data);
        for (int f = 0; f < FRAMES; f++) {
            float[] frame = s.frame(f);
            assertEquals(ROWS * WIDTH, frame.length);
            for (int r = 0; r < ROWS; r++)
                for (int c = 0; c < WIDTH; c++) assertEquals((((f * ROWS) + r) * WIDTH + c) * 0.5f - 20f, frame[r * WIDTH + c]);
        }
    }

    @Test
    void frameOfUint16ReadsTheSamplesUnsigned() {
        short[] data = new short[FRAMES * ROWS * WIDTH];
        for (int i = 0; i < data.length; i++) data[i] = (short) (65535 - 600 * i);
        RawStack s = RawStack.ofUint16(FRAMES, ROWS, WIDTH, data);
        float[] expected = new float[ROWS * WIDTH];
        for (int i = 0; i < expected.length; i++) expected[i] = 65535 - 600 * (ROWS * WIDTH + i);
        assertArrayEquals(expected, s.frame(1));
        assertEquals(65535f, s.frame(0)[0]);
    }

    @Test
    void frameOutsideTheStackIsRefused() {
        RawStack s = RawStack.ofFloat(FRAMES, ROWS, WIDTH, new float[FRAMES * ROWS * WIDTH]);
        assertThrows(IndexOutOfBoundsException.class, () -> s.frame(FRAMES));
        assertThrows(IndexOutOfBoundsException.class, () -> s.frame(-1));
    }
}
