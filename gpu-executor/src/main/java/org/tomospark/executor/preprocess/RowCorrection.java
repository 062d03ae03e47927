package org.tomospark.executor.preprocess;

/**
 * The flat/dark correction and −log of one projection row: the transmission in float, its logarithm in double
 * ({@link FloatLog}), as the CUDA kernel computes them, so that the host and the device give the same floats (but
 * for one value in about 10⁸, by one unit in the last place, where the two double logarithms round differently).
 *
 * <p>Two passes over the row. The first, {@code (raw − dark) / den}, is branch-free, so that the JIT vectorises it;
 * the second clamps, counts and takes the logarithm, one value at a time (a table lookup per value). Neither uses
 * the Vector API: its shared code is compiled with the type profiles of every vector shape the JVM has run, and a
 * lane-parallel correction left the java backend's back-projection kernel, compiled after it, two to eight times
 * slower (BENCHMARKS.md, "Host preprocessing").
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
        if (u16 != null) transmissionU16(u16, src, dark, den, fo, width, out, dst);
        else transmissionF32(f32, src, dark, den, fo, width, out, dst);
        float atFloor = takeLog ? (float) -FloatLog.log(floor) : floor;
        long clamped = 0;
        boolean nonFinite = false;
        for (int c = dst; c < dst + width; c++) {
            float tr = out[c];
            float v;
            if (tr >= floor) {
                v = takeLog ? (float) -FloatLog.log(tr) : tr;
            } else if (tr != tr) {
                v = Float.NaN;
            } else {
                v = atFloor;
                clamped++;
            }
            if (!Float.isFinite(v)) nonFinite = true;
            out[c] = v;
        }
        return new Counts(clamped, nonFinite);
    }

    /**
     * What {@link #correct} would count for the row, without its −log: the transmissions (computed into {@code scratch},
     * {@code width} values, by the same pass) below the floor, and those that would come out non-finite (NaN, or +∞:
     * with a positive floor every other value's −log is finite). Returns {clamped, nonFinite}.
     */
    static long[] count(short[] u16, float[] f32, int src, float[] dark, float[] den, int fo, int width, float floor,
                        float[] scratch) {
        if (u16 != null) transmissionU16(u16, src, dark, den, fo, width, scratch, 0);
        else transmissionF32(f32, src, dark, den, fo, width, scratch, 0);
        long clamped = 0, nonFinite = 0;
        for (int c = 0; c < width; c++) {
            float tr = scratch[c];
            if (tr >= floor) {
                if (tr == Float.POSITIVE_INFINITY) nonFinite++;
            } else if (tr != tr) {
                nonFinite++;
            } else {
                clamped++;
            }
        }
        return new long[]{clamped, nonFinite};
    }

    private static void transmissionU16(short[] u16, int src, float[] dark, float[] den, int fo, int width, float[] out,
                                        int dst) {
        for (int c = 0; c < width; c++) out[dst + c] = ((u16[src + c] & 0xffff) - dark[fo + c]) / den[fo + c];
    }

    private static void transmissionF32(float[] f32, int src, float[] dark, float[] den, int fo, int width, float[] out,
                                        int dst) {
        for (int c = 0; c < width; c++) out[dst + c] = (f32[src + c] - dark[fo + c]) / den[fo + c];
    }
}
