package org.tomospark.executor.backend.java;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * JDK Vector API kernel: one vector holds the k interleaved slices of a bin (k = 4, 8 or 16), so each
 * (pixel, projection) costs one position computation and two vector loads for all k slices. The loop body
 * has no branches on vector values (guard bins handle the detector edges), so the vectors stay in registers.
 *
 * <p>One class per vector shape, each with its shape in a constant: the JIT turns Vector API calls into vector
 * instructions only where it knows the shape when it compiles. With the shape in an instance field it would rely on
 * the type profile of the Vector API's shared code, which every other vector shape used in the same JVM (another k,
 * the host preprocessing's lanes) pollutes, and the kernel would fall back to boxed vectors, many times slower. The
 * three loop bodies are therefore the same code on purpose.
 */
abstract sealed class VectorTileKernel implements TileKernel permits VectorTileKernel.Lanes4, VectorTileKernel.Lanes8,
        VectorTileKernel.Lanes16 {
    protected final boolean linear;
    private final VectorSpecies<Float> species;

    private VectorTileKernel(boolean linear, VectorSpecies<Float> species) {
        this.linear = linear;
        this.species = species;
    }

    /** The kernel for k slices per pass (4, 8 or 16). */
    static VectorTileKernel of(boolean linear, int k) {
        return switch (k) {
            case 4 -> new Lanes4(linear);
            case 8 -> new Lanes8(linear);
            case 16 -> new Lanes16(linear);
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

    /** 4 slices per pass in 128-bit vectors. */
    static final class Lanes4 extends VectorTileKernel {
        private static final VectorSpecies<Float> S = FloatVector.SPECIES_128;

        Lanes4(boolean linear) {
            super(linear, S);
        }

        @Override
        public void run(float[] packed, int k, int width, double[] cos, double[] sin, double[] off, int p0, int p1,
                        int row0, int col0, int rows, int cols, float[] acc) {
            final int rowStride = (width + PAD_LEFT + PAD_RIGHT) * k;
            for (int r = 0; r < rows; r++) {
                final double y = row0 + r;
                for (int c = 0; c < cols; c++) {
                    final double x = col0 + c;
                    final int ai = (r * cols + c) * k;
                    FloatVector a = FloatVector.fromArray(S, acc, ai);
                    if (linear) {
                        for (int p = p0; p < p1; p++) {
                            final double t = off[p] + x * cos[p] - y * sin[p];
                            final double fl = Math.floor(t);
                            int i0 = (int) fl;
                            float f = (float) (t - fl);
                            if (i0 < -1) { i0 = -1; f = 0f; } else if (i0 > width) { i0 = width; f = 0f; }
                            final int b = p * rowStride + (i0 + PAD_LEFT) * k;
                            FloatVector v0 = FloatVector.fromArray(S, packed, b);
                            FloatVector v1 = FloatVector.fromArray(S, packed, b + k);
                            a = a.add(v1.sub(v0).mul(f).add(v0));
                        }
                    } else {
                        for (int p = p0; p < p1; p++) {
                            final double t = off[p] + x * cos[p] - y * sin[p];
                            int i0 = (int) Math.floor(t + 0.5);
                            if (i0 < -1) i0 = -1; else if (i0 > width) i0 = width;
                            a = a.add(FloatVector.fromArray(S, packed, p * rowStride + (i0 + PAD_LEFT) * k));
                        }
                    }
                    a.intoArray(acc, ai);
                }
            }
        }
    }

    /** 8 slices per pass in 256-bit vectors. */
    static final class Lanes8 extends VectorTileKernel {
        private static final VectorSpecies<Float> S = FloatVector.SPECIES_256;

        Lanes8(boolean linear) {
            super(linear, S);
        }

        @Override
        public void run(float[] packed, int k, int width, double[] cos, double[] sin, double[] off, int p0, int p1,
                        int row0, int col0, int rows, int cols, float[] acc) {
            final int rowStride = (width + PAD_LEFT + PAD_RIGHT) * k;
            for (int r = 0; r < rows; r++) {
                final double y = row0 + r;
                for (int c = 0; c < cols; c++) {
                    final double x = col0 + c;
                    final int ai = (r * cols + c) * k;
                    FloatVector a = FloatVector.fromArray(S, acc, ai);
                    if (linear) {
                        for (int p = p0; p < p1; p++) {
                            final double t = off[p] + x * cos[p] - y * sin[p];
                            final double fl = Math.floor(t);
                            int i0 = (int) fl;
                            float f = (float) (t - fl);
                            if (i0 < -1) { i0 = -1; f = 0f; } else if (i0 > width) { i0 = width; f = 0f; }
                            final int b = p * rowStride + (i0 + PAD_LEFT) * k;
                            FloatVector v0 = FloatVector.fromArray(S, packed, b);
                            FloatVector v1 = FloatVector.fromArray(S, packed, b + k);
                            a = a.add(v1.sub(v0).mul(f).add(v0));
                        }
                    } else {
                        for (int p = p0; p < p1; p++) {
                            final double t = off[p] + x * cos[p] - y * sin[p];
                            int i0 = (int) Math.floor(t + 0.5);
                            if (i0 < -1) i0 = -1; else if (i0 > width) i0 = width;
                            a = a.add(FloatVector.fromArray(S, packed, p * rowStride + (i0 + PAD_LEFT) * k));
                        }
                    }
                    a.intoArray(acc, ai);
                }
            }
        }
    }

    /** 16 slices per pass in 512-bit vectors. */
    static final class Lanes16 extends VectorTileKernel {
        private static final VectorSpecies<Float> S = FloatVector.SPECIES_512;

        Lanes16(boolean linear) {
            super(linear, S);
        }

        @Override
        public void run(float[] packed, int k, int width, double[] cos, double[] sin, double[] off, int p0, int p1,
                        int row0, int col0, int rows, int cols, float[] acc) {
            final int rowStride = (width + PAD_LEFT + PAD_RIGHT) * k;
            for (int r = 0; r < rows; r++) {
                final double y = row0 + r;
                for (int c = 0; c < cols; c++) {
                    final double x = col0 + c;
                    final int ai = (r * cols + c) * k;
                    FloatVector a = FloatVector.fromArray(S, acc, ai);
                    if (linear) {
                        for (int p = p0; p < p1; p++) {
                            final double t = off[p] + x * cos[p] - y * sin[p];
                            final double fl = Math.floor(t);
                            int i0 = (int) fl;
                            float f = (float) (t - fl);
                            if (i0 < -1) { i0 = -1; f = 0f; } else if (i0 > width) { i0 = width; f = 0f; }
                            final int b = p * rowStride + (i0 + PAD_LEFT) * k;
                            FloatVector v0 = FloatVector.fromArray(S, packed, b);
                            FloatVector v1 = FloatVector.fromArray(S, packed, b + k);
                            a = a.add(v1.sub(v0).mul(f).add(v0));
                        }
                    } else {
                        for (int p = p0; p < p1; p++) {
                            final double t = off[p] + x * cos[p] - y * sin[p];
                            int i0 = (int) Math.floor(t + 0.5);
                            if (i0 < -1) i0 = -1; else if (i0 > width) i0 = width;
                            a = a.add(FloatVector.fromArray(S, packed, p * rowStride + (i0 + PAD_LEFT) * k));
                        }
                    }
                    a.intoArray(acc, ai);
                }
            }
        }
    }
}
