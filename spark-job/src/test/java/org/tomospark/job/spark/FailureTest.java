package org.tomospark.job.spark;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.inputs.DataExchangeWriter;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.inputs.InputOptions;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every bad input fails before a slice reaches the destination, with a message naming the problem: the core's bad
 * inputs, an unreadable input URI, an existing output without --overwrite and an unwritable output.
 */
class FailureTest {
    static final DemoDataset.Counts C = TestScans.DATA.counts();

    /** Runs the job and expects it to fail naming every fragment; the output must hold no slice. */
    static String assertFailsCleanly(SparkJobSpec spec, String... fragments) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> SparkReconstruction.run(TestScans.spark(), spec, null));
        String m = String.valueOf(e.getMessage());
        for (String f : fragments) assertTrue(m.contains(f), "message should name '" + f + "': " + m);
        Path out = Path.of(spec.output().replaceFirst("^file:", ""));
        assertEquals(List.of(), TestScans.sliceFiles(out), "slices left behind for: " + m);
        return m;
    }

    static Path h5(String name, int[][][] data, int[][][] white, int[][][] dark, double[] theta) {
        Path p = TestScans.tmp("bad").resolve(name);
        DataExchangeWriter.writeUint16(p, data, white, dark, theta, "bad");
        return p;
    }

    static String out() {
        return TestScans.tmp("badout").resolve("rec").toString();
    }

    static int[][][] rows(int[][][] a, int n) {
        int[][][] r = new int[a.length][][];
        for (int i = 0; i < a.length; i++) r[i] = Arrays.copyOf(a[i], n);
        return r;
    }

    @Test
    void wrongShapeOfFlats() {
        Path p = h5("shape.h5", C.data(), rows(C.white(), 8), C.dark(), C.thetaDeg());
        assertFailsCleanly(TestScans.spec(p.toString(), out()), "shape.h5", "/exchange/data_white");
    }

    @Test
    void angleCountMismatch() {
        Path p = h5("angles.h5", C.data(), C.white(), C.dark(), Arrays.copyOf(C.thetaDeg(), 100));
        assertFailsCleanly(TestScans.spec(p.toString(), out()), "angles.h5", "/exchange/theta", "100 angles");
    }

    @Test
    void zeroFlats() {
        int[][][] white = new int[C.white().length][16][96];
        Path p = h5("zeroflats.h5", C.data(), white, C.dark(), C.thetaDeg());
        assertFailsCleanly(TestScans.spec(p.toString(), out()), "zeroflats.h5", "/exchange/data_white", "not above the dark");
    }

    @Test
    void nanInFlats() throws Exception {
        // float32 raw flats with one NaN
        Path dir = TestScans.tmp("nan");
        Path flatsF = dir.resolve("flatsf.raw");
        ByteBuffer fb = ByteBuffer.allocate(2 * 16 * 96 * 4).order(ByteOrder.BIG_ENDIAN);
        for (int f = 0; f < 2; f++) for (int r = 0; r < 16; r++) for (int c = 0; c < 96; c++)
                fb.putFloat(f == 1 && r == 3 && c == 7 ? Float.NaN : 20000f);
        Files.write(flatsF, fb.array());
        Files.write(dir.resolve("scanf.raw"), floats(C.data()));
        InputOptions o = InputOptions.raw(120, 16, 96, "float32", true, 0, flatsF.toString(), "", "");
        SparkJobSpec spec = TestScans.spec(dir.resolve("scanf.raw").toString(), out()).withInputOptions(o)
                .withParams(TestScans.params().toBuilder().angles(0, 1.5).build());
        assertFailsCleanly(spec, "flatsf.raw", "non-finite", "row 3, column 7");
    }

    static byte[] floats(int[][][] a) {
        ByteBuffer bb = ByteBuffer.allocate(a.length * a[0].length * a[0][0].length * 4).order(ByteOrder.BIG_ENDIAN);
        for (int[][] f : a) for (int[] r : f) for (int v : r) bb.putFloat(v);
        return bb.array();
    }

    @Test
    void centreOutsideDetector() {
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out())
                .withParams(TestScans.params().toBuilder().center(140).build());
        assertFailsCleanly(spec, "config key center: invalid value '140'", "outside the detector");
    }

    @Test
    void missingDataset() throws Exception {
        Path p = TestScans.tmp("bad").resolve("nodata.h5");
        try (WritableHdfFile f = HdfFile.write(p)) {
            f.putGroup("exchange").putDataset("theta", C.thetaDeg());
        }
        assertFailsCleanly(TestScans.spec(p.toString(), out()), "nodata.h5", "/exchange/data", "not found");
    }

    @Test
    void truncatedFile() throws Exception {
        Path p = TestScans.tmp("bad").resolve("truncated.h5");
        Files.copy(TestScans.hdf5(), p);
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(raf.length() * 2 / 3);
        }
        assertFailsCleanly(TestScans.spec(p.toString(), out()), "truncated.h5");
    }

    @Test
    void wrongRawShape() throws Exception {
        Path dir = TestScans.tmp("rawshape");
        Files.write(dir.resolve("scan.raw"), LocalModeTest.be16(C.data(), 0));
        InputOptions o = InputOptions.raw(120, 16, 95, "uint16", true, 0, "", "", "");
        assertFailsCleanly(TestScans.spec(dir.resolve("scan.raw").toString(), out()).withInputOptions(o)
                .withParams(TestScans.params().toBuilder().angles(0, 1.5).build()), "scan.raw", "job.input.raw.shape=120,16,95");
    }

    @Test
    void unreadableInputUris() {
        assertFailsCleanly(TestScans.spec("file:///nonexistent/dir/scan.h5", out()), "/nonexistent/dir/scan.h5", "not found");
        assertFailsCleanly(TestScans.spec("nosuchfs://host/scan.h5", out()), "nosuchfs://host/scan.h5", "nosuchfs");
    }

    @Test
    void cudaForcedWithoutGpuIsAClearError() {
        String m = assertFailsCleanly(TestScans.spec(TestScans.hdf5().toString(), out())
                .withParams(TestScans.params().toBuilder().backend("cuda").build()), "cuda");
        assertTrue(m.contains("cannot run here") || m.contains("unknown backend"), m);
    }

    @Test
    void existingOutputNeedsOverwrite() throws Exception {
        Path out = TestScans.tmp("exists").resolve("rec");
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out.toString())
                .withParams(TestScans.params().toBuilder().rows(0, 4).build());
        SparkReconstruction.run(TestScans.spark(), spec, null);
        long mtime = Files.getLastModifiedTime(out.resolve("slice_00000.tif")).toMillis();
        byte[] manifest = Files.readAllBytes(out.resolve("manifest.json"));
        RuntimeException e = assertThrows(RuntimeException.class, () -> SparkReconstruction.run(TestScans.spark(), spec, null));
        assertTrue(e.getMessage().contains("--overwrite") && e.getMessage().contains(out.toString()), e.getMessage());
        assertEquals(mtime, Files.getLastModifiedTime(out.resolve("slice_00000.tif")).toMillis(), "refused run touched a slice");
        assertEquals(new String(manifest), new String(Files.readAllBytes(out.resolve("manifest.json"))));
        // with --overwrite it is replaced (other rows this time: the old slices are gone)
        SparkReconstruction.run(TestScans.spark(), spec.withOverwrite(true)
                .withParams(TestScans.params().toBuilder().rows(8, 12).build()), null);
        assertEquals(List.of("slice_00008.tif", "slice_00009.tif", "slice_00010.tif", "slice_00011.tif"),
                TestScans.sliceFiles(out).stream().sorted().toList());
    }

    @Test
    void unwritableOutput() throws Exception {
        Path file = TestScans.tmp("unwritable").resolve("a-file");
        Files.writeString(file, "not a directory");
        String o = file.resolve("rec").toString();
        assertFailsCleanly(TestScans.spec(TestScans.hdf5().toString(), o), o, "not writable");
    }

    @Test
    void groupTooLargeForExecutorMemoryNamesTheKeys() {
        SparkJobSpec spec = TestScans.spec(TestScans.hdf5().toString(), out())
                .withParams(TestScans.params().toBuilder().groupRows(16).build())
                .withSpark(SparkOptions.defaults().withProgress(false).withMemoryFraction(0.0001));
        assertFailsCleanly(spec, "group.rows", "spark.executor.memory", "job.memoryFraction");
    }
}
