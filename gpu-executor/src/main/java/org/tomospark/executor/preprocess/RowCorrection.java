package org.tomospark.executor.preprocess;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The flat/dark correction and −log of one projection row: the transmission in float, its logarithm in double, as
 * the CUDA kernel computes them, so that the host and the device give the same floats.
 *
 * <p>{@link #correct} is lane-parallel: four pixels at a time. Every step but the logarithm is an exact IEEE
 * operation, so each lane gives the scalar loop's float bit for bit. The logarithm is the Vector API's (a vectorised
 * math library where the CPU has one), like {@link Math#log} accurate to one ulp of a double; rounded to float the
 * two agree except when a double result lies within that ulp of a float rounding boundary, about one value in 10⁸.
 * Every vector shape here is a constant, so the JIT compiles this loop and the java backend's kernels (whose shapes
 * are constants too) to vector instructions side by side in one JVM.
 */
final class RowCorrection {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_64;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_128;
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_128;
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_256;
    private static final int LANES = FLOATS.length();

    private RowCorrection() {
    }

    /** Whether this CPU runs four-double vectors natively (otherwise the Vector API would emulate them slowly). */
    static boolean available() {
        return DoubleVector.SPECIES_PREFERRED.vectorBitSize() >= DOUBLES.vectorBitSize();
    }

    /** What one call did: transmissions clamped to the floor, and whether any value came out NaN or infinite. */
    record Counts(long clamped, boolean nonFinite) {
    }

    /**
     * Corrects {@code width} pixels, four at a time: raw from {@code u16} (uint16 counts) or else {@code f32} at
     * {@code src}, the flat-field terms at {@code fo}, the result to {@code out} at {@code dst}.
     */
    static Counts correct(short[] u16, float[] f32, int src, float[] dark, float[] den, int fo, int width,
                          float floor, boolean takeLog, float[] out, int dst) {
        long clamped = 0;
        boolean nonFinite = false;
        int c = 0;
        for (int end = width - width % LANES; c < end; c += LANES) {
            FloatVector raw = u16 != null
                    ? (FloatVector) ((IntVector) ShortVector.fromArray(SHORTS, u16, src + c)
                            .convertShape(VectorOperators.S2I, INTS, 0))
                            .lanewise(VectorOperators.AND, 0xffff)
                            .convertShape(VectorOperators.I2F, FLOATS, 0)
                    : FloatVector.fromArray(FLOATS, f32, src + c);
            FloatVector tr = raw.sub(FloatVector.fromArray(FLOATS, dark, fo + c))
                    .div(FloatVector.fromArray(FLOATS, den, fo + c));
            VectorMask<Float> nan = tr.test(VectorOperators.IS_NAN);
            VectorMask<Float> low = tr.compare(VectorOperators.GE, floor).or(nan).not();
            clamped += low.trueCount();
            FloatVector v = tr.blend(floor, low);
            if (takeLog) {
                DoubleVector d = (DoubleVector) v.convertShape(VectorOperators.F2D, DOUBLES, 0);
                v = (FloatVector) d.lanewise(VectorOperators.LOG).neg().convertShape(VectorOperators.D2F, FLOATS, 0);
            }
            if (!v.test(VectorOperators.IS_FINITE).allTrue()) nonFinite = true;
            v.intoArray(out, dst + c);
        }
        Counts tail = scalar(u16, f32, src + c, dark, den, fo + c, width - c, floor, takeLog, out, dst + c);
        return new Counts(clamped + tail.clamped(), nonFinite || tail.nonFinite());
    }

    /** The same, one pixel at a time: the reference for {@link #correct}, and its tail. */
    static Counts scalar(short[] u16, float[] f32, int src, float[] dark, float[] den, int fo, int width,
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
                v = takeLog ? (float) -Math.log(tr) : tr;
            }
            if (!Float.isFinite(v)) nonFinite = true;
            out[dst + c] = v;
        }
        return new Counts(clamped, nonFinite);
    }
}
