package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.inputs.NxTomoSource;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.inputs.ProjectionInputs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * NXtomo input, on scans written by h5py (nxtomo_scans.py): the frames told apart by image_key, read through the Hadoop
 * FileSystem, against the same scan that h5py wrote as DataExchange (numpy picked its projections, flats and darks); a
 * reconstruction of each, on both engines, gives the same slices; and each bad file is refused naming its dataset.
 */
class NxTomoInputTest {
    static final Configuration CONF = HadoopConf.create();
    static Path scans;

    @BeforeAll
    static void writeScans() throws Exception {
        assumeTrue(Files.isExecutable(FaultMatrixTest.PYTHON),
                "needs Debian's python3 with python3-h5py (installed by .ci/run)");
        scans = TestScans.tmp("nxtomo-scans");
        Process p = new ProcessBuilder(FaultMatrixTest.PYTHON.toString(),
                Path.of("src/test/python/nxtomo_scans.py").toAbsolutePath().toString(), scans.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "python3-h5py is needed to write the scans: "
                + log);
    }

    static String scan(String name) {
        return scans.resolve(name).toString();
    }

    @Test
    void framesAreToldApartByImageKeyAndMatchTheDataExchangeCopy() {
        try (ProjectionSource ex = ProjectionInputs.open(scan("exchange.h5"), InputOptions.defaults(), CONF)) {
            ScanMetadata em = ex.metadata();
            for (String f : List.of("good.nxs", "chunked.nxs", "nxdata.nxs", "nxtomomill.nxs")) {
                assertEquals("nxtomo", ProjectionInputs.resolveFormat(scan(f), InputOptions.defaults(), CONF), f);
                try (ProjectionSource nx = ProjectionInputs.open(scan(f), InputOptions.defaults(), CONF)) {
                    assertInstanceOf(NxTomoSource.class, nx);
                    ScanMetadata m = nx.metadata();
                    assertEquals(List.of(90, 8, 64, 6, 3), List.of(m.numProjections(), m.rows(), m.width(),
                            m.numFlats(),
                            m.numDarks()), f);
                    assertArrayEquals(em.anglesDeg(), m.anglesDeg(), 1e-9, f + " angles (radians in chunked.nxs)");
                    for (int[] band : new int[][]{{0, 8}, {2, 3}, {7, 1}}) {
                        String what = f + " rows " + band[0] + "+" + band[1];
                        assertSame(ex.readProjections(band[0], band[1]), nx.readProjections(band[0], band[1]), what);
                        assertSame(ex.readFlats(band[0], band[1]), nx.readFlats(band[0], band[1]), what + " flats");
                        assertSame(ex.readDarks(band[0], band[1]), nx.readDarks(band[0], band[1]), what + " darks");
                    }
                    // the darks are frames 0..2: 100 + (3 frame + 5 row + column) mod 7, as the writer drew them
                    RawStack darks = nx.readDarks(2, 3);
                    for (int fr = 0; fr < 3; fr++)
                        for (int r = 0; r < 3; r++)
                            for (int c = 0; c < 64; c++)
                                assertEquals(100 + (3 * fr + 5 * (r + 2) + c) % 7, darks.get(fr, r, c), f + " dark "
                                        + fr);
                }
            }
        }
    }

    private static void assertSame(RawStack expected, RawStack actual, String what) {
        assertEquals(List.of(expected.frames(), expected.rows(), expected.width()),
                List.of(actual.frames(), actual.rows(), actual.width()), what + " shape");
        assertArrayEquals(expected.uint16Data(), actual.uint16Data(), what);
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void reconstructionEqualsTheDataExchangeCopys(String engine) throws Exception {
        if (engine.equals("spark")) TestScans.spark();
        Path base = TestScans.tmp("nxtomo-out-" + engine);
        String nx = base.resolve("nx").toString(), ex = base.resolve("ex").toString();
        CliRun a = FaultMatrixTest.cli(engine, "--input", scan("chunked.nxs"), "--output", nx, "--center", "31.5");
        assertEquals(0, a.code(), a.err());
        CliRun b = FaultMatrixTest.cli(engine, "--input", scan("exchange.h5"), "--output", ex, "--center", "31.5");
        assertEquals(0, b.code(), b.err());
        TestScans.assertBitIdentical(TestScans.readSlices(ex, CONF), TestScans.readSlices(nx, CONF));
        assertEquals(8, TestScans.readSlices(nx, CONF).size());
        // nxtomomill's layout: entry0000, the detector data a virtual dataset over one camera file per segment
        String mill = base.resolve("nxtomomill").toString();
        CliRun c = FaultMatrixTest.cli(engine, "--input", scan("nxtomomill.nxs"), "--output", mill, "--center", "31.5");
        assertEquals(0, c.code(), c.err());
        TestScans.assertBitIdentical(TestScans.readSlices(ex, CONF), TestScans.readSlices(mill, CONF));
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void badFilesAreRefusedNamingTheDataset(String engine) {
        String[][] cases = {
                {"no_flats.nxs", "/entry/instrument/detector/image_key: the scan has no flat fields (image_key 1)"},
                {"no_darks.nxs", "/entry/instrument/detector/image_key: the scan has no dark fields (image_key 2)"},
                {"bad_key.nxs", "/entry/instrument/detector/image_key: unknown image_key 5 at frame 20"},
                {"angles_short.nxs",
                        "/entry/sample/rotation_angle: 99 angles but /entry/instrument/detector/data has 100 frames"},
        };
        for (String[] c : cases) {
            Path out = FaultMatrixTest.out(engine + "-" + c[0]);
            FaultMatrixTest.assertRefused(FaultMatrixTest.cli(engine, "--input", scan(c[0]), "--output", out.toString(),
                    "--center", "31.5"), 2, out, c[0], c[1]);
        }
    }
}
