package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.FieldOfView;
import org.tomospark.executor.geometry.ProjectionMatrix;
import org.tomospark.executor.util.ImageErrors;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The circular description against projection matrices built independently (a pinhole camera K·[R | −R·S] from the
 * source position and the detector's axes), the same scan reconstructed both ways, the field of view, and the errors
 * of missing, contradictory or insufficient geometry.
 */
class ConeGeometryTest {

    /** The camera matrix of projection p from first principles: intrinsics K, the detector frame R and the source S. */
    static ProjectionMatrix camera(ConeGeometry g, int p) {
        double t = g.angle(p), c = Math.cos(t), s = Math.sin(t);
        double[] source = {g.dso() * c, g.dso() * s, 0};
        double[][] r = {{-s, c, 0}, {0, 0, 1}, {-c, -s, 0}};  // rows: e_u, e_v, the central ray's direction
        double[][] k = {{g.dsd() / g.du(), 0, g.cu()}, {0, g.dsd() / g.dv(), g.cv()}, {0, 0, 1}};
        double[] m = new double[12];
        for (int i = 0; i < 3; i++) {
            double[] kr = new double[3];
            for (int j = 0; j < 3; j++) for (int l = 0; l < 3; l++) kr[j] += k[i][l] * r[l][j];
            double tr = 0;
            for (int l = 0; l < 3; l++) {
                double rs = 0;
                for (int j = 0; j < 3; j++) rs -= r[l][j] * source[j];
                tr += k[i][l] * rs;
            }
            for (int j = 0; j < 3; j++) m[i * 4 + j] = kr[j] * 7.3;  // any positive scale: the geometry normalises
            m[i * 4 + 3] = tr * 7.3;
        }
        return new ProjectionMatrix(m);
    }

    @Test
    void circularMatricesProjectAsTheCameraModel() {
        ConeGeometry g = ConeScan.detector().anglesRange(360, 37).build();
        Random rnd = new Random(2);
        double[] a = new double[3], b = new double[3];
        for (int p = 0; p < g.numProjections(); p++) {
            ProjectionMatrix cam = camera(g, p).normalised("test");
            for (int trial = 0; trial < 20; trial++) {
                double x = 30 * rnd.nextGaussian(), y = 30 * rnd.nextGaussian(), z = 20 * rnd.nextGaussian();
                g.matrix(p).project(x, y, z, a);
                cam.project(x, y, z, b);
                for (int i = 0; i < 3; i++) assertEquals(b[i], a[i], 1e-9 * Math.max(1, Math.abs(b[i])), "projection " + p);
            }
        }
    }

    @Test
    void matricesAndTheCircularDescriptionGiveTheSameVolume() {
        ConeScan scan = ConeScan.full();
        ProjectionMatrix[] m = new ProjectionMatrix[scan.geometry.numProjections()];
        for (int p = 0; p < m.length; p++) m[p] = camera(scan.geometry, p);
        ConeGeometry withMatrices = scan.geometry.withMatrices(m);
        float[][] circular = scan.reconstruct();
        float[][] viaMatrices = new FdkReconstructor(withMatrices, ConeScan.VOLUME, ConeScan.RAMLAK, "/exchange/theta")
                .slab(scan.projections, 0, withMatrices.rows(), 0, ConeScan.VOLUME.nz());
        for (int k = 0; k < circular.length; k++)
            assertTrue(ImageErrors.relL2(viaMatrices[k], circular[k]) < 1e-6, "slice " + k);
    }

    @Test
    void fieldOfViewAndCompleteData() {
        ConeGeometry g = ConeScan.detector().anglesRange(360, 8).build();
        FieldOfView f = FieldOfView.of(g, ConeScan.VOLUME);
        // half width 51.2 mm at DSD 400: radius 200·sin(atan(0.128))
        assertEquals(200 * Math.sin(Math.atan(51.2 / 400)), f.radiusMm(), 1e-9);
        assertTrue(f.incompleteSlices().isEmpty(), f.toString());
        FieldOfView tall = FieldOfView.of(g, new ConeVolume(64, 120, 0.5));
        assertTrue(!tall.incompleteSlices().isEmpty() && tall.incompleteSlices().contains(0) && !tall.incompleteSlices().contains(60),
                tall.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FieldOfView.of(g, new ConeVolume(128, 8, 0.5)));
        assertTrue(e.getMessage().contains("truncated") && e.getMessage().contains("cone.volume.voxel"), e.getMessage());
    }

    @Test
    void badGeometryIsRefusedNamingTheKey() {
        assertMessage(() -> ConeScan.detector().dsd(150).anglesRange(360, 8).build(), "cone.dsd");
        assertMessage(() -> ConeGeometry.builder().dsd(400).pixel(1, 1).centre(1, 1).detector(8, 8).anglesRange(360, 8).build(),
                "cone.dso");
        assertMessage(() -> ConeScan.detector().pixel(0, 1).anglesRange(360, 8).build(), "cone.du");
        assertMessage(() -> ConeScan.detector().centre(Double.NaN, 3).anglesRange(360, 8).build(), "cone.cu");
        assertMessage(() -> ConeScan.detector().anglesRange(360, 8).matrices(new ProjectionMatrix[3]).build(),
                "/geometry/projection_matrices");
        // a short scan below 180 degrees plus the fan
        ConeGeometry tooShort = ConeScan.detector().anglesRange(190, 127).build();
        assertMessage(() -> tooShort.scanKind("/exchange/theta"), "/exchange/theta");
        // a matrix with the isocentre behind the source
        double[] m = ConeScan.detector().anglesRange(360, 1).build().matrix(0).m();
        for (int i = 0; i < 12; i++) m[i] = -m[i];
        ProjectionMatrix flipped = new ProjectionMatrix(m);
        assertMessage(() -> ConeScan.detector().anglesRange(360, 1).matrices(new ProjectionMatrix[]{flipped}).build(),
                "projection_matrices[0]");
    }

    private static void assertMessage(Runnable r, String key) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(key), "message names " + key + ": " + e.getMessage());
    }
}
