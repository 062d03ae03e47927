package org.tomospark.executor;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GeometryTest {
    static String message(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void invalidValuesNameTheParameter() {
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(100).anglesRange(180, 10).centerOfRotation(120).build())
                .contains("center of rotation 120.0 lies outside the detector [0, 99]"));
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(100).anglesRange(180, 10).centerOfRotation(-1).build())
                .contains("center of rotation"));
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(1).anglesRange(180, 10).build()).contains("detector width"));
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(10).build()).contains("angles"));
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(10).anglesRange(180, 4).axisCorrection(new double[3]).build())
                .contains("axis correction has 3 values but there are 4 projection angles"));
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(10).anglesDeg(new double[]{0, Double.NaN}).build())
                .contains("angle 1 is not finite"));
        assertTrue(message(() -> ScanGeometry.builder().detectorWidth(10).anglesRange(90, 4)).contains("angles.range"));
        assertTrue(message(() -> SliceGeometry.square(10).withRoi(5, 5, 6, 2)).contains("roi"));
        assertTrue(message(() -> SliceGeometry.square(0)).contains("slice width"));
    }

    @Test
    void defaultsAndCoverage() {
        ScanGeometry g = ScanGeometry.builder().detectorWidth(11).anglesRange(180, 8).build();
        assertEquals(5.0, g.centerOfRotation());
        assertEquals(Math.PI, g.angularCoverage(), 1e-12);
        assertFalse(g.isFullRotation());
        assertTrue(ScanGeometry.builder().detectorWidth(11).anglesRange(360, 8).build().isFullRotation());
        assertEquals(Math.toRadians(45), ScanGeometry.builder().detectorWidth(11).anglesStartStep(0, 22.5, 3).build().angleRad(2), 1e-15);
    }

    @Test
    void tablesFollowTheSkimageConvention() {
        // pixel (row i, col j) sits at x = j − c, y = c − i; the projection at θ records x·cosθ + y·sinθ + centre
        ScanGeometry g = ScanGeometry.builder().detectorWidth(9).anglesDeg(new double[]{0, 90, 30}).centerOfRotation(4.5)
                .axisCorrection(new double[]{0, 0.25, 0}).build();
        SliceGeometry s = SliceGeometry.square(7).withRoi(2, 1, 3, 3);
        ProjectionTables t = new ProjectionTables(g, s);
        for (int p = 0; p < 3; p++) {
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double x = (2 + j) - 3.0, y = 3.0 - (1 + i);
                    double th = g.angleRad(p);
                    double expect = x * Math.cos(th) + y * Math.sin(th) + 4.5 + g.axisCorrection(p);
                    assertEquals(expect, t.offset(p) + j * t.cos(p) - i * t.sin(p), 1e-12);
                }
        }
        // at θ = 0 the detector coordinate is x: column j maps to detector column j − c + centre
        assertEquals(4.5 - 1.0, t.offset(0), 1e-12);
        // at θ = 90° it is y: the top row (i = 0) maps to the largest detector coordinate
        assertEquals(4.5 + 0.25 + 2.0, t.offset(1), 1e-12);
    }
}
