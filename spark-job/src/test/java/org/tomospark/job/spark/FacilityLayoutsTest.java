package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.inputs.FacilityScans;
import org.tomospark.job.cli.CliRun;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tomospark.job.spark.FaultMatrixTest.assertRefused;
import static org.tomospark.job.spark.FaultMatrixTest.cli;

/**
 * The scan of the layouts table (180 angles, 8 rows, 256 columns, written by h5py with Debian's filter plugins in every
 * layout facilities use: chunked, gzip, LZF, LZ4, bitshuffle, Blosc, Zstd, an external link, virtual datasets over
 * camera files) reconstructed with the direct engine and the java backend: every layout gives slices bit-identical
 * to the contiguous file's. A virtual dataset whose source file is missing is refused before anything is written.
 */
class FacilityLayoutsTest {
    static Path scans;
    static Map<Integer, float[]> contiguous;

    @BeforeAll
    static void reconstructContiguous() throws Exception {
        scans = FacilityScans.write(TestScans.tmp("facility-scans"));
        contiguous = reconstruct("contiguous");
    }

    static List<String> layouts() {
        return FacilityScans.READABLE.stream().filter(l -> !l.equals("contiguous")).toList();
    }

    static Map<Integer, float[]> reconstruct(String layout) {
        Path out = TestScans.tmp("facility-out").resolve(layout);
        CliRun r = cli("direct", "--input", scans.resolve(layout + ".h5").toString(), "--output", out.toString(),
                "--center", "127.5", "--conf", "group.rows=3");
        assertEquals(0, r.code(), r.err());
        return TestScans.readSlices(out.toString(), new Configuration());
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void everyLayoutGivesTheContiguousSlices(String layout) {
        Map<Integer, float[]> slices = reconstruct(layout);
        assertEquals(FacilityScans.R, slices.size());
        TestScans.assertBitIdentical(contiguous, slices);
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "spark"})
    void aMissingSourceFileIsRefusedBeforeTheOutputExists(String engine) {
        Path out = TestScans.tmp("facility-out").resolve("missing-" + engine);
        assertRefused(cli(engine, "--input", scans.resolve("vds_missing.h5").toString(), "--output", out.toString(),
                "--center", "127.5"), 2, out, "vds_missing_src/segment_2.h5", "does not exist", "/exchange/data");
    }
}
