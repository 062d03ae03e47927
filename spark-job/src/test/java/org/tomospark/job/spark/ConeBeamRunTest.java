package org.tomospark.job.spark;

import org.tomospark.executor.cone.ConeDemoDataset;
import org.tomospark.executor.cone.ConePhantom;
import org.tomospark.executor.cone.FdkBackprojector;
import org.tomospark.executor.cone.FdkReconstructor;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.filter.FdkFilter;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.ImageErrors;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.ZarrMetadata;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.WritableGroup;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cone-beam runs through the product: a DataExchange file with its /geometry group (the project's own phantom scan,
 * {@link ConeDemoDataset}) reconstructed by the direct engine equals FDK computed here from the file's counts with the
 * library's reference classes; the Spark engine's z-slab tasks, each reading only its band of detector rows, write the
 * same slices bit for bit; the matrices in the file give the circular description's volume; a partial output is
 * completed by a resume with the same bits; bad geometry is refused naming the key or dataset before any output exists.
 */
class ConeBeamRunTest {
    /** 80 × 56 pixels of 0.8 mm, 120 projections over 360°: a volume of 79 × 79 × 56 voxels of 0.4 mm. */
    static final ConeDemoDataset SCAN = new ConeDemoDataset(80, 56, 120, false, 200, 400, 0.8, false, false, 7);

    static synchronized Path scan(String name, ConeDemoDataset d) {
        Path f = TestScans.tmp("cone-scan").resolve(name + ".h5");
        if (!Files.exists(f)) d.writeHdf5(f);
        return f;
    }

    static ReconstructionParams params(String... kv) {
        Settings s = Settings.empty().with(CoreKeys.BACKEND.name(), "java");
        for (int i = 0; i < kv.length; i += 2) s = s.with(kv[i], kv[i + 1]);
        return CoreKeys.params(s);
    }

    static Map<Integer, float[]> direct(Path input, ReconstructionParams p, Path out) {
        new DirectEngine(HadoopConf.create(), new PrintStream(new ByteArrayOutputStream()))
                .run(new JobRequest(input.toString(), out.toString(), p, true, false, true, Settings.empty()));
        return TestScans.readSlices(out.toString(), new Configuration());
    }

    @Test
    @Timeout(300)
    void volumeAttributesIndexTheVolumesSlices() throws Exception {
        Path d = TestScans.tmp("cone-zarr").resolve("rec");
        direct(scan("circular", SCAN), params(CoreKeys.OUTPUT_FORMAT.name(), "zarr"), d);
        Map<?, ?> attrs = (Map<?, ?>) Json.read(Files.readAllBytes(d.resolve(ZarrMetadata.ZATTRS)), ".zattrs").get("tomospark");
        String index = (String) attrs.get("index");
        assertTrue(index.startsWith("z = i is the volume's slice k = firstSlice + i"),
                "cone beam: z is a slice of the volume, not a detector row: " + index);
        assertEquals(0, ((Number) attrs.get("firstSlice")).intValue());
        assertEquals("cone", ((Map<?, ?>) attrs.get("geometry")).get("type"));
    }

    /**
     * A volume of fewer slices than the detector has rows, and a range of them, written as TIFF, Zarr and HDF5 by both
     * engines: zarr-python and h5py (check_zarr.py, check_h5.py) find arrays of exactly the slices reconstructed, each
     * equal bit for bit to its TIFF.
     */
    @Test
    @Timeout(300)
    void everyFormatHoldsTheSameSlicesWithTheSameShape() throws Exception {
        Path file = scan("circular", SCAN);
        Path base = TestScans.tmp("cone-formats");
        for (String slices : List.of("", "5:17")) {
            for (String engine : List.of("direct", "spark")) {
                String tag = engine + (slices.isEmpty() ? "" : "-part");
                for (String format : List.of("tiff", "zarr", "hdf5")) {
                    List<String> a = new ArrayList<>(List.of("--input", file.toString(), "--output", base.resolve(tag + "-" + format)
                            .toString(), "--output-format", format, "--conf", "cone.volume.slices=24", "--conf", "cone.volume.size=40"));
                    if (!slices.isEmpty()) a.addAll(List.of("--slices", slices));
                    CliRun r = FaultMatrixTest.cli(engine, a.toArray(String[]::new));
                    assertEquals(0, r.code(), r.err());
                }
                int n = slices.isEmpty() ? 24 : 12, first = slices.isEmpty() ? 0 : 5;
                assertEquals(n, TestScans.sliceFiles(base.resolve(tag + "-tiff")).size());
                String z = ZarrOutputTest.checkZarr(base.resolve(tag + "-tiff"), base.resolve(tag + "-zarr"));
                assertTrue(z.startsWith("ok: " + n + " slices equal from slice " + first + "; shape (" + n + ", 40, 40)"), z);
                String h = Hdf5OutputTest.checkH5(base.resolve(tag + "-tiff"), base.resolve(tag + "-hdf5"));
                assertTrue(h.startsWith("ok: " + n + " slices equal from slice " + first + "; shape (" + n + ", 40, 40)"), h);
            }
        }
    }

    /** FDK of the whole volume from the file's counts, −log((data − dark)/(flat − dark)) computed here in double. */
    static float[][] reference(Path file, ConeGeometry g, ConeVolume vol) {
        try (DataExchangeSource src = DataExchangeSource.open(file)) {
            int rows = g.rows(), cols = g.cols(), np = g.numProjections();
            RawStack data = src.readProjections(0, rows), flats = src.readFlats(0, rows), darks = src.readDarks(0, rows);
            double[] flat = new double[rows * cols], dark = new double[rows * cols];
            for (int f = 0; f < flats.frames(); f++)
                for (int i = 0; i < flat.length; i++) flat[i] += flats.get(f * flat.length + i) / (double) flats.frames();
            for (int f = 0; f < darks.frames(); f++)
                for (int i = 0; i < dark.length; i++) dark[i] += darks.get(f * dark.length + i) / (double) darks.frames();
            float[][] proj = new float[np][rows * cols];
            for (int p = 0; p < np; p++)
                for (int i = 0; i < rows * cols; i++)
                    proj[p][i] = (float) -Math.log((data.get(p * rows * cols + i) - dark[i]) / (flat[i] - dark[i]));
            return new FdkReconstructor(g, vol, params().algorithm().filter(), "/exchange/theta").slab(proj, 0, rows, 0, vol.nz());
        }
    }

    @Test
    @Timeout(300)
    void directEngineSparkAndMatricesAgreeWithTheReference() throws Exception {
        Path file = scan("circular", SCAN);
        ConeGeometry g = SCAN.geometry();
        Path d = TestScans.tmp("cone-direct").resolve("rec");
        Map<Integer, float[]> direct = direct(file, params(), d);
        Map<String, Object> rep = Json.read(Files.readAllBytes(d.resolve("report.json")), "report");
        Map<?, ?> wf = (Map<?, ?>) rep.get("workflow");
        assertEquals("cone", wf.get("geometry"), "geometry=auto finds /geometry: " + wf);
        Map<?, ?> cone = (Map<?, ?>) wf.get("coneBeam");
        Map<?, ?> vol = (Map<?, ?>) cone.get("volume");
        ConeVolume v = new ConeVolume(((Number) vol.get("size")).intValue(), ((Number) vol.get("slices")).intValue(),
                ((Number) vol.get("voxelMm")).doubleValue());
        assertEquals(0.4, v.voxel(), 1e-12, "default voxel: the detector pixel at the axis");
        assertEquals(56, v.nz(), "default slices: the detector's height at the axis");
        assertEquals(79, v.n(), "default size: the widest the field of view holds");
        assertEquals(v.nz(), direct.size());
        assertFalse(((String) cone.get("slicesOutsideCompleteData")).isEmpty(), "the top and bottom slices are reported");
        // the report's top-level geometry is the cone's: distances and the volume, no centre of rotation
        Map<?, ?> geo = (Map<?, ?>) rep.get("geometry");
        assertEquals("cone", geo.get("type"));
        assertEquals(g.dso(), ((Number) geo.get("dsoMm")).doubleValue(), 1e-12);
        assertEquals(g.dsd(), ((Number) geo.get("dsdMm")).doubleValue(), 1e-12);
        assertEquals(vol, geo.get("volume"));
        assertFalse(geo.containsKey("center"), "a cone-beam scan has no centre of rotation on the detector: " + geo);

        // against the phantom itself (exact chords in the file, voxel-averaged truth here): the values are attenuation in 1/mm
        int mid = v.nz() / 2;
        float[] truth = SCAN.phantom().truth(v, mid, 3), got = direct.get(mid);
        // the scale: means over the phantom's uniform interior (0.2 of its unit density, the same around each voxel)
        double sumGot = 0, sumTruth = 0;
        int n = v.n();
        for (int j = 1; j < n - 1; j++)
            for (int i = 1; i < n - 1; i++) {
                float t = truth[j * n + i];
                boolean uniform = t > 0.19 * ConeDemoDataset.MU && t < 0.21 * ConeDemoDataset.MU;
                for (int dj = -1; dj <= 1 && uniform; dj++) {
                    int row = (j + dj) * n + i;
                    uniform = truth[row - 1] == t && truth[row] == t && truth[row + 1] == t;
                }
                if (uniform) {
                    sumGot += got[j * n + i];
                    sumTruth += t;
                }
            }
        double scale = sumGot / sumTruth, err = ImageErrors.relL2(got, truth);
        System.out.printf("cone run, slice %d against the phantom: scale %.4f, relative L2 %.4f%n", mid, scale, err);
        assertEquals(1, scale, 0.03, "the central slice's values over the phantom, against its truth");
        // the phantom's sharp edges at 0.4 mm voxels dominate the error
        assertTrue(err < 0.35, "central slice against the phantom's truth, relative L2 " + err);

        float[][] ref = reference(file, g, v);
        for (int k = 0; k < v.nz(); k++) {
            double e = ImageErrors.relL2(direct.get(k), ref[k]);
            assertTrue(e < 1e-5, "slice " + k + ": the product against FDK from the file's counts, relative L2 " + e);
        }

        Path s = TestScans.tmp("cone-spark").resolve("rec");
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), TestScans.spec(file.toString(), s.toString())
                .withParams(params(CoreKeys.GROUP_ROWS.name(), "12")).withPreview(true), null);
        assertEquals(5, r.groups().size(), "56 slices in slabs of 12: five tasks");
        TestScans.assertBitIdentical(direct, TestScans.readSlices(s.toString(), new Configuration()));
        assertTrue(Files.exists(s.resolve("preview.png")));

        Path withMatrices = scan("matrices", SCAN.withMatrices(true));
        Map<Integer, float[]> m = direct(withMatrices, params(), TestScans.tmp("cone-matrices").resolve("rec"));
        for (int k = 0; k < v.nz(); k++) {
            double e = ImageErrors.relL2(m.get(k), direct.get(k));
            assertTrue(e < 1e-5, "slice " + k + ": the matrices against the circular description, relative L2 " + e);
        }
    }

    @Test
    @Timeout(300)
    void aResumeCompletesAPartialConeBeamOutputWithTheSameBits() throws Exception {
        Path file = scan("circular", SCAN);
        Map<Integer, float[]> expected = direct(file, params(), TestScans.tmp("cone-resume-ref").resolve("rec"));
        Path out = TestScans.tmp("cone-resume").resolve("rec");
        SparkReconstruction.run(TestScans.spark(), TestScans.spec(file.toString(), out.toString())
                .withParams(params(CoreKeys.SLICES.name(), "20:36", CoreKeys.GROUP_ROWS.name(), "8")), null);
        assertEquals(16, TestScans.readSlices(out.toString(), new Configuration()).size());
        Files.delete(out.resolve("_SUCCESS")); // unfinished, as a killed run leaves it: a finished one is never widened
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(), TestScans.spec(file.toString(), out.toString())
                .withParams(params(CoreKeys.GROUP_ROWS.name(), "8")).withResume(true), null);
        assertEquals(16, r.slicesSkipped());
        assertEquals(40, r.slicesComputed());
        TestScans.assertBitIdentical(expected, TestScans.readSlices(out.toString(), new Configuration()));
    }

    /**
     * Projections that come weighted and filtered (RabbitCT's, float32, no flats): --prefiltered back-projects them as they
     * are, equal to the Java back-projector of the same projections; and those projections, filtered here from the phantom's
     * exact line integrals, reconstruct the phantom at scale 1.
     */
    @Test
    @Timeout(120)
    void prefilteredProjectionsAreBackProjectedAsTheyAre() throws Exception {
        ConeGeometry g = SCAN.geometry();
        ConePhantom ph = SCAN.phantom();
        FdkFilter filter = new FdkFilter(g, params().algorithm().filter(), "/exchange/theta");
        int np = g.numProjections(), rows = g.rows(), cols = g.cols();
        float[][] q = new float[np][];
        float[][][] stack = new float[np][rows][cols];
        for (int p = 0; p < np; p++) {
            q[p] = ph.project(g, p, 2);
            filter.apply(p, q[p], 0, 0, rows);
            for (int r = 0; r < rows; r++) System.arraycopy(q[p], r * cols, stack[p][r], 0, cols);
        }
        Path file = TestScans.tmp("cone-prefiltered").resolve("filtered.h5");
        double[] theta = new double[np];
        for (int p = 0; p < np; p++) theta[p] = Math.toDegrees(g.angle(p));
        try (WritableHdfFile f = HdfFile.write(file)) {
            WritableGroup ex = f.putGroup("exchange");
            ex.putDataset("data", stack);
            ex.putDataset("theta", theta);
            ConeDemoDataset.writeGeometry(f, g, false);
        }
        ConeVolume v = new ConeVolume(79, 56, 0.4);
        Map<Integer, float[]> got = direct(file, params(CoreKeys.CONE_PREFILTERED.name(), "true"),
                TestScans.tmp("cone-prefiltered").resolve("rec"));
        float[][] expected = new float[v.nz()][v.pixels()];
        new FdkBackprojector(g, v).backproject(q, 0, rows, 0, expected);
        for (int k = 0; k < v.nz(); k++) {
            double e = ImageErrors.relL2(got.get(k), expected[k]);
            assertTrue(e < 1e-6, "slice " + k + ": prefiltered run against the back-projector of the same projections, " + e);
        }
        float[] truth = ph.truth(v, v.nz() / 2, 3), mid = got.get(v.nz() / 2);
        double sg = 0, st = 0;
        for (int i = 0; i < truth.length; i++)
            if (truth[i] > 0.19 * ConeDemoDataset.MU && truth[i] < 0.21 * ConeDemoDataset.MU) {
                sg += mid[i];
                st += truth[i];
            }
        assertEquals(1, sg / st, 0.05, "the prefiltered projections reconstruct the phantom's interior values");
    }

    @Test
    @Timeout(120)
    void badGeometryIsRefusedNamingTheKeyOrDatasetBeforeAnyOutput() throws Exception {
        Path file = scan("circular", SCAN);
        Path parallel = TestScans.hdf5();
        Path dir = TestScans.tmp("cone-bad");
        assertRefused(parallel, dir.resolve("a"), "cone.dso", "--geometry", "cone");
        assertRefused(file, dir.resolve("b"), "contradictory geometry: config key cone.dso=300.0 but /geometry/dso_mm holds 200.0",
                "--conf", "cone.dso=300");
        assertRefused(file, dir.resolve("c"), "would be truncated", "--conf", "cone.volume.size=120");
        assertRefused(file, dir.resolve("d"), "does not apply to a cone-beam", "--center", "40");
        assertRefused(file, dir.resolve("e"), "a cone-beam short scan needs 180 degrees plus the fan angle", "--conf",
                "angles.start=0", "--conf", "angles.step=1.5");
        assertRefused(file, dir.resolve("f"), "geometry=parallel", "--geometry", "parallel", "--conf", "cone.dsd=500");
    }

    private static void assertRefused(Path input, Path out, String expected, String... extra) {
        String[] base = {"reconstruct", "--engine", "direct", "--backend", "java", "--input", input.toString(), "--output",
                out.toString()};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        CliRun r = CliRun.of(args);
        assertNotEquals(0, r.code(), "refused: " + String.join(" ", extra));
        assertTrue(r.err().contains(expected), "the message names it (" + expected + "): " + r.err());
        assertFalse(Files.exists(out), "nothing written for " + String.join(" ", extra));
    }
}
