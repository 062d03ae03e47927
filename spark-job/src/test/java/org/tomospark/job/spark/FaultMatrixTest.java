package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.inputs.DataExchangeWriter;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.cli.CliRun;
import org.tomospark.job.fs.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fault matrix of docs/faults.md, through the command line on both engines: every bad input exits with the
 * documented status and a message that names the real problem, and leaves no output behind; inputs that are only
 * suspicious run, with a warning in report.json. The scans come from h5py (bad_scans.py), a writer independent of
 * the project's own.
 */
class FaultMatrixTest {
    static final Path PYTHON = Path.of("/usr/bin/python3");
    static Path scans;

    @BeforeAll
    static void writeScans() throws Exception {
        TestScans.spark();
        assumeTrue(Files.isExecutable(PYTHON), "needs Debian's python3 with python3-h5py (installed by .ci/run)");
        scans = TestScans.tmp("bad-scans");
        Process p = new ProcessBuilder(PYTHON.toString(), Path.of("src/test/python/bad_scans.py").toAbsolutePath().toString(),
                scans.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "python3-h5py is needed to write the scans: " + log);
        // cut short: the last 100 bytes (the end of /exchange/data when it is written last), and half of the file
        byte[] dataLast = Files.readAllBytes(scans.resolve("data_last.h5"));
        Files.write(scans.resolve("cut_end.h5"), Arrays.copyOf(dataLast, dataLast.length - 100));
        byte[] good = Files.readAllBytes(scans.resolve("good.h5"));
        Files.write(scans.resolve("cut_half.h5"), Arrays.copyOf(good, good.length / 2));
    }

    /** One CLI run on an engine, java backend, no progress bar. */
    static CliRun cli(String engine, String... args) {
        List<String> a = new ArrayList<>(List.of("reconstruct", "--engine", engine, "--backend", "java", "--conf", "job.progress=false"));
        a.addAll(List.of(args));
        return CliRun.of(a.toArray(String[]::new));
    }

    static Path out(String name) {
        return TestScans.tmp("fault-out").resolve(name);
    }

    /** Expects the exit status, every fragment in the error line, and no output directory at all. */
    static void assertRefused(CliRun r, int code, Path out, String... fragments) {
        assertEquals(code, r.code(), r.err());
        for (String f : fragments) assertTrue(r.err().contains(f), "error should name '" + f + "': " + r.err());
        assertFalse(r.err().contains("\tat "), "an expected failure prints no stack trace: " + r.err());
        assertFalse(Files.exists(out), out + " was created by a refused run");
    }

    @SuppressWarnings("unchecked")
    static List<String> reportWarnings(Path out) throws IOException {
        Map<String, Object> report = Json.read(Files.readAllBytes(out.resolve("report.json")), "report.json");
        return (List<String>) report.get("warnings");
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void truncatedFilesAreRefusedBeforeTheOutputExists(String engine) {
        for (String f : List.of("cut_end.h5", "cut_half.h5")) {
            Path out = out(engine + "-" + f);
            assertRefused(cli(engine, "--input", scans.resolve(f).toString(), "--output", out.toString(), "--center", "31.5"), 2, out,
                    f, "truncated HDF5 file", "bytes missing");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void badDatasetsAreNamedNotCalledUnreadable(String engine) {
        String[][] cases = {
                {"theta_len.h5", "/exchange/theta has 89 angles but /exchange/data has 90 projections"},
                {"rank2.h5", "/exchange/data must be 3-D"},
                {"int32.h5", "/exchange/data has unsupported type"},
                {"empty.h5", "/exchange/data is empty"},
                {"no_white.h5", "/exchange/data_white: the scan has no flat fields but 2 dark fields"},
        };
        for (String[] c : cases) {
            Path out = out(engine + "-" + c[0]);
            CliRun r = cli(engine, "--input", scans.resolve(c[0]).toString(), "--output", out.toString(), "--center", "31.5");
            assertRefused(r, 2, out, c[0], c[1]);
            assertFalse(r.err().contains("not a readable HDF5 file"), r.err());
            assertFalse(r.err().contains("not found"), r.err());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void notANumberIsNotACentre(String engine) {
        for (String c : List.of("NaN", "nan")) {
            Path out = out(engine + "-nan");
            assertRefused(cli(engine, "--input", scans.resolve("good.h5").toString(), "--output", out.toString(), "--center", c), 2,
                    out, "config key center", "'" + c + "'");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void suspiciousInputRunsWithWarningsInTheReport(String engine) throws Exception {
        String[][] cases = {
                {"no_dark.h5", "/exchange/data_dark: the scan has no dark fields; the dark current is taken as 0"},
                {"radians.h5", "they look like radians"},
                {"unordered.h5", "1 angle repeats an earlier one (first 78 degrees)"},
                {"unordered.h5", "the angles are not monotonic (projection 11 at 20 degrees follows 22)"},
        };
        for (String[] c : cases) {
            Path out = out(engine + "-warn-" + c[0]);
            CliRun r = cli(engine, "--input", scans.resolve(c[0]).toString(), "--output", out.toString(), "--center", "31.5");
            assertEquals(0, r.code(), r.err());
            assertTrue(reportWarnings(out).stream().anyMatch(w -> w.contains(c[1])), c[0] + ": " + reportWarnings(out));
            assertTrue(r.err().contains(c[1]), "the warning is printed too: " + r.err());
        }
        // a clean scan has none of these
        Path clean = out(engine + "-clean");
        assertEquals(0, cli(engine, "--input", scans.resolve("good.h5").toString(), "--output", clean.toString(), "--center", "31.5")
                .code());
        assertEquals(List.of(), reportWarnings(clean));
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void unavailableBackendExitsThreeAndCreatesNothing(String engine) {
        Path out = out(engine + "-cuda");
        CliRun r = CliRun.of("reconstruct", "--engine", engine, "--backend", "cuda", "--input", scans.resolve("good.h5").toString(),
                "--output", out.toString(), "--center", "31.5");
        assertRefused(r, 3, out, "cuda", "cannot run here");
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void unusableFirstOrLastRowIsFoundBeforeTheOutputExists(String engine) {
        DemoDataset.Counts c = TestScans.DATA.counts();
        for (int row : new int[]{0, 15}) {
            int[][][] data = copy(c.data());
            for (int[][] frame : data) Arrays.fill(frame[row], 0); // no light at all: every transmission clamped
            Path scan = TestScans.tmp("dark-row").resolve("dark_row_" + row + ".h5");
            DataExchangeWriter.writeUint16(scan, data, c.white(), c.dark(), c.thetaDeg(), "dark row");
            Path out = out(engine + "-dark-row-" + row);
            assertRefused(cli(engine, "--input", scan.toString(), "--output", out.toString(), "--center", "47.5"), 2, out,
                    "dark_row_" + row + ".h5");
        }
    }

    @Test
    void aTaskThatFailsMidRunExitsFourAndKeepsWholeSlices() {
        DemoDataset.Counts c = TestScans.DATA.counts();
        int[][][] data = copy(c.data());
        for (int[][] frame : data) Arrays.fill(frame[9], 0); // a middle row: found only by the task that reads it
        Path scan = TestScans.tmp("mid-row").resolve("mid_row.h5");
        DataExchangeWriter.writeUint16(scan, data, c.white(), c.dark(), c.thetaDeg(), "mid row");
        for (String engine : List.of("direct", "spark")) {
            Path out = out(engine + "-mid-row");
            CliRun r = cli(engine, "--input", scan.toString(), "--output", out.toString(), "--center", "47.5", "--conf", "group.rows=4");
            assertEquals(4, r.code(), r.err());
            assertTrue(r.err().contains("mid_row.h5"), r.err());
            assertTrue(r.err().contains("--resume"), "says how to finish: " + r.err());
            assertFalse(Files.exists(out.resolve("_SUCCESS")));
            assertFalse(Files.exists(out.resolve("_temporary")) && TestScans.sliceFiles(out.resolve("_temporary")).size() > 0);
            List<String> slices = TestScans.sliceFiles(out);
            assertFalse(slices.contains("slice_00009.tif"), "the bad row was never committed");
        }
    }

    static int[][][] copy(int[][][] a) {
        int[][][] r = new int[a.length][][];
        for (int i = 0; i < a.length; i++) {
            r[i] = new int[a[i].length][];
            for (int j = 0; j < a[i].length; j++) r[i][j] = a[i][j].clone();
        }
        return r;
    }

    /** Reads the slices of an output, for comparisons. */
    static Map<Integer, float[]> slices(Path out) {
        return TestScans.readSlices(out.toString(), new Configuration());
    }
}
