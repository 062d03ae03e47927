package org.tomospark.executor.backend;

import java.util.Locale;

/** Detector interpolation used when a ray falls between two bins. */
public enum Interpolation {
    LINEAR, NEAREST;

    public static Interpolation parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown interpolation '" + s + "': expected linear or nearest");
        }
    }
}
