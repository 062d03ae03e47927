package org.tomospark.executor.stripe;

import java.util.Arrays;

/** 1-D median filtering with mirrored edges (… c b | a b c … : the edge sample is not repeated). */
final class Median {
    private Median() {
    }

    /** The running median of {@code x} over an odd window {@code size}. */
    static float[] filter(float[] x, int size) {
        if (size < 1 || size % 2 == 0) throw new IllegalArgumentException("median window must be odd, got " + size);
        int n = x.length, half = size / 2;
        float[] out = new float[n];
        float[] win = new float[size];
        for (int j = 0; j < n; j++) {
            for (int k = -half; k <= half; k++) win[k + half] = x[reflect(j + k, n)];
            Arrays.sort(win);
            out[j] = win[half];
        }
        return out;
    }

    /** The median of all of {@code x} (mean of the two middle values for an even count). */
    static float of(float[] x) {
        float[] s = x.clone();
        Arrays.sort(s);
        int n = s.length;
        return (n & 1) == 1 ? s[n / 2] : 0.5f * (s[n / 2 - 1] + s[n / 2]);
    }

    static int reflect(int j, int n) {
        if (n == 1) return 0;
        while (j < 0 || j >= n) j = j < 0 ? -j : 2 * (n - 1) - j;
        return j;
    }
}
