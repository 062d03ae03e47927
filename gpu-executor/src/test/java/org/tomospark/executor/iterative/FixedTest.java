package org.tomospark.executor.iterative;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FixedTest {
    /** Floor and fraction against Math.floor, at the line's start and after many steps, across zero and the edges. */
    @ParameterizedTest
    @ValueSource(doubles = {0.7071067811865476, -1.0, 1.0, 1.4142135623730951, -0.3333333333333333, 0.001})
    void stepsAgreeWithDoubleArithmetic(double step) {
        Random r = new Random(7);
        for (int line = 0; line < 200; line++) {
            double start = -1 + r.nextDouble() * 10 - (step > 0 ? 0 : -3000 * step);
            long x = Fixed.of(start), dx = Fixed.of(step);
            for (int n = 0; n < 4096; n++, x += dx) {
                double exact = start + n * step;
                double fl = Math.floor(exact), frac = exact - fl;
                // positions within 1e-6 of a pixel after 4096 steps; the floor may differ only that close to an integer
                if (Math.min(frac, 1 - frac) > 1e-6) assertEquals(fl, Fixed.floor(x), "floor at step " + n + " from " + start);
                double got = Fixed.floor(x) + (double) Fixed.fraction(x);
                assertEquals(exact, got, 1.2e-6, "position at step " + n + " from " + start);
            }
        }
    }
}
