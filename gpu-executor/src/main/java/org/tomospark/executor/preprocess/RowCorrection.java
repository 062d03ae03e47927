package org.tomospark.executor.preprocess;

/**
 * The flat/dark correction and −log of one projection row: the transmission in float, its logarithm in double
 * ({@link FloatLog}), as the CUDA kernel computes them, so that the host and the device give the same floats (but
 * for one value in about 10⁸, by one unit in the last place, where the two double logarithms round differently).
 *
 * <p>The loop is scalar on purpose. The Vector API's shared code is compiled with the type profiles of every vector
 * shape the JVM has run; a lane-parallel loop here runs before the java backend's back-projection kernel is compiled
 * and leaves that kernel two to eight times slower, even with the kernel's shape a constant (BENCHMARKS.md, "Host
 * preprocessing").
 */
final class RowCorrection {
    private RowCorrection() {
    }

    /** What one call did: transmissions clamped to the floor, and whether any value came out NaN or infinite. */
    record Counts(long clamped, boolean nonFinite) {
    }

    /** The {@code width} pixels of the row: raw from {@code u16} (uint16 counts) or else {@code f32} at {@code src}. */
    static Counts correct(short[] u16, float[] f32, int src, float[] dark, float[] den, int fo, int width,
                         float floor, boolean takeLog, float[] out, int dst) {
        long clamped = 0;
        boolean nonFinite = false;
        for (int c = 0; c < width; c++) {
            float raw = u16 != null ? (u16[src + c] & 0xffff) : f32[src + c];
            float tr = (raw - dark[fo + c]) / den[fo + c];
            float v;
            if (Float.isNaN(tr)) {
                v = Float.NaN;
            } else {
                if (!(tr >= floor)) {
                    tr = floor;
                    clamped++;
                }
                v = takeLog ? (float) -FloatLog.log(tr) : tr;
            }
            if (!Float.isFinite(v)) nonFinite = true;
            out[dst + c] = v;
        }
        return new Counts(clamped, nonFinite);
    }
}
