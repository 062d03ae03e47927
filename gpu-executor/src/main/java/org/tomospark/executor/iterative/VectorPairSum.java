package org.tomospark.executor.iterative;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link PairSum} for 8 slices per pass as one 256-bit vector: two loads, two multiplies and two adds for all eight,
 * in the scalar version's order (w0·s0 + w1·s1, then added), so the results are the same bits.
 */
final class VectorPairSum implements PairSum {
    static final int LANES = 8;
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_256;

    static boolean supported() {
        return FloatVector.SPECIES_PREFERRED.length() >= LANES;
    }

    @Override
    public void add(float[] acc, int o, float[] src, int b, float w0, float w1) {
        FloatVector v0 = FloatVector.fromArray(SPECIES, src, b).mul(w0);
        FloatVector v1 = FloatVector.fromArray(SPECIES, src, b + LANES).mul(w1);
        FloatVector.fromArray(SPECIES, acc, o).add(v0.add(v1)).intoArray(acc, o);
    }

    @Override
    public boolean vector() {
        return true;
    }
}
