package org.tomospark.executor.backends.java;

/** Plain Java loops; the innermost loop runs over the k interleaved slices. */
final class ScalarTileKernel implements TileKernel {
    private final boolean linear;

    ScalarTileKernel(boolean linear) {
        this.linear = linear;
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void run(float[] packed, int k, int width, double[] cos, double[] sin, double[] off, int p0, int p1,
                    int row0, int col0, int rows, int cols, float[] acc) {
        final int rowStride = (width + PAD_LEFT + PAD_RIGHT) * k;
        float[] a = new float[k];
        for (int r = 0; r < rows; r++) {
            final double y = row0 + r;
            for (int c = 0; c < cols; c++) {
                final double x = col0 + c;
                final int ai = (r * cols + c) * k;
                System.arraycopy(acc, ai, a, 0, k);
                for (int p = p0; p < p1; p++) {
                    final double t = off[p] + x * cos[p] - y * sin[p];
                    if (linear) {
                        final double fl = Math.floor(t);
                        int i0 = (int) fl;
                        float f = (float) (t - fl);
                        if (i0 < -1) { i0 = -1; f = 0f; } else if (i0 > width) { i0 = width; f = 0f; }
                        final int b = p * rowStride + (i0 + PAD_LEFT) * k;
                        for (int s = 0; s < k; s++) {
                            float v0 = packed[b + s];
                            a[s] += v0 + f * (packed[b + k + s] - v0);
                        }
                    } else {
                        int i0 = (int) Math.floor(t + 0.5);
                        if (i0 < -1) i0 = -1; else if (i0 > width) i0 = width;
                        final int b = p * rowStride + (i0 + PAD_LEFT) * k;
                        for (int s = 0; s < k; s++) a[s] += packed[b + s];
                    }
                }
                System.arraycopy(a, 0, acc, ai, k);
            }
        }
    }
}
