package org.tomospark.executor.inputs;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Angles that are probably wrong are remarked on; plausible ones of every common kind are not. */
class InputWarningsTest {
    static double[] steps(int n, double start, double step) {
        return IntStream.range(0, n).mapToDouble(i -> start + i * step).toArray();
    }

    @Test
    void plausibleAnglesPassQuietly() {
        assertEquals(List.of(), InputWarnings.angles(steps(180, 0, 1), "a"));           // 180 degrees
        assertEquals(List.of(), InputWarnings.angles(steps(360, 0, 1), "a"));           // 360 degrees
        assertEquals(List.of(), InputWarnings.angles(steps(90, 180, -2), "a"));         // rotating backwards
        assertEquals(List.of(), InputWarnings.angles(steps(60, 0, 1), "a"));            // a limited-angle scan of 60 degrees
        assertEquals(List.of(), InputWarnings.angles(steps(4, 0, 0.01), "a"));          // too few to judge the range
    }

    @Test
    void radiansAreRecognisedFromTheSpan() {
        List<String> w = InputWarnings.angles(steps(180, 0, Math.PI / 180), "scan.h5:/exchange/theta");
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("scan.h5:/exchange/theta: the angles span only 0..3.12414 degrees over 180 projections"), w.get(0));
        assertEquals(1, InputWarnings.angles(steps(360, 0, 2 * Math.PI / 360), "a").size()); // a 360-degree scan in radians
    }

    @Test
    void repeatsAndTurnsAreNamedWithTheirPlace() {
        double[] a = steps(20, 0, 9);
        a[5] = a[4]; // repeated
        List<String> w = InputWarnings.angles(a, "t");
        assertEquals(List.of("t: 1 angle repeats an earlier one (first 36 degrees); repeated projections weigh those directions twice"), w);
        double[] b = steps(20, 0, 9);
        b[7] = 1.5; // goes back
        List<String> v = InputWarnings.angles(b, "t");
        assertEquals(1, v.size());
        assertTrue(v.get(0).contains("projection 7 at 1.5 degrees follows 54"), v.get(0));
        assertEquals(7, InputWarnings.firstTurn(b));
        assertEquals(-1, InputWarnings.firstTurn(new double[]{3, 3, 2, 1, 1}));
    }
}
