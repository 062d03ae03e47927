package org.tomospark.executor.pipeline;

import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.phase.PaganinParams;
import org.tomospark.executor.stripe.StripeRemoval;

import java.io.Serializable;

/**
 * The scientist's-workflow options of a reconstruction (issue 5), all applied inside the slice-group step so
 * they work on every backend and in every engine.
 *
 * @param centerMethod       automatic centre method, or null to use the given (or default) centre; resolved
 *                           once by the driver ({@link Workflow#resolveCenter}) before any slice group runs
 * @param centerSearchRadius largest |centre − detector centre| searched, px; 0 for the method's default
 * @param stripe             stripe-removal method, applied per sinogram before filtering
 * @param stripeSize         median window of the stripe filter (odd, ≥ 3)
 * @param paganin            Paganin phase retrieval, or null
 * @param halfAcquisition    360° scan with an offset axis: stitch to a 180° sinogram of a wider detector
 * @param binColumns         detector columns averaged into one (≥ 1)
 * @param binRows            detector rows averaged into one slice (≥ 1)
 * @param binProjections     consecutive projections averaged into one (≥ 1)
 */
public record WorkflowParams(CenterFinder.Method centerMethod, double centerSearchRadius, StripeRemoval.Method stripe,
                             int stripeSize, PaganinParams paganin, boolean halfAcquisition, int binColumns, int binRows,
                             int binProjections) implements Serializable {

    public static final WorkflowParams NONE = new WorkflowParams(null, 0, StripeRemoval.Method.NONE, 11, null, false, 1, 1, 1);

    public WorkflowParams {
        if (stripe == null) stripe = StripeRemoval.Method.NONE;
        if (stripe != StripeRemoval.Method.NONE && (stripeSize < 3 || stripeSize % 2 == 0))
            throw new IllegalArgumentException("stripe.size must be an odd number >= 3, got " + stripeSize);
        if (binColumns < 1 || binColumns > 64) throw new IllegalArgumentException("bin.columns must be in 1..64, got " + binColumns);
        if (binRows < 1 || binRows > 64) throw new IllegalArgumentException("bin.rows must be in 1..64, got " + binRows);
        if (binProjections < 1 || binProjections > 64)
            throw new IllegalArgumentException("bin.projections must be in 1..64, got " + binProjections);
        if (!(centerSearchRadius >= 0)) throw new IllegalArgumentException("center.searchRadius must be >= 0, got " + centerSearchRadius);
    }

    public WorkflowParams withCenterMethod(CenterFinder.Method m) {
        return new WorkflowParams(m, centerSearchRadius, stripe, stripeSize, paganin, halfAcquisition, binColumns, binRows, binProjections);
    }

    public WorkflowParams withStripe(StripeRemoval.Method m, int size) {
        return new WorkflowParams(centerMethod, centerSearchRadius, m, size, paganin, halfAcquisition, binColumns, binRows, binProjections);
    }

    public WorkflowParams withPaganin(PaganinParams p) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, stripeSize, p, halfAcquisition, binColumns, binRows, binProjections);
    }

    public WorkflowParams withHalfAcquisition(boolean h) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, stripeSize, paganin, h, binColumns, binRows, binProjections);
    }

    public WorkflowParams withBinning(int columns, int rows, int projections) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, stripeSize, paganin, halfAcquisition, columns, rows, projections);
    }

    public WorkflowParams withCenterSearchRadius(double r) {
        return new WorkflowParams(centerMethod, r, stripe, stripeSize, paganin, halfAcquisition, binColumns, binRows, binProjections);
    }

    public boolean binning() {
        return binColumns > 1 || binRows > 1 || binProjections > 1;
    }
}
