package org.tomospark.executor.inputs;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tomospark.executor.preprocess.RawStack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tomospark.executor.inputs.DataExchangeSource.DATA;
import static org.tomospark.executor.inputs.FacilityScans.FILL;
import static org.tomospark.executor.inputs.FacilityScans.Kind.DARKS;
import static org.tomospark.executor.inputs.FacilityScans.Kind.FLATS;
import static org.tomospark.executor.inputs.FacilityScans.Kind.PROJECTIONS;
import static org.tomospark.executor.inputs.FacilityScans.N;
import static org.tomospark.executor.inputs.FacilityScans.R;
import static org.tomospark.executor.inputs.FacilityScans.W;
import static org.tomospark.executor.inputs.FacilityScans.band;

/**
 * The layouts facilities write (h5py with Debian's filter plugins: Blosc, Zstd, LZ4, bitshuffle, virtual datasets over
 * camera files), read band by band and compared with the formula the writer used, through the direct path on several
 * threads and through the hyperslab path; and the layouts that cannot be read, refused with messages that name the
 * dataset, the filter or the missing file and say what to do.
 */
class FacilityLayoutReadTest {
    @TempDir
    static Path tmp;
    static Path scans;

    @BeforeAll
    static void writeScans() throws Exception {
        scans = FacilityScans.write(Files.createDirectories(tmp.resolve("facility")));
    }

    static List<String> readable() {
        return FacilityScans.READABLE;
    }

    @ParameterizedTest
    @MethodSource("readable")
    void everyBandIsTheFormula(String layout) {
        for (ReadOptions options : List.of(ReadOptions.threads(4), ReadOptions.hyperslab()))
            try (DataExchangeSource s = DataExchangeSource.open(scans.resolve(layout + ".h5"), options)) {
                assertEquals(N, s.metadata().numProjections());
                for (int[] b : LayoutScans.bands(R)) {
                    assertArrayEquals(band(PROJECTIONS, N, b[0], b[1]), ints(s.readProjections(b[0], b[1])), layout
                            + " rows " + b[0] + "+" + b[1]);
                    assertArrayEquals(band(FLATS, 4, b[0], b[1]), ints(s.readFlats(b[0], b[1])), layout + " flats");
                    assertArrayEquals(band(DARKS, 2, b[0], b[1]), ints(s.readDarks(b[0], b[1])), layout + " darks");
                }
                if (layout.startsWith("vds")) assertEquals(ReadPath.VIRTUAL, s.readPath(DATA));
                else if (!options.hyperslabOnly() && !layout.startsWith("contiguous")
                        && !layout.equals("external_link"))
                    assertEquals(ReadPath.CHUNKED, s.readPath(DATA), layout + " decodes its chunks in parallel");
            }
    }

    @Test
    void bloscZstdOfFloatsReadsAsWritten() {
        try (DataExchangeSource s = DataExchangeSource.open(scans.resolve("blosc_zstd_shuffle_f32.h5"),
                ReadOptions.threads(3))) {
            assertEquals(ScanMetadata.SampleType.FLOAT32, s.metadata().sampleType());
            RawStack b = s.readProjections(2, 5);
            int[] expected = band(PROJECTIONS, N, 2, 5);
            for (int i = 0; i < expected.length; i++) assertEquals(expected[i], b.get(i), 0f);
        }
    }

    /**
     * Rows 0..3 from two files (even and odd frames), rows 4..6 from every other row of a third, chunked and
     * compressed; row 7 mapped by nothing holds the fill value. A band opens only the files it overlaps.
     */
    @Test
    void virtualHyperslabsMapStridesAndFillTheGaps() throws Exception {
        try (DataExchangeSource s = DataExchangeSource.open(scans.resolve("vds_mixed.h5"), ReadOptions.threads(2))) {
            VirtualBandReader reader = (VirtualBandReader) s.bandReader(DATA);
            assertArrayEquals(band(PROJECTIONS, N, 1, 2), ints(s.readProjections(1, 2)));
            assertEquals(2, reader.openedFiles().size(), "rows 1..2 need the two top files only: "
                    + reader.openedFiles());
            assertTrue(reader.openedFiles().stream().allMatch(f -> f.contains("top_")),
                    reader.openedFiles().toString());
            int[] all = ints(s.readProjections(0, R));
            int[] formula = band(PROJECTIONS, N, 0, R);
            for (int p = 0; p < N; p++)
                for (int r = 0; r < R; r++)
                    for (int c = 0; c < W; c++) {
                        int i = (p * R + r) * W + c;
                        assertEquals(r == 7 ? FILL : formula[i], all[i], "frame " + p + " row " + r + " column " + c);
                    }
            assertEquals(3, reader.openedFiles().size());
        }
    }

    @Test
    void aMissingSourceFileIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataExchangeSource.open(scans.resolve("vds_missing.h5")).close());
        assertTrue(e.getMessage().contains("vds_missing_src/segment_2.h5") && e.getMessage().contains("does not exist")
                && e.getMessage().contains(DATA), e.getMessage());
    }

    @Test
    void bloscLzIsRefusedNamingTheCodecAndTheRepack() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataExchangeSource.open(scans.resolve("blosc_blosclz.h5")).close());
        for (String part : List.of(DATA, "'blosc'", "32001", "BloscLZ", "h5repack"))
            assertTrue(e.getMessage().contains(part), "names " + part + ": " + e.getMessage());
    }

    @Test
    void aFilterNothingDecodesIsNamedWhenTheFileOpens() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataExchangeSource.open(scans.resolve("bzip2.h5")).close());
        for (String part : List.of(DATA, "307", "h5repack", "GZIP"))
            assertTrue(e.getMessage().contains(part), "names " + part + ": " + e.getMessage());
    }

    private static int[] ints(RawStack s) {
        int[] a = new int[s.frames() * s.rows() * s.width()];
        for (int i = 0; i < a.length; i++) a[i] = (int) s.get(i);
        return a;
    }
}
