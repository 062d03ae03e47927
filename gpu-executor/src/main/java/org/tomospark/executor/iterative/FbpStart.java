package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;

/**
 * A start image from filtered back-projection, on the solver's own ops: the ramp-filtered sinograms back-projected by
 * the projector's adjoint Aᵀ (a pixel-driven FBP with linear interpolation), each slice scaled by the factor that fits
 * its data best, s = ⟨A·b, p⟩/⟨A·b, A·b⟩ for b = Aᵀ·(filtered p), so the start needs no normalisation convention of a
 * back-projector; negative values are clipped for the non-negative methods. It costs one back and one forward
 * projection.
 */
final class FbpStart {
    private FbpStart() {
    }

    /**
     * @param filtered the ramp-filtered −log sinograms, interleaved as the ops' sinograms
     * @param p        the −log sinograms, interleaved
     * @param x        receives the start image, interleaved
     * @param clip     clip negative values at 0
     */
    static void into(SolverOps ops, float[] filtered, float[] p, float[] x, boolean clip) {
        int k = ops.slicesPerPass();
        int[] all = ops.allAngles();
        try (Vec f = ops.sinogram(); Vec b = ops.image(); Vec ab = ops.sinogram(); Vec pv = ops.sinogram(); Vec start = ops.image();
             Vec zero = ops.image()) {
            ops.upload(filtered, f);
            ops.back(f, b, all);
            ops.forward(b, ab, all);
            ops.upload(p, pv);
            double[] num = ops.dots(ab, pv), den = ops.dots(ab, ab);
            float[] scale = new float[k];
            for (int s = 0; s < k; s++) scale[s] = den[s] > 0 ? (float) (num[s] / den[s]) : 0f;
            ops.axpy(scale, b, start);
            // x + 0·0, clipped: the non-negative part
            if (clip) ops.scaledUpdate(start, zero, zero, true);
            ops.download(start, x);
        }
    }
}
