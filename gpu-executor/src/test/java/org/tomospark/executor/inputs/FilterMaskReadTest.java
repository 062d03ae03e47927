package org.tomospark.executor.inputs;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tomospark.executor.inputs.DataExchangeSource.DARK;
import static org.tomospark.executor.inputs.DataExchangeSource.DATA;
import static org.tomospark.executor.inputs.DataExchangeSource.WHITE;
import static org.tomospark.executor.inputs.FilterMaskScans.DARKS;
import static org.tomospark.executor.inputs.FilterMaskScans.FLATS;
import static org.tomospark.executor.inputs.FilterMaskScans.N;
import static org.tomospark.executor.inputs.FilterMaskScans.R;
import static org.tomospark.executor.inputs.FilterMaskScans.W;
import static org.tomospark.executor.inputs.FilterMaskScans.bands;

/**
 * Chunked scans whose chunks were not all filtered alike (each chunk's HDF5 filter mask says which filters of the
 * pipeline were left out for it), and chunked scans with chunks never written, read band by band through
 * {@link DataExchangeSource} and {@link NxTomoSource}: on several threads, on one, and through the hyperslab path,
 * they must read sample for sample as the same scan stored contiguous, flats, darks and angles included.
 */
class FilterMaskReadTest {
    private static final List<ReadOptions> OPTIONS = List.of(ReadOptions.threads(4), ReadOptions.threads(1),
            ReadOptions.hyperslab());

    @TempDir
    static Path tmp;
    static Path scans;

    @BeforeAll
    static void writeScans() throws Exception {
        scans = FilterMaskScans.write(Files.createDirectories(tmp.resolve("masks")));
    }

    static List<String> masked() {
        return FilterMaskScans.MASKED;
    }

    @ParameterizedTest
    @MethodSource("masked")
    void maskedChunksReadAsTheContiguousScan(String layout) {
        sameScan(layout + ".h5", "contiguous.h5");
    }

    /** The chunks never written read as the dataset's fill value (77; -1.5 in the float32 scan), not as zeros. */
    @ParameterizedTest
    @ValueSource(strings = {"sparse_fill", "sparse_fill_latest"})
    void chunksNeverWrittenReadAsTheFillValue(String layout) {
        sameScan(layout + ".h5", "sparse_expected.h5");
        try (DataExchangeSource s = DataExchangeSource.open(scans.resolve(layout + ".h5"))) {
            RawStack band = s.readProjections(R - 1, 1);
            assertEquals(77, Short.toUnsignedInt(band.uint16Data()[W + W - 1]), "frame 1's last sample");
        }
    }

    @Test
    void floatChunksNeverWrittenReadAsTheFillValue() {
        sameScan("sparse_f32.h5", "sparse_f32_expected.h5");
        try (DataExchangeSource s = DataExchangeSource.open(scans.resolve("sparse_f32.h5"))) {
            assertEquals(-1.5f, s.readProjections(R - 1, 1).get(1, 0, W - 1));
        }
    }

    @Test
    void nxtomoFramesKeysAndAnglesInMaskedChunks() throws IOException {
        for (ReadOptions options : OPTIONS)
            try (NxTomoSource masked = nxtomo("nxtomo_masked.nxs", options);
                 NxTomoSource plain = nxtomo("nxtomo_contiguous.nxs", options)) {
                assertEquals(List.of(N, FLATS + 1, DARKS), List.of(masked.metadata().numProjections(),
                        masked.metadata().numFlats(), masked.metadata().numDarks()));
                assertArrayEquals(plain.metadata().anglesDeg(), masked.metadata().anglesDeg(), "rotation_angle");
                for (int[] b : bands()) {
                    String what = options + " rows " + b[0] + "+" + b[1];
                    assertArrayEquals(plain.readProjections(b[0], b[1]).uint16Data(),
                            masked.readProjections(b[0], b[1]).uint16Data(), what);
                    assertArrayEquals(plain.readFlats(b[0], b[1]).uint16Data(),
                            masked.readFlats(b[0], b[1]).uint16Data(), what + " flats");
                    assertArrayEquals(plain.readDarks(b[0], b[1]).uint16Data(),
                            masked.readDarks(b[0], b[1]).uint16Data(), what + " darks");
                }
            }
    }

    /** Every band of the data, flats and darks of {@code file} against {@code reference}'s, and their angles. */
    private static void sameScan(String file, String reference) {
        for (ReadOptions options : OPTIONS)
            try (DataExchangeSource s = DataExchangeSource.open(scans.resolve(file), options);
                 DataExchangeSource ref = DataExchangeSource.open(scans.resolve(reference), options)) {
                assertEquals(ref.metadata(), withSource(s.metadata(), ref.metadata().source()), file + " metadata");
                assertArrayEquals(ref.metadata().anglesDeg(), s.metadata().anglesDeg(), file + " theta");
                if (!options.hyperslabOnly())
                    for (String ds : List.of(DATA, WHITE, DARK))
                        assertEquals(ReadPath.CHUNKED, s.readPath(ds), file + " " + ds + " decodes its chunks");
                for (int[] b : bands()) {
                    String what = file + " " + options + " rows " + b[0] + "+" + b[1];
                    assertSame(ref.readProjections(b[0], b[1]), s.readProjections(b[0], b[1]), what);
                    assertSame(ref.readFlats(b[0], b[1]), s.readFlats(b[0], b[1]), what + " flats");
                    assertSame(ref.readDarks(b[0], b[1]), s.readDarks(b[0], b[1]), what + " darks");
                }
            }
    }

    private static ScanMetadata withSource(ScanMetadata m, String source) {
        return new ScanMetadata(source, m.numProjections(), m.rows(), m.width(), m.sampleType(), m.anglesDeg(),
                m.numFlats(), m.numDarks());
    }

    private static void assertSame(RawStack expected, RawStack actual, String what) {
        assertEquals(List.of(expected.frames(), expected.rows(), expected.width()),
                List.of(actual.frames(), actual.rows(), actual.width()), what);
        if (expected.isUint16()) assertArrayEquals(expected.uint16Data(), actual.uint16Data(), what);
        else assertArrayEquals(expected.floatData(), actual.floatData(), what);
    }

    private static NxTomoSource nxtomo(String file, ReadOptions options) throws IOException {
        Path f = scans.resolve(file);
        return NxTomoSource.open(FileChannel.open(f, StandardOpenOption.READ), FileChannelRangeReader.open(f),
                f.toString(), options);
    }
}
