package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.inputs.FacilityScans;
import org.tomospark.executor.inputs.LayoutScans;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.ReadOptions;
import org.tomospark.executor.inputs.ReadPath;
import org.tomospark.job.ExitCode;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.BatchReport;
import org.tomospark.job.batch.ScanOutcome;
import org.tomospark.job.batch.ScanStatus;
import org.tomospark.job.inputs.InputOptions;
import org.tomospark.job.inputs.Inputs;
import org.tomospark.job.fs.Json;
import org.tomospark.job.inputs.RawBinarySource;
import org.tomospark.job.outputs.OutputBusyException;
import org.tomospark.job.outputs.OutputLock;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Input read from and output written to a real in-process HDFS on 127.0.0.1. */
class HdfsTest {
    static MiniDFSCluster dfs;
    static Configuration conf;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, TestScans.tmp("minidfs").toString());
        MiniHdfs.onLoopback(conf);
        conf.setBoolean("dfs.permissions.enabled", true);
        // the client waits for the namenode to see each closed block; poll every 20 ms instead of 400 ms
        conf.set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
        TestScans.spark().hadoopConfiguration().set("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
        dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        dfs.waitActive();
        base = "hdfs://127.0.0.1:" + dfs.getNameNodePort();
    }

    @AfterAll
    static void stop() {
        if (dfs != null) dfs.shutdown();
    }

    @Test
    @Timeout(180)
    void readsAndWritesHdfs() throws Exception {
        FileSystem fs = FileSystem.get(URI.create(base), conf);
        fs.copyFromLocalFile(new Path(TestScans.hdf5().toUri()), new Path(base + "/scans/phantom.h5"));
        String in = base + "/scans/phantom.h5", out = base + "/rec/phantom";
        SparkReconstruction.Result r = SparkReconstruction.run(TestScans.spark(),
                TestScans.spec(in, out).withParams(TestScans.params().toBuilder().groupRows(4).build()), null);
        System.err.print(r.summary());
        assertEquals(16, r.slicesComputed());
        assertEquals(4, r.groups().size());
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out, conf));
        assertTrue(fs.exists(new Path(out, "_SUCCESS")));
        assertFalse(fs.exists(new Path(out, "_temporary")));
        Map<String, Object> man;
        try (var s = fs.open(new Path(out, "manifest.json"))) {
            man = Json.read(s.readAllBytes(), "manifest");
        }
        @SuppressWarnings("unchecked") Map<String, Object> id = (Map<String, Object>) man.get("input");
        assertTrue(String.valueOf(id.get("files")).contains("hdfs://127.0.0.1:"), String.valueOf(id));
        assertTrue(String.valueOf(id.get("files")).contains("length=" + fs.getFileStatus(new Path(in)).getLen()), String.valueOf(id));

        // a TIFF stack on HDFS too
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        java.nio.file.Path tiffs = TestScans.tmp("hdfs-tiffs");
        TestScans.DATA.writeTiffStack(tiffs);
        fs.copyFromLocalFile(false, true, new Path(tiffs.toUri()), new Path(base + "/scans/tiffs"));
        String outT = base + "/rec/tiffs";
        SparkReconstruction.run(TestScans.spark(), TestScans.spec(base + "/scans/tiffs", outT), null);
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(outT, conf));

        // a missing HDFS input and an HDFS output the user may not write fail before any slice
        RuntimeException e = Assertions.assertThrows(RuntimeException.class, () -> SparkReconstruction.run(
                TestScans.spark(), TestScans.spec(base + "/scans/missing.h5", base + "/rec/x"), null));
        assertTrue(e.getMessage().contains(base + "/scans/missing.h5") && e.getMessage().contains("not found"), e.getMessage());
        assertFalse(fs.exists(new Path(base + "/rec/x")));
    }

    /** Bands read by parallel positioned reads from files of several HDFS blocks, as their writer (h5py, numpy) wrote them. */
    @Test
    @Timeout(120)
    void bandsReadInParallelAcrossBlocks() throws Exception {
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        java.nio.file.Path scans = LayoutScans.write(TestScans.tmp("layouts"));
        FileSystem fs = FileSystem.get(URI.create(base), conf);
        int n = LayoutScans.N, rows = LayoutScans.R, w = LayoutScans.W;
        for (String file : List.of("u16_be_contiguous.h5", "f32_le_contiguous.h5", "u16_le_chunk_4x5x100_gzip.h5", "u16_be.raw")) {
            String uri = base + "/layouts/" + file;
            try (FSDataOutputStream out = fs.create(new Path(uri), true, 1 << 16, (short) 1, 1 << 20)) { // 1 MiB blocks
                out.write(Files.readAllBytes(scans.resolve(file)));
            }
            try (ProjectionSource src = file.endsWith(".raw")
                    ? RawBinarySource.open(uri, InputOptions.raw(n, rows, w, "uint16", true, 64, "", "", ""), conf, ReadOptions.threads(4))
                    : Inputs.openHdf5(uri, conf, ReadOptions.threads(4))) {
                if (src instanceof DataExchangeSource dx)
                    assertEquals(file.contains("chunk") ? ReadPath.CHUNKED : ReadPath.CONTIGUOUS, dx.readPath(DataExchangeSource.DATA));
                for (int[] band : new int[][]{{0, rows}, {5, 3}, {rows - 1, 1}}) {
                    var s = src.readProjections(band[0], band[1]);
                    if (file.startsWith("u16"))
                        assertArrayEquals(LayoutScans.u16Band(0, n, band[0], band[1], w), s.uint16Data(), file);
                    else assertArrayEquals(LayoutScans.f32Band(0, n, band[0], band[1], w), s.floatData(), file);
                }
            }
        }
    }

    /** A batch over an HDFS glob, with its table on HDFS: each scan committed there, then nothing to do. */
    @Test
    @Timeout(240)
    void reprocessesAnHdfsGlob() throws Exception {
        FileSystem fs = FileSystem.get(URI.create(base), conf);
        Path local = new Path(TestScans.hdf5().toUri());
        fs.copyFromLocalFile(local, new Path(base + "/beamline/2026-01/scan_a.h5"));
        fs.copyFromLocalFile(local, new Path(base + "/beamline/2026-02/scan_b.h5"));
        fs.copyFromLocalFile(local, new Path(base + "/beamline/2026-02/other.h5"));
        try (FSDataOutputStream t = fs.create(new Path(base + "/beamline/table.csv"))) {
            t.write("file,group.rows\nscan_b.h5,4\n".getBytes(StandardCharsets.UTF_8));
        }
        String root = base + "/rec-batch";
        List<String> scans = List.of(base + "/beamline/2026-*/scan_*.h5");
        BatchReport first = ReprocessTest.reprocess(root, scans, System.out, BatchKeys.TABLE.name(), base + "/beamline/table.csv");
        assertEquals(ExitCode.OK, first.exitCode(), first.table());
        assertEquals(List.of("scan_a", "scan_b"), first.scans().stream().map(o -> o.scan().name()).toList());
        for (ScanOutcome o : first.scans()) {
            assertEquals(ScanStatus.RECONSTRUCTED, o.status(), o.toString());
            TestScans.assertBitIdentical(TestScans.reference(),
                    TestScans.readSlices(root + "/" + o.scan().name(), conf));
        }
        Map<String, Object> report;
        try (var s = fs.open(new Path(root + "/scan_b/report.json"))) {
            report = Json.read(s.readAllBytes(), "report");
        }
        assertEquals("4", ((Map<?, ?>) report.get("settings")).get("group.rows"), "the table's row reached scan_b");
        assertTrue(fs.exists(new Path(root, "batch-report.json")));
        assertFalse(fs.exists(new Path(root, "_lock")));
        BatchReport again = ReprocessTest.reprocess(root, scans, System.out, BatchKeys.TABLE.name(), base + "/beamline/table.csv");
        assertEquals(List.of(ScanStatus.SKIPPED, ScanStatus.SKIPPED),
                again.scans().stream().map(ScanOutcome::status).toList());
    }

    /**
     * Two batches started at once on one output root on HDFS: the first claims the root (its lock file made with HDFS's
     * exclusive create) and proceeds; the second is refused naming the lock, and writes nothing.
     */
    @Test
    @Timeout(180)
    void twoBatchesAtOnceOnOneHdfsRootRefuseEachOther() throws Exception {
        FileSystem fs = FileSystem.get(URI.create(base), conf);
        fs.copyFromLocalFile(new Path(TestScans.hdf5().toUri()), new Path(base + "/locked/scan_l.h5"));
        String root = base + "/rec-locked";
        List<String> scans = List.of(base + "/locked/scan_l.h5");
        CompletableFuture<BatchReport> first = CompletableFuture.supplyAsync(
                () -> ReprocessTest.reprocess(root, scans, System.out, "job.test.taskDelayMs", "3000"));
        long deadline = System.currentTimeMillis() + 60_000;
        while (!fs.exists(new Path(root, OutputLock.NAME)) && !first.isDone()) {
            assertTrue(System.currentTimeMillis() < deadline, "the first batch never claimed the root");
            Thread.sleep(10);
        }
        assertFalse(first.isDone(), "the first batch ended before the second could start");
        OutputBusyException refused = assertThrows(OutputBusyException.class,
                () -> ReprocessTest.reprocess(root, scans, System.out));
        assertTrue(refused.getMessage().contains(OutputLock.NAME) && refused.getMessage().contains("in use by another run"),
                refused.getMessage());
        BatchReport r = first.get(120, TimeUnit.SECONDS);
        assertEquals(ExitCode.OK, r.exitCode(), r.table());
        assertEquals(List.of("batch-report.json", "scan_l"), Arrays.stream(fs.listStatus(new Path(root)))
                .map(f -> f.getPath().getName()).sorted().toList(), "the refused batch wrote nothing; the first gave up its claim");
    }

    /**
     * A virtual dataset over camera files, copied with them to HDFS: the sources are found next to it through the
     * Hadoop FileSystem, and every band equals the contiguous file's; a missing source file is refused naming its
     * hdfs:// path.
     */
    @Test
    @Timeout(180)
    void virtualDatasetsFindTheirSourcesOnHdfs() throws Exception {
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's meet here
        java.nio.file.Path local = FacilityScans.write(TestScans.tmp("facility-hdfs"));
        FileSystem fs = FileSystem.get(URI.create(base), conf);
        for (String f : List.of("vds.h5", "vds_src", "vds_missing.h5", "vds_missing_src"))
            fs.copyFromLocalFile(new Path(local.resolve(f).toUri()), new Path(base + "/beamline/" + f));
        try (ProjectionSource vds = Inputs.openHdf5(base + "/beamline/vds.h5", conf, ReadOptions.threads(2));
             ProjectionSource plain = DataExchangeSource.open(local.resolve("contiguous.h5"))) {
            assertEquals(ReadPath.VIRTUAL, ((DataExchangeSource) vds).readPath(DataExchangeSource.DATA));
            for (int[] b : LayoutScans.bands(FacilityScans.R)) {
                assertArrayEquals(plain.readProjections(b[0], b[1]).uint16Data(), vds.readProjections(b[0],
                        b[1]).uint16Data());
                assertArrayEquals(plain.readFlats(b[0], b[1]).uint16Data(), vds.readFlats(b[0], b[1]).uint16Data());
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Inputs.openHdf5(base + "/beamline/vds_missing.h5", conf, ReadOptions.threads(2)).close());
        assertTrue(e.getMessage().contains(base + "/beamline/vds_missing_src/segment_2.h5"), e.getMessage());
    }
}
