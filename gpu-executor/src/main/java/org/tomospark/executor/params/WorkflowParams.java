package org.tomospark.executor.params;

import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.phase.PaganinParams;
import org.tomospark.executor.stitch.HalfAcquisition;
import org.tomospark.executor.stripe.StripeParams;
import org.tomospark.executor.stripe.StripeRemoval;

import java.io.Serializable;

/**
 * The scientist's-workflow options of a reconstruction, all applied inside the slice-group step so they work on
 * every backend and in every engine.
 *
 * @param centerMethod       automatic centre method, or null to use the given (or default) centre; resolved
 *                           once by the driver ({@link Workflow#resolveCenter}) before any slice group runs
 * @param centerSearchRadius largest |centre − detector centre| searched, px; 0 for the method's default
 * @param stripe             stripe-removal method and its settings, applied per sinogram before filtering
 * @param paganin            Paganin phase retrieval, or null
 * @param halfAcquisition    360° scan with an offset axis: stitch to a 180° sinogram of a wider detector
 * @param binColumns         detector columns averaged into one (≥ 1)
 * @param binRows            detector rows averaged into one slice (≥ 1)
 * @param binProjections     consecutive projections averaged into one (≥ 1)
 * @param unit               the unit of the reconstructed values, whatever the binning
 */
public record WorkflowParams(CenterFinder.Method centerMethod, double centerSearchRadius, StripeParams stripe,
                             PaganinParams paganin, boolean halfAcquisition, int binColumns, int binRows,
                             int binProjections, ValueUnit unit) implements Serializable {

    public static final WorkflowParams NONE = new WorkflowParams(null, 0, StripeParams.NONE, null, false, 1, 1, 1, ValueUnit.PER_PIXEL);

    public WorkflowParams {
        if (stripe == null) stripe = StripeParams.NONE;
        if (unit == null) unit = ValueUnit.PER_PIXEL;
        if (binColumns < 1 || binColumns > 64) throw new IllegalArgumentException("bin.columns must be in 1..64, got " + binColumns);
        if (binRows < 1 || binRows > 64) throw new IllegalArgumentException("bin.rows must be in 1..64, got " + binRows);
        if (binProjections < 1 || binProjections > 64)
            throw new IllegalArgumentException("bin.projections must be in 1..64, got " + binProjections);
        if (!(centerSearchRadius >= 0)) throw new IllegalArgumentException("center.searchRadius must be >= 0, got " + centerSearchRadius);
    }

    public WorkflowParams withCenterMethod(CenterFinder.Method m) {
        return new WorkflowParams(m, centerSearchRadius, stripe, paganin, halfAcquisition, binColumns, binRows, binProjections, unit);
    }

    public WorkflowParams withStripe(StripeParams s) {
        return new WorkflowParams(centerMethod, centerSearchRadius, s, paganin, halfAcquisition, binColumns, binRows, binProjections, unit);
    }

    /** {@code method} with median window {@code size} and the defaults for the other stripe settings. */
    public WorkflowParams withStripe(StripeRemoval.Method method, int size) {
        return withStripe(StripeParams.of(method, size));
    }

    public WorkflowParams withPaganin(PaganinParams p) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, p, halfAcquisition, binColumns, binRows, binProjections, unit);
    }

    public WorkflowParams withHalfAcquisition(boolean h) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, paganin, h, binColumns, binRows, binProjections, unit);
    }

    public WorkflowParams withBinning(int columns, int rows, int projections) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, paganin, halfAcquisition, columns, rows, projections, unit);
    }

    public WorkflowParams withCenterSearchRadius(double r) {
        return new WorkflowParams(centerMethod, r, stripe, paganin, halfAcquisition, binColumns, binRows, binProjections, unit);
    }

    public WorkflowParams withUnit(ValueUnit u) {
        return new WorkflowParams(centerMethod, centerSearchRadius, stripe, paganin, halfAcquisition,
                binColumns, binRows, binProjections, u);
    }

    public boolean binning() {
        return binColumns > 1 || binRows > 1 || binProjections > 1;
    }

    /** The ImageDescription of every slice TIFF: the unit of its values and the size of its pixels. */
    public String sliceDescription() {
        return unit.imageDescription(binColumns);
    }

    /** The geometry after binning ({@code binColumns}, {@code binProjections}), before stitching. */
    public ScanGeometry binned(ScanGeometry raw) {
        return bin(raw, binColumns, binProjections);
    }

    /** The geometry the filter and back-projector see: binned, then stitched for half acquisition. */
    public ScanGeometry effective(ScanGeometry raw) {
        ScanGeometry b = binned(raw);
        return halfAcquisition ? HalfAcquisition.stitchedGeometry(b) : b;
    }

    private static ScanGeometry bin(ScanGeometry g, int bc, int bp) {
        if (bc == 1 && bp == 1) return g;
        int w = g.detectorWidth() / bc;
        int n = g.numProjections() / bp;
        if (w < 2) throw new IllegalArgumentException("bin.columns " + bc + " leaves fewer than 2 of " + g.detectorWidth() + " columns");
        if (n < 2) throw new IllegalArgumentException("bin.projections " + bp + " leaves fewer than 2 of " + g.numProjections()
                + " projections");
        double[] a = new double[n], corr = new double[n];
        for (int k = 0; k < n; k++) {
            for (int q = 0; q < bp; q++) {
                a[k] += g.angleRad(k * bp + q) / bp;
                corr[k] += g.axisCorrection(k * bp + q) / bp / bc;
            }
        }
        double c = (g.centerOfRotation() - (bc - 1) / 2.0) / bc;
        return ScanGeometry.builder().detectorWidth(w).anglesRad(a).centerOfRotation(Math.max(0, Math.min(w - 1, c)))
                .axisCorrection(corr).build();
    }
}
