package org.tomospark.executor.cone;

import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.inputs.LayoutScans;

import io.jhdf.HdfFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The /geometry group of files written by h5py (src/test/python/cone_geometry.py): scalars in float64 and float32,
 * matrices scaled by an arbitrary factor (normalised on reading), configuration keys completing or contradicting the
 * file, and the errors naming the dataset or key.
 */
class ConeGeometryReaderTest {
    @TempDir
    static Path dir;
    private static final double[] THETA = {0, 90, 180, 270};

    @BeforeAll
    static void write() throws Exception {
        assumeTrue(Files.isExecutable(LayoutScans.PYTHON), "needs Debian's python3 with python3-h5py (installed by .ci/run)");
        Path script = Path.of("src/test/python/cone_geometry.py");
        if (!Files.exists(script)) script = Path.of("../gpu-executor/src/test/python/cone_geometry.py");
        Process p = new ProcessBuilder(LayoutScans.PYTHON.toString(), script.toAbsolutePath().toString(), dir.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "python3-h5py is needed (installed by .ci/run): " + log);
    }

    private static ConeGeometry read(String file, Map<String, Double> given) {
        try (HdfFile h = new HdfFile(dir.resolve(file))) {
            return ConeGeometryReader.read(h, file, 128, 96, THETA, given);
        }
    }

    @Test
    void readsTheScalarsAndNormalisesTheMatrices() {
        ConeGeometry g = read("good.h5", Map.of());
        assertEquals(200, g.dso());
        assertEquals(400, g.dsd());
        assertEquals(0.8f, (float) g.du());
        assertEquals(47.5, g.cv());
        assertTrue(g.hasMatrices());
        ConeGeometry circular = read("scalars_only.h5", Map.of());
        assertFalse(circular.hasMatrices());
        for (int p = 0; p < THETA.length; p++)
            assertArrayEquals(circular.matrix(p).m(), g.matrix(p).m(), 1e-6, "matrix " + p);
    }

    @Test
    void configurationCompletesTheFileAndContradictionsAreRefused() {
        ConeGeometry g = read("no_dsd.h5", Map.of("cone.dsd", 500.0));
        assertEquals(500, g.dsd());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> read("no_dsd.h5", Map.of()));
        assertTrue(missing.getMessage().contains("cone.dsd") && missing.getMessage().contains("/geometry/dsd_mm"), missing.getMessage());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> read("good.h5", Map.of("cone.dso", 250.0)));
        assertTrue(both.getMessage().contains("contradictory") && both.getMessage().contains("/geometry/dso_mm"), both.getMessage());
        assertEquals(200, read("good.h5", Map.of("cone.dso", 200.0)).dso(), "the same value twice is no contradiction");
    }

    @Test
    void aBadMatrixShapeNamesTheDataset() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read("bad_shape.h5", Map.of()));
        assertTrue(e.getMessage().contains("/geometry/projection_matrices") && e.getMessage().contains("[angles, 3, 4]"), e.getMessage());
    }
}
