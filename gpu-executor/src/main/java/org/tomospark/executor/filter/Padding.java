package org.tomospark.executor.filter;

import java.util.Locale;

/** How a sinogram row is extended to the FFT length before filtering. */
public enum Padding {
    /** Zeros beyond the detector. */
    ZERO,
    /** The edge values repeated: the right half of the pad repeats the last column, the left half the first. */
    EDGE;

    public static Padding parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown padding '" + s + "': expected zero or edge");
        }
    }
}
