package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.DatasetCreationOptions;
import io.jhdf.api.WritableGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.preprocess.RawStack;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tomospark.executor.inputs.DataExchangeSource.DARK;
import static org.tomospark.executor.inputs.DataExchangeSource.DATA;
import static org.tomospark.executor.inputs.DataExchangeSource.WHITE;
import static org.tomospark.executor.inputs.LayoutScans.DARK0;
import static org.tomospark.executor.inputs.LayoutScans.FLAT0;
import static org.tomospark.executor.inputs.LayoutScans.N;
import static org.tomospark.executor.inputs.LayoutScans.R;
import static org.tomospark.executor.inputs.LayoutScans.W;
import static org.tomospark.executor.inputs.LayoutScans.bands;
import static org.tomospark.executor.inputs.LayoutScans.f32;
import static org.tomospark.executor.inputs.LayoutScans.f32Band;
import static org.tomospark.executor.inputs.LayoutScans.u16;
import static org.tomospark.executor.inputs.LayoutScans.u16Band;

/**
 * The direct band readers against the values the writer put there (the formula of {@link LayoutScans}) and against
 * the general hyperslab reader, for every storage layout, byte order and sample type, bands at the start, middle and
 * end, one row and every row, on one thread and on several.
 */
class DirectBandReadTest {
    @TempDir
    static Path tmp;
    static Path scans;

    @BeforeAll
    static void writeScans() throws Exception {
        scans = LayoutScans.write(Files.createDirectories(tmp.resolve("h5py")));
    }

    static List<String> h5pyFiles() {
        List<String> files = new ArrayList<>();
        for (String kind : List.of("u16", "f32"))
            for (String order : List.of("le", "be")) {
                files.add(kind + "_" + order + "_contiguous.h5");
                for (String chunks : List.of("1x13x333", "4x5x100", "7x13x64", "181x1x333"))
                    for (String filter : List.of("none", "gzip"))
                        files.add(kind + "_" + order + "_chunk_" + chunks + "_" + filter + ".h5");
            }
        files.addAll(List.of("u16_le_contiguous_userblock.h5", "u16_le_chunk_4x5x100_gzip_shuffle.h5",
                "f32_le_chunk_4x5x100_gzip_shuffle.h5", "u16_le_chunk_4x5x100_lzf.h5", "u16_le_chunk_4x5x100_fletcher32.h5",
                "u16_le_latest_chunk_4x5x100_gzip.h5", "u16_le_growable_chunk_4x5x100_gzip.h5"));
        return files;
    }

    @ParameterizedTest
    @MethodSource("h5pyFiles")
    void h5pyScansReadDirectlyAsWritten(String file) throws Exception {
        Path f = scans.resolve(file);
        ReadPath path = file.contains("_contiguous") ? ReadPath.CONTIGUOUS : ReadPath.CHUNKED;
        checkEveryBand(f, path, ReadPath.CONTIGUOUS);
    }

    @Test
    void compactLayoutTakesJhdfsPath() throws Exception {
        checkEveryBand(scans.resolve("u16_le_compact.h5"), ReadPath.HYPERSLAB, ReadPath.HYPERSLAB);
    }

    /**
     * A chunked dataset with chunks never written: HDF5 leaves them out of the file, and they read as the fill value
     * (zero here: h5py's default), through the direct path as through the hyperslab path.
     */
    @Test
    void chunksNeverWrittenReadAsTheFillValue() {
        Path f = scans.resolve("u16_le_sparse_chunk_8x4x64.h5");
        try (DataExchangeSource slab = DataExchangeSource.open(f, ReadOptions.hyperslab());
             DataExchangeSource direct = DataExchangeSource.open(f, ReadOptions.threads(3))) {
            assertEquals(ReadPath.CHUNKED, direct.readPath(DATA));
            RawStack a = direct.readProjections(2, 5), ref = slab.readProjections(2, 5);
            assertArrayEquals(ref.uint16Data(), a.uint16Data());
            short[] written = u16Band(0, 8, 2, 5, W);
            assertArrayEquals(written, Arrays.copyOf(a.uint16Data(), written.length));
            for (int i = written.length; i < a.uint16Data().length; i++) assertEquals(0, a.uint16Data()[i]);
        }
    }

    /** jhdf as the writer: contiguous and chunked (deflate, shuffle), uint16 and float32. */
    @Test
    void jhdfScansReadDirectlyAsWritten() throws Exception {
        DatasetCreationOptions u16 = DatasetCreationOptions.builder().unsigned().build();
        DatasetCreationOptions u16Chunked = DatasetCreationOptions.builder().unsigned().chunkDimensions(5, 4, 50).shuffle().deflate()
                .build();
        DatasetCreationOptions f32Chunked = DatasetCreationOptions.builder().chunkDimensions(1, R, W).deflate().build();
        Path u16File = writeJhdf("jhdf-u16.h5", u16Array(0, N), u16, DatasetCreationOptions.DEFAULT);
        Path u16ChunkFile = writeJhdf("jhdf-u16_chunk_5x4x50_deflate_shuffle.h5", u16Array(0, N), u16Chunked, u16);
        Path f32File = writeJhdf("jhdf-f32.h5", f32Array(0, N), DatasetCreationOptions.DEFAULT, DatasetCreationOptions.DEFAULT);
        Path f32ChunkFile = writeJhdf("jhdf-f32_chunk_1x13x333_deflate.h5", f32Array(0, N), f32Chunked, DatasetCreationOptions.DEFAULT);
        checkEveryBand(u16File, ReadPath.CONTIGUOUS, ReadPath.CONTIGUOUS);
        checkEveryBand(u16ChunkFile, ReadPath.CHUNKED, ReadPath.CONTIGUOUS);
        checkEveryBand(f32File, ReadPath.CONTIGUOUS, ReadPath.CONTIGUOUS);
        checkEveryBand(f32ChunkFile, ReadPath.CHUNKED, ReadPath.CONTIGUOUS);
    }

    /** Over a channel that is not a FileChannel, jhdf's adapter serves the reads one at a time: the same values. */
    @Test
    void anyChannelReadsTheSameValues() throws Exception {
        Path f = scans.resolve("f32_be_contiguous.h5");
        try (FileChannel fc = FileChannel.open(f, StandardOpenOption.READ);
             DataExchangeSource src = DataExchangeSource.open(new PlainChannel(fc), "remote:f32_be_contiguous.h5",
                     ReadOptions.threads(3))) {
            assertEquals(ReadPath.CONTIGUOUS, src.readPath(DATA));
            assertArrayEquals(f32Band(0, N, 4, 7, W), src.readProjections(4, 7).floatData());
            assertArrayEquals(f32Band(FLAT0, 4, 0, R, W), src.readFlats(0, R).floatData());
        }
    }

    /** The metadata says more bytes than the reads find (a file cut short after it was opened): an error naming it. */
    @Test
    void shortReadIsAnErrorNamingTheFile() throws Exception {
        Path f = scans.resolve("u16_le_contiguous.h5");
        Path cut = tmp.resolve("cut-" + System.nanoTime() + ".h5");
        byte[] all = Files.readAllBytes(f);
        Files.write(cut, Arrays.copyOf(all, all.length / 2)); // the data are most of the file
        try (FileChannel fc = FileChannel.open(f, StandardOpenOption.READ);
             DataExchangeSource whole = DataExchangeSource.open(fc, FileChannelRangeReader.open(f), "scan.h5", ReadOptions.threads(2));
             DataExchangeSource src = DataExchangeSource.open(fc, FileChannelRangeReader.open(cut), "scan.h5", ReadOptions.threads(2))) {
            assertArrayEquals(u16Band(0, N, 0, R, W), whole.readProjections(0, R).uint16Data());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> src.readProjections(0, R));
            assertTrue(e.getMessage().startsWith("scan.h5: cannot read rows 0..12 of /exchange/data"), e.getMessage());
            assertInstanceOf(EOFException.class, e.getCause());
            assertTrue(e.getMessage().contains(cut + ": unexpected end of file at byte"), e.getMessage());
        }
    }

    /**
     * A file with a user block before its HDF5 data (here 512 bytes) opens: its superblock's end-of-file address counts
     * from the start of the file. The same file cut short is still refused.
     */
    @Test
    void userBlockFilesOpenAndCutOnesAreRefused() throws Exception {
        Path f = scans.resolve("u16_le_contiguous_userblock.h5");
        try (DataExchangeSource src = DataExchangeSource.open(f)) {
            assertArrayEquals(u16Band(0, N, 3, 2, W), src.readProjections(3, 2).uint16Data());
        }
        byte[] all = Files.readAllBytes(f);
        Path cut = tmp.resolve("cut-userblock.h5");
        Files.write(cut, Arrays.copyOf(all, all.length - 100));
        String m = assertThrows(IllegalArgumentException.class, () -> DataExchangeSource.open(cut).close()).getMessage();
        assertEquals(cut + ": truncated HDF5 file: it has " + (all.length - 100) + " bytes but its superblock says it ends at byte "
                + all.length + " (100 bytes missing); copy the file again", m);
    }

    /** Pieces smaller than a row and not aligned to rows or frames, over raw bytes written by hand. */
    @Test
    void piecesOfAnySizeMakeTheSameBand() throws Exception {
        int frames = 5, rows = 6, width = 7;
        for (ScanMetadata.SampleType type : ScanMetadata.SampleType.values())
            for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
                int bytes = type == ScanMetadata.SampleType.UINT16 ? 2 : 4;
                ByteBuffer b = ByteBuffer.allocate(13 + frames * rows * width * bytes).order(order);
                b.position(13);
                for (int p = 0; p < frames; p++)
                    for (int r = 0; r < rows; r++)
                        for (int c = 0; c < width; c++)
                            if (bytes == 2) b.putShort(LayoutScans.u16(p, r, c));
                            else b.putFloat(LayoutScans.f32(p, r, c));
                Path f = tmp.resolve("pieces-" + type + order + ".raw");
                Files.write(f, b.array());
                try (FileChannelRangeReader ranges = FileChannelRangeReader.open(f)) {
                    for (int piece : new int[]{4, 12, 20, 44, 1 << 20})
                        for (int threads : new int[]{1, 3})
                            for (int[] band : bands(rows)) {
                                RawStack s = new ContiguousBandReader(ranges, f.toString(), 13, frames, rows, width, type, order,
                                        threads, piece).read(band[0], band[1]);
                                String what = type + " " + order + " piece " + piece + " threads " + threads + " rows "
                                        + Arrays.toString(band);
                                if (bytes == 2) assertArrayEquals(u16Band(0, frames, band[0], band[1], width), s.uint16Data(), what);
                                else assertArrayEquals(f32Band(0, frames, band[0], band[1], width), s.floatData(), what);
                            }
                }
            }
    }

    private static void checkEveryBand(Path f, ReadPath dataPath, ReadPath framesPath) throws IOException {
        try (DataExchangeSource slab = DataExchangeSource.open(f, ReadOptions.hyperslab());
             DataExchangeSource one = DataExchangeSource.open(f, ReadOptions.threads(1));
             DataExchangeSource several = DataExchangeSource.open(f, ReadOptions.threads(3))) {
            assertEquals(ReadPath.HYPERSLAB, slab.readPath(DATA));
            for (DataExchangeSource s : List.of(one, several)) {
                assertEquals(dataPath, s.readPath(DATA), f::toString);
                assertEquals(framesPath, s.readPath(WHITE), f::toString);
                assertEquals(framesPath, s.readPath(DARK), f::toString);
            }
            ScanMetadata m = one.metadata();
            for (int[] band : bands(m.rows()))
                for (String ds : List.of(DATA, WHITE, DARK)) {
                    int p0 = ds.equals(DATA) ? 0 : ds.equals(WHITE) ? FLAT0 : DARK0;
                    RawStack ref = read(slab, ds, band);
                    String what = f.getFileName() + " " + ds + " rows " + band[0] + ".." + (band[0] + band[1] - 1);
                    if (m.sampleType() == ScanMetadata.SampleType.UINT16) {
                        short[] written = u16Band(p0, ref.frames(), band[0], band[1], m.width());
                        assertArrayEquals(written, ref.uint16Data(), "jhdf " + what);
                        assertArrayEquals(written, read(one, ds, band).uint16Data(), "1 thread " + what);
                        assertArrayEquals(written, read(several, ds, band).uint16Data(), "3 threads " + what);
                    } else {
                        float[] written = f32Band(p0, ref.frames(), band[0], band[1], m.width());
                        assertArrayEquals(written, ref.floatData(), "jhdf " + what);
                        assertArrayEquals(written, read(one, ds, band).floatData(), "1 thread " + what);
                        assertArrayEquals(written, read(several, ds, band).floatData(), "3 threads " + what);
                    }
                }
            String name = f.getFileName().toString();
            int chunkRows = name.contains("_chunk_") ? Integer.parseInt(name.replaceAll(".*_chunk_\\d+x(\\d+)x.*", "$1")) : 1;
            assertEquals(chunkRows, one.dataChunkRows(), name);
        }
    }

    private static RawStack read(DataExchangeSource s, String ds, int[] band) {
        return switch (ds) {
            case DATA -> s.readProjections(band[0], band[1]);
            case WHITE -> s.readFlats(band[0], band[1]);
            default -> s.readDarks(band[0], band[1]);
        };
    }

    private Path writeJhdf(String name, Object data, DatasetCreationOptions dataOptions, DatasetCreationOptions frameOptions) {
        Path f = tmp.resolve(name);
        boolean u16 = data instanceof short[][][];
        try (WritableHdfFile w = HdfFile.write(f)) {
            WritableGroup ex = w.putGroup("exchange");
            ex.putDataset("data", data, dataOptions);
            ex.putDataset("data_white", u16 ? u16Array(FLAT0, 4) : f32Array(FLAT0, 4), frameOptions);
            ex.putDataset("data_dark", u16 ? u16Array(DARK0, 2) : f32Array(DARK0, 2), frameOptions);
            double[] theta = new double[N];
            for (int i = 0; i < N; i++) theta[i] = i * 180.0 / N;
            ex.putDataset("theta", theta);
        }
        return f;
    }

    private static short[][][] u16Array(int p0, int frames) {
        short[][][] a = new short[frames][R][W];
        for (int p = 0; p < frames; p++)
            for (int r = 0; r < R; r++)
                for (int c = 0; c < W; c++) a[p][r][c] = u16(p0 + p, r, c);
        return a;
    }

    private static float[][][] f32Array(int p0, int frames) {
        float[][][] a = new float[frames][R][W];
        for (int p = 0; p < frames; p++)
            for (int r = 0; r < R; r++)
                for (int c = 0; c < W; c++) a[p][r][c] = f32(p0 + p, r, c);
        return a;
    }

    /** A SeekableByteChannel that is not a FileChannel, as a remote file's channel would be. */
    private record PlainChannel(FileChannel fc) implements SeekableByteChannel {
        @Override
        public int read(ByteBuffer dst) throws IOException {
            return fc.read(dst);
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long position() throws IOException {
            return fc.position();
        }

        @Override
        public SeekableByteChannel position(long p) throws IOException {
            fc.position(p);
            return this;
        }

        @Override
        public long size() throws IOException {
            return fc.size();
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOpen() {
            return fc.isOpen();
        }

        @Override
        public void close() {
        }
    }
}
