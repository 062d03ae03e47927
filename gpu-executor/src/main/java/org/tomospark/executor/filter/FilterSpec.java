package org.tomospark.executor.filter;

import java.io.Serializable;

/**
 * What ramp filter to apply: window, frequency cutoff (fraction of Nyquist, (0, 1]) and padding.
 */
public record FilterSpec(FilterWindow window, double cutoff, Padding padding) implements Serializable {
    public FilterSpec {
        if (window == null) throw new IllegalArgumentException("filter: window must be given");
        if (padding == null) throw new IllegalArgumentException("filter.padding must be given");
        if (!(cutoff > 0 && cutoff <= 1.0))
            throw new IllegalArgumentException("filter.cutoff must be in (0, 1], got " + cutoff);
    }

    public static FilterSpec of(FilterWindow w) {
        return new FilterSpec(w, 1.0, Padding.ZERO);
    }

    /** FFT length: the smallest power of two ≥ 2·width. */
    public static int paddedLength(int width) {
        int n = Integer.highestOneBit(Math.max(1, 2 * width - 1)) << 1;
        return n;
    }
}
