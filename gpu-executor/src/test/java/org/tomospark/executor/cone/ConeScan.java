package org.tomospark.executor.cone;

import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;

import java.util.stream.IntStream;

/**
 * A small cone-beam test scan of the Shepp–Logan phantom (16 mm radius, μ = 0.02/mm): a 128 × 96 detector of 0.8 mm
 * pixels at DSD 400 mm, DSO 200 mm (0.4 mm at the axis, fan half-angle 9.1°, cone half-angle 5.5°), into 64 × 64 × 48
 * voxels of 0.5 mm. Exact data from the phantom's chords, 2 × 2 rays per pixel; ground truth averaged over 3³ points.
 */
final class ConeScan {
    static final double MU = 0.02;
    static final ConePhantom PHANTOM = ConePhantom.sheppLogan(16, MU);
    static final ConeVolume VOLUME = new ConeVolume(64, 48, 0.5);
    static final FilterSpec RAMLAK = FilterSpec.of(FilterWindow.RAMLAK);

    final ConeGeometry geometry;
    final float[][] projections;

    private ConeScan(ConeGeometry geometry) {
        this.geometry = geometry;
        this.projections = new float[geometry.numProjections()][];
        IntStream.range(0, projections.length).forEach(p -> projections[p] = PHANTOM.project(geometry, p, 2));
    }

    static ConeGeometry.Builder detector() {
        return ConeGeometry.builder().dso(200).dsd(400).pixel(0.8, 0.8).centre(63.5, 47.5).detector(128, 96);
    }

    /** 240 projections over 360°. */
    static ConeScan full() {
        return Holder.FULL;
    }

    /** 134 projections of the full scan's 1.5° step: 201°, at least 180° plus the fan. */
    static ConeScan shortScan() {
        return Holder.SHORT;
    }

    /** The short scan's angles walked the other way: 0, −1.5°, … −199.5°. */
    static ConeScan shortScanBackwards() {
        double[] deg = new double[134];
        for (int p = 0; p < deg.length; p++) deg[p] = -1.5 * p;
        return new ConeScan(detector().anglesDeg(deg).build());
    }

    private static final class Holder {
        static final ConeScan FULL = new ConeScan(detector().anglesRange(360, 240).build());
        static final ConeScan SHORT = new ConeScan(detector().anglesRange(201, 134).build());
    }

    /** The volume's ground truth, slice by slice. */
    static float[][] truth() {
        return TruthHolder.TRUTH;
    }

    private static final class TruthHolder {
        static final float[][] TRUTH = IntStream.range(0, VOLUME.nz()).mapToObj(k -> PHANTOM.truth(VOLUME, k, 3)).toArray(float[][]::new);
    }

    /** The whole volume by the product's Java FDK, from the whole detector. */
    float[][] reconstruct() {
        return new FdkReconstructor(geometry, VOLUME, RAMLAK, "/exchange/theta").slab(projections, 0, geometry.rows(), 0, VOLUME.nz());
    }
}
