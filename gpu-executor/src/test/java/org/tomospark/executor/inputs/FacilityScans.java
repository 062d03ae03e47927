package org.tomospark.executor.inputs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The scans of {@code gpu-executor/src/test/python/facility_layouts.py}: one DataExchange scan (180 angles, 8 rows,
 * 256 columns) in the storage layouts facilities write, by h5py with Debian's HDF5 filter plugins, with samples that
 * are a formula of their indices ({@link #sample}). A test that needs them is skipped where python3-h5py or
 * python3-hdf5plugin is missing.
 */
public final class FacilityScans {
    public static final int N = 180, R = 8, W = 256;
    /** The fill value of vds_mixed.h5's unmapped row 7. */
    public static final int FILL = 77;
    /** Layouts that read exactly as the contiguous file. */
    public static final List<String> READABLE = List.of("contiguous", "chunk_frame", "chunk_rows", "gzip",
            "shuffle_gzip", "lzf", "lz4", "bitshuffle_lz4", "bitshuffle_none", "bitshuffle_lz4_odd", "external_link",
            "blosc_lz4_shuffle", "blosc_zstd_bitshuffle", "blosc_lz4_bitshuffle", "blosc_zlib_noshuffle", "zstd", "vds",
            "vds_latest");

    private FacilityScans() {
    }

    /** Writes the scans into {@code dir}; tests run from gpu-executor or from a sibling module. */
    public static Path write(Path dir) throws Exception {
        assumeTrue(Files.isExecutable(LayoutScans.PYTHON),
                "needs Debian's python3 with python3-h5py (installed by .ci/run)");
        Path script = Path.of("src/test/python/facility_layouts.py");
        if (!Files.exists(script)) script = Path.of("../gpu-executor/src/test/python/facility_layouts.py");
        Process p = new ProcessBuilder(LayoutScans.PYTHON.toString(), script.toAbsolutePath().toString(),
                dir.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0,
                "python3-h5py, python3-hdf5plugin, hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial, bitshuffle"
                        + " and zstd"
                        + " are needed to write the scans (installed by .ci/run): " + log);
        return dir;
    }

    /** Where the projections', flats' and darks' samples start, and how far they spread. */
    public enum Kind {
        PROJECTIONS(0, 4000, 3000), FLATS(1000, 8000, 3000), DARKS(2000, 100, 300);

        final int firstFrame, base, modulus;

        Kind(int firstFrame, int base, int modulus) {
            this.firstFrame = firstFrame;
            this.base = base;
            this.modulus = modulus;
        }
    }

    /** The sample of frame p, row r, column c of the projections, flats or darks. */
    public static int sample(Kind kind, int p, int r, int c) {
        long f = ((kind.firstFrame + p) * 7919L + r * 104729L + c * 31L + 12345) % 65536;
        return kind.base + (int) (f % kind.modulus);
    }

    /** The formula's band of {@code frames} frames: rows [rowStart, rowStart + rows). */
    public static int[] band(Kind kind, int frames, int rowStart, int rows) {
        int[] a = new int[frames * rows * W];
        int i = 0;
        for (int p = 0; p < frames; p++)
            for (int r = rowStart; r < rowStart + rows; r++)
                for (int c = 0; c < W; c++) a[i++] = sample(kind, p, r, c);
        return a;
    }
}
