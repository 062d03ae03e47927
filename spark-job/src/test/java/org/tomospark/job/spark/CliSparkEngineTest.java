package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.tomospark.job.cli.TomoCli;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI's --engine spark (embedded, on the running context) gives the library's slices; its errors exit 2. */
class CliSparkEngineTest {
    @Test
    void reconstructWithSparkEngine() throws Exception {
        TestScans.spark();
        Path out = TestScans.tmp("cli-spark").resolve("rec");
        int rc = TomoCli.run("reconstruct", "--engine", "spark", "--input", TestScans.hdf5().toString(), "--output", out.toString(),
                "--center", "47.5", "--filter", "shepp-logan", "--backend", "java", "--conf", "group.rows=8", "--conf",
                        "job.progress=false");
        assertEquals(0, rc);
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertTrue(!TestScans.spark().isStopped(), "the CLI stopped a context it did not create");
        // an existing output without --overwrite: usage error, nothing touched
        long mtime = Files.getLastModifiedTime(out.resolve("slice_00003.tif")).toMillis();
        assertEquals(2, TomoCli.run("reconstruct", "--engine", "spark", "--input", TestScans.hdf5().toString(), "--output",
                out.toString(), "--center", "47.5"));
        assertEquals(mtime, Files.getLastModifiedTime(out.resolve("slice_00003.tif")).toMillis());
        // a bad job key names itself
        assertEquals(2, TomoCli.run("reconstruct", "--engine", "spark", "--input", TestScans.hdf5().toString(), "--output",
                out.toString(), "--conf", "job.input.raw.dtype=int8"));
    }
}
