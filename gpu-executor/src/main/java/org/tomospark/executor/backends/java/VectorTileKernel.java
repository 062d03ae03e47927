package org.tomospark.executor.backends.java;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * JDK Vector API kernel: one vector holds the k interleaved slices of a bin (k = 4, 8 or 16), so each
 * (pixel, projection) costs one position computation and two vector loads for all k slices. The loop body
 * has no branches on vector values (guard bins handle the detector edges), so the vectors stay in registers.
 */
final class VectorTileKernel implements TileKernel {
    private final boolean linear;
    private final VectorSpecies<Float> species;

    VectorTileKernel(boolean linear, int k) {
        this.linear = linear;
        this.species = switch (k) {
            case 4 -> FloatVector.SPECIES_128;
            case 8 -> FloatVector.SPECIES_256;
            case 16 -> FloatVector.SPECIES_512;
            default -> throw new IllegalArgumentException("vector kernel supports 4, 8 or 16 slices per pass, got " + k);
        };
    }

    /** Whether this JVM's preferred vector size makes a k-lane kernel worthwhile. */
    static boolean supports(int k) {
        return (k == 4 || k == 8 || k == 16) && FloatVector.SPECIES_PREFERRED.length() >= k;
    }

    static int preferredLanes() {
        return FloatVector.SPECIES_PREFERRED.length();
    }

    @Override
    public String name() {
        return "vector" + species.vectorBitSize();
    }

    @Override
    public void run(float[] packed, int k, int width, double[] cos, double[] sin, double[] off, int p0, int p1,
                    int row0, int col0, int rows, int cols, float[] acc) {
        final VectorSpecies<Float> sp = species;
        final int rowStride = (width + PAD_LEFT + PAD_RIGHT) * k;
        for (int r = 0; r < rows; r++) {
            final double y = row0 + r;
            for (int c = 0; c < cols; c++) {
                final double x = col0 + c;
                final int ai = (r * cols + c) * k;
                FloatVector a = FloatVector.fromArray(sp, acc, ai);
                if (linear) {
                    for (int p = p0; p < p1; p++) {
                        final double t = off[p] + x * cos[p] - y * sin[p];
                        final double fl = Math.floor(t);
                        int i0 = (int) fl;
                        float f = (float) (t - fl);
                        if (i0 < -1) { i0 = -1; f = 0f; } else if (i0 > width) { i0 = width; f = 0f; }
                        final int b = p * rowStride + (i0 + PAD_LEFT) * k;
                        FloatVector v0 = FloatVector.fromArray(sp, packed, b);
                        FloatVector v1 = FloatVector.fromArray(sp, packed, b + k);
                        a = a.add(v1.sub(v0).mul(f).add(v0));
                    }
                } else {
                    for (int p = p0; p < p1; p++) {
                        final double t = off[p] + x * cos[p] - y * sin[p];
                        int i0 = (int) Math.floor(t + 0.5);
                        if (i0 < -1) i0 = -1; else if (i0 > width) i0 = width;
                        a = a.add(FloatVector.fromArray(sp, packed, p * rowStride + (i0 + PAD_LEFT) * k));
                    }
                }
                a.intoArray(acc, ai);
            }
        }
    }
}
