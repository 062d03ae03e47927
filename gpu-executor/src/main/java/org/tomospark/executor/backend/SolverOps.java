package org.tomospark.executor.backend;

/**
 * Where the solvers' vectors live, and the operations they are combined with: the projector pair and the element-wise
 * updates and reductions of SIRT, CGLS and MLTR. The solvers are written once against this interface; iterative.HostOps
 * keeps the vectors in Java arrays around any {@link Projector}, a device implementation keeps them in device memory
 * for a whole solve, so that no projection crosses the bus between iterations.
 * <p>
 * Three kinds of vector, all interleaved over the {@code k} slices of a pass as the {@link Projector}'s arrays are: an
 * image (pixels × k), a sinogram (projections × width × k) and a detector row (width × k, MLTR's unattenuated counts).
 * Per-slice coefficients ({@code float[k]}) scale slice s of a vector by their element s. One caller at a time.
 */
public interface SolverOps extends AutoCloseable {
    /** A vector of one of the three kinds, owned by the ops that made it; closing it gives its memory back. */
    interface Vec extends AutoCloseable {
        @Override
        void close();
    }

    Projector.Shape shape();

    /** A new image, every element zero. */
    Vec image();

    /** A new sinogram, every element zero. */
    Vec sinogram();

    /** A new detector row (width × k) holding {@code host}. */
    Vec row(float[] host);

    /** Copies host data (the {@link Projector}'s layout of the vector's kind) into {@code dst}. */
    void upload(float[] host, Vec dst);

    /** Copies {@code src} into a host array of the {@link Projector}'s layout. */
    void download(Vec src, float[] host);

    /** Sets every element of {@code v} to {@code value}. */
    void fill(Vec v, float value);

    /** dst ← src. */
    void copy(Vec src, Vec dst);

    /** The sinogram rows of {@code angles} of y ← A·x; other rows are untouched. */
    void forward(Vec x, Vec y, int[] angles);

    /** x ← Aᵀ·y over the projections {@code angles}. */
    void back(Vec y, Vec x, int[] angles);

    /** Σ a·b per slice. */
    double[] dots(Vec a, Vec b);

    /** ‖a − b‖² over every slice. */
    double distanceSquared(Vec a, Vec b);

    /** ‖a − b‖² per slice. */
    double[] distancesSquared(Vec a, Vec b);

    /** v ← 1/v where v > 0, else 0 (rays that miss the image, pixels no ray reaches). */
    void reciprocal(Vec v);

    /** y ← (p − y)·r: the weighted residual of SIRT. */
    void weightedResidual(Vec p, Vec y, Vec r);

    /** x ← x + c·u, clipped at 0 when {@code nonNegative}: the update of SIRT. */
    void scaledUpdate(Vec x, Vec c, Vec u, boolean nonNegative);

    /** r ← b − r. */
    void subtractFrom(Vec b, Vec r);

    /** y ← y + α_s·x, slice by slice. */
    void axpy(float[] alpha, Vec x, Vec y);

    /** d ← s + β_s·d, slice by slice. */
    void xpby(Vec s, float[] beta, Vec d);

    /** out ← blank·exp(−p), blank a detector row applied to every projection: the measured counts of MLTR. */
    void counts(Vec blank, Vec p, Vec out);

    /**
     * For the sinogram rows of {@code angles}, with the expected counts ŷ = blank·exp(−line): num ← ŷ − counts and
     * den ← rowSum·ŷ, the terms of MLTR's gradient and curvature.
     */
    void likelihoodTerms(Vec line, Vec blank, Vec counts, Vec rowSum, int[] angles, Vec num, Vec den);

    /** x ← max(0, x + num/den) where den > 0: the update of MLTR. */
    void ratioUpdate(Vec x, Vec num, Vec den);

    /** A new weight image: one value per pixel, shared by every slice of the pass (the pixels of one slice), zero. */
    Vec weights();

    /**
     * w ← slice 0 of {@code image}, for an image whose slices are all equal (the column sums of the projector, which
     * every slice of a pass shares).
     */
    void firstSlice(Vec image, Vec w);

    /** x ← x + w·u, w a weight image applied to every slice, clipped at 0 when {@code nonNegative}: the update of OS-SART. */
    void weightedUpdate(Vec x, Vec w, Vec u, boolean nonNegative);

    /**
     * For the sinogram rows of {@code angles}: d = p − y, y ← d·r; other rows untouched. Returns Σ d² over those rows per
     * slice: the residual of a subset of OS-SART before its update.
     */
    double[] subsetResidual(Vec p, Vec y, Vec r, int[] angles);

    /** v ← 1/(v + offset) where v + offset > 0, else 0 (image guards, where a device keeps them, stay zero). */
    void offsetReciprocal(Vec v, float offset);

    /**
     * q ← (q + σ·(y − p)) / (1 + σ), element-wise over sinograms: the dual step of the data term ½‖A·x − p‖² in
     * Chambolle–Pock (the proximal map of its convex conjugate), with σ per ray.
     */
    void dataDual(Vec q, Vec y, Vec p, Vec sigma);

    /**
     * The dual step of isotropic total variation: with g = ∇x̄ (forward differences, zero across the last column and
     * the last row, iterative.TotalVariation.gradient), (zx, zy) ← (zx + σ·gx, zy + σ·gy) projected pixel by pixel onto
     * the disc of radius {@code weight[s]} of its slice s.
     */
    void tvDual(Vec zx, Vec zy, Vec xbar, float sigma, float[] weight);

    /**
     * The primal step of TV-regularised least squares: x' = x − τ·(u − div z) (u = Aᵀq, div = −∇ᵀ,
     * iterative.TotalVariation.divergence), clipped at 0 when {@code nonNegative}; then x̄ ← 2x' − x and x ← x'.
     */
    void tvPrimal(Vec x, Vec xbar, Vec u, Vec zx, Vec zy, Vec tau, boolean nonNegative);

    /** Slices per pass, k. */
    default int slicesPerPass() {
        return shape().k();
    }

    /** Every projection, in order. */
    default int[] allAngles() {
        int[] a = new int[shape().projections()];
        for (int i = 0; i < a.length; i++) a[i] = i;
        return a;
    }

    @Override
    void close();
}
