package org.tomospark.executor.params;

import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.inputs.ScanMetadata;

import java.io.Serializable;
import java.util.Locale;

/**
 * The scan's geometry as a run takes it: from the data, with these overrides; and the cone-beam settings of a cone-beam
 * run.
 *
 * @param center         centre of rotation in detector pixels, or NaN for the detector centre (width−1)/2
 * @param angleStartDeg  first angle if the angles are given as start/step, NaN to read them from the data
 * @param angleStepDeg   angle step in degrees (with angleStartDeg)
 * @param axisCorrection per-projection axis shift in pixels (seed paper's c_a), or null
 * @param cone           cone-beam settings, resolved against the input by {@link ConeResolution}; null for parallel beam
 */
public record ScanSettings(double center, double angleStartDeg, double angleStepDeg, double[] axisCorrection, ConeParams cone)
        implements Serializable {

    /** Parallel beam, everything from the data. */
    public static final ScanSettings FROM_DATA = new ScanSettings(Double.NaN, Double.NaN, Double.NaN, null, null);

    public ScanSettings {
        if (!Double.isNaN(angleStartDeg) && !(Double.isFinite(angleStepDeg) && angleStepDeg != 0))
            throw new IllegalArgumentException("angles.step must be a non-zero number when angles.start is given");
        axisCorrection = axisCorrection == null ? null : axisCorrection.clone();
    }

    /** The acquisition geometry for a scan: angles from the data unless given, centre, axis correction. */
    public ScanGeometry scanGeometry(ScanMetadata meta) {
        ScanGeometry.Builder b = ScanGeometry.builder().detectorWidth(meta.width());
        if (!Double.isNaN(angleStartDeg)) b.anglesStartStep(angleStartDeg, angleStepDeg, meta.numProjections());
        else if (meta.anglesDeg() != null) b.anglesDeg(meta.anglesDeg());
        else throw new IllegalArgumentException(meta.source() + ": the scan has no angles (" + meta.anglesSource()
                    + "); give angles.start and angles.step");
        if (!Double.isNaN(center)) {
            if (!(center >= 0 && center <= meta.width() - 1))
                throw CoreKeys.CENTER.invalid(center == Math.rint(center) ? String.format(Locale.ROOT, "%.0f", center)
                        : Double.toString(center), "outside the detector [0, " + (meta.width() - 1) + "]", null);
            b.centerOfRotation(center);
        }
        if (axisCorrection != null) b.axisCorrection(axisCorrection);
        return b.build();
    }

    /**
     * The cone-beam settings of a cone-beam run, resolved; null for parallel beam (and for a geometry=auto run whose input
     * has not been looked at: {@link ConeResolution#resolve} decides).
     */
    public ConeParams coneBeam() {
        if (cone == null) return null;
        if (cone.resolved()) return cone;
        if (cone.required())
            throw new IllegalStateException("the cone-beam geometry has not been resolved against the input (ConeResolution.resolve)");
        return null;
    }
}
