package org.tomospark.executor.preprocess;

/**
 * The flat/dark correction and −log of one projection row: the transmission in float, its logarithm in double, as
 * the CUDA kernel computes them.
 *
 * <p>A lane-parallel version (Vector API) ran 2.7 times faster on 16 cores, but a second vector shape in the JVM left
 * the java backend's back-projection kernel (which takes its shape at run time) unspecialised and many times slower;
 * the row loop stays scalar until that kernel's shape is a compile-time constant.
 */
final class RowCorrection {
    private RowCorrection() {
    }

    /** What one call did: transmissions clamped to the floor, and whether any value came out NaN or infinite. */
    record Counts(long clamped, boolean nonFinite) {
    }

    /** Pixels [from, width) of the row: raw from {@code u16} (uint16 counts) or else {@code f32} at {@code src}. */
    static Counts correct(short[] u16, float[] f32, int src, float[] dark, float[] den, int fo, int from, int width,
                         float floor, boolean takeLog, float[] out, int dst) {
        long clamped = 0;
        boolean nonFinite = false;
        for (int c = from; c < width; c++) {
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
                v = takeLog ? (float) -Math.log(tr) : tr;
            }
            if (!Float.isFinite(v)) nonFinite = true;
            out[dst + c] = v;
        }
        return new Counts(clamped, nonFinite);
    }
}
