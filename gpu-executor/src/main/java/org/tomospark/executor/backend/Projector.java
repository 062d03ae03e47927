package org.tomospark.executor.backend;

/**
 * A matched pair of projection operators over {@link #slicesPerPass()} interleaved slices: the forward projection
 * A (image to sinogram) and its exact adjoint Aᵀ (sinogram to image), the back-projection of the iterative methods.
 * Images are {@code pixels × k} floats, {@code image[pixel·k + s]}; sinograms are {@code projections × width × k},
 * {@code sino[(p·width + u)·k + s]}, the layout the back-projector's compound sinograms use, so that one weight
 * computation serves every slice of a pass. Both operators take the projections they act on, so that ordered subsets
 * use the same pair. No backend types appear here: the solvers run on any implementation.
 */
public interface Projector {
    /**
     * The sizes of a projector pair: k slices per pass, an image of rows × cols pixels, a sinogram of projections ×
     * width bins.
     */
    record Shape(int k, int rows, int cols, int projections, int width) {
    }

    Shape shape();

    /** Slices per pass, k. */
    default int slicesPerPass() {
        return shape().k();
    }

    /** Image pixels of one slice. */
    default int pixels() {
        return shape().rows() * shape().cols();
    }

    default int numProjections() {
        return shape().projections();
    }

    default int detectorWidth() {
        return shape().width();
    }

    /**
     * Sets the sinogram rows of {@code angles} to A·image (restricted to those projections); other rows are untouched.
     */
    void forward(float[] image, float[] sino, int[] angles);

    /** Sets {@code image} to Aᵀ·sino restricted to the projections {@code angles} (other rows are not read). */
    void back(float[] sino, float[] image, int[] angles);

    /** Every projection, in order. */
    default int[] allAngles() {
        int[] a = new int[numProjections()];
        for (int i = 0; i < a.length; i++) a[i] = i;
        return a;
    }
}
