package org.tomospark.executor.backend;

import java.util.Locale;

/** How filtered sinogram bins are stored for back-projection. Arithmetic is always float32. */
public enum SampleFormat {
    /** IEEE float32 bins. */
    FLOAT32,
    /** IEEE half-precision (binary16) bins, converted to float before interpolation (seed paper sect. 5.3). */
    HALF;

    public static SampleFormat parse(String s) {
        String k = s.trim().toUpperCase(Locale.ROOT);
        if (k.equals("FLOAT") || k.equals("F32")) return FLOAT32;
        if (k.equals("F16") || k.equals("FLOAT16")) return HALF;
        try {
            return valueOf(k);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown sample format '" + s + "': expected float32 or half");
        }
    }
}
