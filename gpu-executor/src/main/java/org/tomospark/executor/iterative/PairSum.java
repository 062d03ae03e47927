package org.tomospark.executor.iterative;

/**
 * The projectors' one inner step, for the k interleaved slices of a pass:
 * {@code acc[o+s] += w0·src[b+s] + w1·src[b+k+s]}, the two neighbours a ray passes between (forward) or the two
 * detector columns a pixel falls between (adjoint). Implementations give the same bits.
 */
interface PairSum {
    void add(float[] acc, int o, float[] src, int b, float w0, float w1);

    /** Whether the implementation uses the JDK Vector API. */
    boolean vector();

    /**
     * The Vector API version for 8 slices per pass where the JVM has the incubator module and 256-bit vectors (the
     * shape the java back-projector uses for its default 8 slices per pass, so the two never make the JIT compile
     * the Vector API for a second shape), else plain loops.
     */
    static PairSum of(int k) {
        if (k == VectorPairSum.LANES && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                && VectorPairSum.supported())
            return new VectorPairSum();
        return new ScalarPairSum(k);
    }
}
