package org.tomospark.executor.iterative;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.TestRecon;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.phantom.Phantom3D;
import org.tomospark.executor.util.ImageErrors;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The forward projector lines up with the back-projector's geometry: the projection of a slice reconstructed by FBP
 * from an analytic sinogram, and the projection of the phantom's ground truth, agree with that sinogram, and agree
 * worse when the projector's centre is moved by half a pixel either way (so a flipped angle, a mirrored axis or a
 * half-pixel grid slip would fail).
 */
class ProjectorAlignmentTest {
    static final int N = 96;

    static Stream<Arguments> geometries() {
        double[] corr = new double[90];
        for (int p = 0; p < corr.length; p++) corr[p] = 1.5 * Math.sin(p * 0.21);
        return Stream.of(
                Arguments.of("centred, astra grid", ScanGeometry.builder().detectorWidth(N).anglesRange(180, 90).build(), SliceGrid.ASTRA),
                Arguments.of("axis 41.3, skimage grid", ScanGeometry.builder().detectorWidth(N).anglesRange(180, 90)
                        .centerOfRotation(41.3).build(), SliceGrid.SKIMAGE),
                Arguments.of("360 degrees, wobbling axis", ScanGeometry.builder().detectorWidth(N).anglesRange(360, 90)
                        .centerOfRotation(50.2).axisCorrection(corr).build(), SliceGrid.ASTRA));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("geometries")
    void projectionsOfTheFbpSliceAndOfTheTruthLineUpWithTheSinogram(String name, ScanGeometry scan, SliceGrid grid) {
        SliceGeometry slice = SliceGeometry.square(N).withGrid(grid);
        Phantom3D ph = Phantom3D.sheppLogan(0.3 * N, 15.5, 0.05);
        float[] sino = ph.sinogram(14, scan, true);
        float[] fbp = TestRecon.fbp(sino, scan, slice);
        float[] truth = ph.groundTruth(14, slice, 4);
        for (float[] image : new float[][]{fbp, truth}) {
            double aligned = error(scan, slice, image, sino, 0);
            double left = error(scan, slice, image, sino, -0.5), right = error(scan, slice, image, sino, 0.5);
            System.out.printf("%s: aligned %.4f, shifted %.4f / %.4f%n", name, aligned, left, right);
            assertTrue(aligned < 0.08, name + ": projection against the sinogram, relative L2 " + aligned);
            assertTrue(aligned < 0.6 * Math.min(left, right), name + ": aligned " + aligned + ", shifted " + left + " / " + right);
        }
    }

    private static double error(ScanGeometry scan, SliceGeometry slice, float[] image, float[] sino, double shift) {
        ScanGeometry moved = scan.withCenterOfRotation(scan.centerOfRotation() + shift);
        JosephProjector a = new JosephProjector(moved, slice, 1);
        float[] proj = new float[sino.length];
        a.forward(image, proj, a.allAngles());
        return ImageErrors.relL2(proj, sino);
    }
}
