package org.tomospark.executor.iterative;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The gradient and divergence of total variation: adjoint to each other, exact on ramps, and TV of a step. */
class TotalVariationTest {
    @ParameterizedTest
    @CsvSource({"1, 1, 1", "1, 7, 1", "5, 1, 2", "6, 9, 1", "13, 8, 3", "32, 31, 8"})
    void divergenceIsMinusTheAdjointOfTheGradient(int rows, int cols, int k) {
        Random rnd = new Random(rows * 131L + cols * 7L + k);
        int n = rows * cols * k;
        float[] x = random(rnd, n), zx = random(rnd, n), zy = random(rnd, n);
        float[] gx = new float[n], gy = new float[n], div = new float[n];
        TotalVariation.gradient(x, gx, gy, rows, cols, k);
        TotalVariation.divergence(zx, zy, div, rows, cols, k);
        double lhs = 0, rhs = 0, scale = 0;
        for (int i = 0; i < n; i++) {
            lhs += (double) gx[i] * zx[i] + (double) gy[i] * zy[i];
            rhs -= (double) x[i] * div[i];
            scale += Math.abs((double) gx[i] * zx[i]) + Math.abs((double) gy[i] * zy[i]);
        }
        assertEquals(lhs, rhs, 1e-5 * Math.max(1, scale), "<grad x, z> = -<x, div z>");
    }

    @ParameterizedTest
    @CsvSource({"4, 5, 1", "9, 6, 3"})
    void gradientOfARampIsItsSlopeAndZeroAtTheFarEdges(int rows, int cols, int k) {
        float[] x = new float[rows * cols * k];
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                for (int s = 0; s < k; s++) x[(i * cols + j) * k + s] = 2f * j - 3f * i + s;
        float[] gx = new float[x.length], gy = new float[x.length];
        TotalVariation.gradient(x, gx, gy, rows, cols, k);
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                for (int s = 0; s < k; s++) {
                    int o = (i * cols + j) * k + s;
                    assertEquals(j + 1 < cols ? 2f : 0f, gx[o], 1e-6);
                    assertEquals(i + 1 < rows ? -3f : 0f, gy[o], 1e-6);
                }
    }

    @ParameterizedTest
    @CsvSource({"10, 12, 2"})
    void totalVariationOfAStepIsItsHeightTimesItsLength(int rows, int cols, int k) {
        // a vertical step of height h between columns 4 and 5: each row contributes h once; slice s has height s + 1
        float[] x = new float[rows * cols * k];
        for (int i = 0; i < rows; i++)
            for (int j = 5; j < cols; j++)
                for (int s = 0; s < k; s++) x[(i * cols + j) * k + s] = s + 1;
        double[] tv = TotalVariation.of(x, rows, cols, k);
        for (int s = 0; s < k; s++) assertEquals((s + 1) * rows, tv[s], 1e-9);
    }

    private static float[] random(Random rnd, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) rnd.nextGaussian();
        return v;
    }
}
