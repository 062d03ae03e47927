package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.outputs.FloatTiff;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.conveyor.VolumeReconstructor;
import org.tomospark.job.outputs.SliceWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shared fixtures: one small phantom scan, its single-machine reference, one local SparkContext per test JVM. */
public final class TestScans {
    public static final DemoDataset.Spec SPEC = DemoDataset.Spec.demo().withSize(96, 16, 120);
    public static final DemoDataset DATA = new DemoDataset(SPEC);
    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    private static java.nio.file.Path h5;
    private static Map<Integer, float[]> reference;
    private static SparkContext sc;

    private TestScans() {
    }

    public static ReconstructionParams params() {
        return ReconstructionParams.builder().backend("java").filter(FilterSpec.of(FilterWindow.SHEPP_LOGAN)).center(47.5).build();
    }

    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    public static java.nio.file.Path tmp(String name) {
        try {
            // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
            java.nio.file.Path base = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    public static synchronized java.nio.file.Path hdf5() {
        if (h5 == null) {
            h5 = tmp("scan").resolve("phantom.h5");
            DATA.writeHdf5(h5);
        }
        return h5;
    }

    /** The core library's single-machine run on the same file: the expected slices, by row. */
    public static synchronized Map<Integer, float[]> reference() {
        if (reference == null) reference = reconstructDirect(hdf5(), params());
        return reference;
    }

    /** The core library's single-machine run of an HDF5 scan: the slices by row. */
    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    public static Map<Integer, float[]> reconstructDirect(java.nio.file.Path h5, ReconstructionParams p) {
        Map<Integer, float[]> m = new TreeMap<>();
        try (DataExchangeSource src = DataExchangeSource.open(h5)) {
            VolumeReconstructor.run(src, p, (row, px, w, h) -> m.put(row, px.toArray()), null, null);
        }
        return m;
    }

    public static synchronized SparkContext spark() {
        if (sc == null) {
            SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("tomospark-test")
                    .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
                    .set("spark.ui.enabled", "false").set("spark.kryo.registrationRequired", "true");
            TomoKryoRegistrator.configure(conf);
            sc = new SparkContext(conf);
            Runtime.getRuntime().addShutdownHook(new Thread(sc::stop));
        }
        return sc;
    }

    public static SparkJobSpec spec(String input, String output) {
        return SparkJobSpec.of(input, output, params()).withSpark(SparkOptions.defaults().withProgress(false));
    }

    /** Reads every slice_NNNNN.tif of an output directory. */
    public static Map<Integer, float[]> readSlices(String output, Configuration conf) {
        Map<Integer, float[]> m = new TreeMap<>();
        try {
            Path dir = new Path(output);
            FileSystem fs = dir.getFileSystem(conf);
            for (FileStatus st : fs.listStatus(dir)) {
                var mt = SliceWriter.SLICE_NAME.matcher(st.getPath().getName());
                if (!mt.matches()) continue;
                try (var in = fs.open(st.getPath())) {
                    m.put(Integer.parseInt(mt.group(1)), FloatTiff.read(in).pixels());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }

    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    public static List<String> sliceFiles(java.nio.file.Path dir) {
        List<String> l = new ArrayList<>();
        if (!Files.isDirectory(dir)) return l;
        try (var s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("slice_")).forEach(l::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return l;
    }

    /** Every slice present and bit-identical (same float bits) to the reference. */
    public static void assertBitIdentical(Map<Integer, float[]> expected, Map<Integer, float[]> actual) {
        assertEquals(expected.keySet(), actual.keySet(), "slice rows");
        for (var e : expected.entrySet()) {
            float[] a = actual.get(e.getKey());
            assertEquals(e.getValue().length, a.length, "slice " + e.getKey() + " size");
            int[] ea = new int[a.length], aa = new int[a.length];
            for (int i = 0; i < a.length; i++) {
                ea[i] = Float.floatToRawIntBits(e.getValue()[i]);
                aa[i] = Float.floatToRawIntBits(a[i]);
            }
            assertArrayEquals(ea, aa, "slice " + e.getKey() + " differs from the single-machine reconstruction");
        }
        assertTrue(expected.size() > 0);
    }
}
