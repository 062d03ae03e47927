package org.tomospark.job.inputs;

import org.tomospark.job.fs.HadoopConf;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.inputs.ContiguousBandReader;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.inputs.FileChannelRangeReader;
import org.tomospark.executor.inputs.LayoutScans;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.RangeReader;
import org.tomospark.executor.inputs.ReadOptions;
import org.tomospark.executor.inputs.ReadPath;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.preprocess.RawStack;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tomospark.executor.inputs.LayoutScans.DARK0;
import static org.tomospark.executor.inputs.LayoutScans.FLAT0;
import static org.tomospark.executor.inputs.LayoutScans.N;
import static org.tomospark.executor.inputs.LayoutScans.R;
import static org.tomospark.executor.inputs.LayoutScans.W;
import static org.tomospark.executor.inputs.LayoutScans.bands;
import static org.tomospark.executor.inputs.LayoutScans.f32Band;
import static org.tomospark.executor.inputs.LayoutScans.u16Band;

/**
 * The band readers as spark-job opens files (file:// here; HdfsTest reads from HDFS), and over Hadoop's positioned
 * reads: DataExchange files of h5py and raw files of numpy, against the values their writer put there, on one thread
 * and on several.
 */
class HadoopReadTest {
    @TempDir
    static Path tmp;
    static Path scans;
    static final Configuration CONF = HadoopConf.create();

    @BeforeAll
    static void writeScans() throws Exception {
        scans = LayoutScans.write(Files.createDirectories(tmp.resolve("scans")));
    }

    @Test
    void hdf5BandsThroughHadoopStreams() {
        for (String file : List.of("u16_le_contiguous.h5", "u16_be_contiguous.h5", "f32_be_contiguous.h5", "u16_le_contiguous_userblock.h5",
                "f32_le_chunk_4x5x100_gzip.h5", "u16_be_chunk_1x13x333_gzip.h5"))
            for (int threads : new int[]{1, 3})
                try (ProjectionSource src = Inputs.openHdf5(scans.resolve(file).toString(), CONF, ReadOptions.threads(threads))) {
                    ReadPath expected = file.contains("contiguous") ? ReadPath.CONTIGUOUS : ReadPath.CHUNKED;
                    assertEquals(expected, ((DataExchangeSource) src).readPath(DataExchangeSource.DATA), file);
                    checkBands(src, file + ", " + threads + " threads");
                }
    }

    /** Hadoop's own positioned reads, as on HDFS, against the same values; file:// without checksums reads through a FileChannel. */
    @Test
    void hadoopPositionedReadsGiveTheSameBands() throws Exception {
        for (String file : List.of("u16_be_contiguous.h5", "f32_le_contiguous.h5", "u16_le.raw"))
            for (int threads : new int[]{1, 3}) {
                Path f = scans.resolve(file);
                // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
                org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(f.toUri());
                FileSystem fs = p.getFileSystem(CONF);
                assertInstanceOf(FileChannelRangeReader.class, RangeReaders.open(fs, p, Files.size(f), file));
                try (LocalFileSystem checksummed = FileSystem.newInstanceLocal(new Configuration());
                     RangeReader ranges = RangeReaders.open(checksummed, p, Files.size(f), file)) {
                    assertInstanceOf(HadoopRangeReader.class, ranges);
                }
                if (file.endsWith(".raw")) {
                    try (RangeReader ranges = new HadoopRangeReader(fs.open(p), Files.size(f), file)) {
                        RawStack s = new ContiguousBandReader(ranges, file, 64, N, R, W, ScanMetadata.SampleType.UINT16,
                                ByteOrder.LITTLE_ENDIAN, threads).read(2, 9);
                        assertArrayEquals(u16Band(0, N, 2, 9, W), s.uint16Data(), file);
                    }
                    continue;
                }
                HadoopSeekableChannel ch = new HadoopSeekableChannel(fs.open(p), Files.size(f), file);
                try (ProjectionSource src = DataExchangeSource.open(ch, new HadoopRangeReader(fs.open(p), Files.size(f), file), file,
                        ReadOptions.threads(threads))) {
                    checkBands(src, file + " through Hadoop's positioned reads, " + threads + " threads");
                }
            }
    }

    @Test
    void hadoopReadsPastTheEndNameTheFile() throws Exception {
        Path f = tmp.resolve("short.bin");
        Files.write(f, new byte[100]);
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(f.toUri());
        try (HadoopRangeReader r = new HadoopRangeReader(p.getFileSystem(CONF).open(p), 100, "hdfs://nn/short.bin")) {
            EOFException e = assertThrows(EOFException.class, () -> r.readFully(90, ByteBuffer.allocate(20)));
            assertEquals("hdfs://nn/short.bin: unexpected end of file at byte 100 (a read needs bytes 90..109); truncated?",
                    e.getMessage());
        }
        try (HadoopRangeReader r = new HadoopRangeReader(p.getFileSystem(CONF).open(p), 200, "hdfs://nn/short.bin")) {
            EOFException e = assertThrows(EOFException.class, () -> r.readFully(90, ByteBuffer.allocate(20)));
            assertTrue(e.getMessage().startsWith("hdfs://nn/short.bin: unexpected end of file reading bytes 90..109"), e.getMessage());
        }
    }

    @Test
    void rawFilesInEitherByteOrder() {
        for (String kind : List.of("u16", "f32"))
            for (String order : List.of("le", "be"))
                for (int threads : new int[]{1, 3}) {
                    String stem = scans.resolve(kind + "_" + order).toString();
                    InputOptions o = InputOptions.raw(N, R, W, kind.equals("u16") ? "uint16" : "float32", order.equals("be"), 64,
                            stem + "_flats.raw", stem + "_darks.raw", "");
                    try (ProjectionSource src = RawBinarySource.open(stem + ".raw", o, CONF, ReadOptions.threads(threads))) {
                        checkBands(src, stem + ", " + threads + " threads");
                    }
                }
    }

    @Test
    void rawFileCutShortAfterOpeningIsAnErrorNamingIt() throws Exception {
        Path f = tmp.resolve("cut.raw");
        Files.copy(scans.resolve("u16_le.raw"), f);
        InputOptions o = InputOptions.raw(N, R, W, "uint16", false, 64, "", "", "");
        try (ProjectionSource src = RawBinarySource.open(f.toString(), o, CONF, ReadOptions.threads(3))) {
            assertArrayEquals(u16Band(0, N, 2, 3, W), src.readProjections(2, 3).uint16Data());
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.truncate(ch.size() - 2);
            }
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> src.readProjections(2, 11));
            assertTrue(e.getMessage().contains(f + ": cannot read rows 2..12") && e.getMessage().contains("unexpected end of file"),
                    e.getMessage());
            assertInstanceOf(EOFException.class, e.getCause());
        }
    }

    /** Every band of LayoutScans.bands, of the projections, flats and darks, against the writer's formula. */
    private static void checkBands(ProjectionSource src, String what) {
        for (int[] band : bands(R)) {
            String w = what + " rows " + band[0] + ".." + (band[0] + band[1] - 1);
            check(src.readProjections(band[0], band[1]), 0, N, band, "data of " + w);
            check(src.readFlats(band[0], band[1]), FLAT0, 4, band, "flats of " + w);
            check(src.readDarks(band[0], band[1]), DARK0, 2, band, "darks of " + w);
        }
    }

    private static void check(RawStack s, int p0, int frames, int[] band, String what) {
        assertEquals(frames, s.frames(), what);
        if (s.isUint16()) assertArrayEquals(u16Band(p0, frames, band[0], band[1], W), s.uint16Data(), what);
        else assertArrayEquals(f32Band(p0, frames, band[0], band[1], W), s.floatData(), what);
    }
}
