package org.tomospark.executor.inputs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The scans of {@code gpu-executor/src/test/python/filter_masks.py}: chunked datasets whose chunks were not all
 * filtered alike (HDF5's per-chunk filter mask: Blosc leaves a chunk it cannot shrink unfiltered, and a writer of
 * whole chunks may mark any chunk so), chunked datasets with chunks never written (read as the fill value), and the
 * same samples contiguous. Written by h5py with Debian's filter plugins; a test that needs them is skipped where
 * python3-h5py or python3-hdf5plugin is missing.
 */
final class FilterMaskScans {
    /** Projections, rows and columns of every scan; its chunks are one frame of 8 rows x 24 columns. */
    static final int N = 24, R = 16, W = 40;
    static final int FLATS = 3, DARKS = 2;
    /** Scans that read exactly as contiguous.h5. */
    static final List<String> MASKED = List.of("blosc_masked", "blosc_masked_latest", "gzip_masked",
            "shuffle_gzip_masked");

    private FilterMaskScans() {
    }

    /** Writes the scans into {@code dir}. */
    static Path write(Path dir) throws Exception {
        assumeTrue(Files.isExecutable(LayoutScans.PYTHON),
                "needs Debian's python3 with python3-h5py (installed by .ci/run)");
        Path script = Path.of("src/test/python/filter_masks.py");
        if (!Files.exists(script)) script = Path.of("../gpu-executor/src/test/python/filter_masks.py");
        Process p = new ProcessBuilder(LayoutScans.PYTHON.toString(), script.toAbsolutePath().toString(),
                dir.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0,
                "python3-h5py, python3-hdf5plugin and hdf5-filter-plugin-blosc-serial are needed to write the"
                        + " scans (installed by .ci/run): " + log);
        return dir;
    }

    /** Every band of {@code n} rows for n in 1, 3, 8, 11 and 16: those of 3 and 11 rows straddle the chunks' rows. */
    static List<int[]> bands() {
        List<int[]> out = new ArrayList<>();
        for (int n : new int[]{1, 3, 8, 11, R})
            for (int r0 = 0; r0 + n <= R; r0++) out.add(new int[]{r0, n});
        return out;
    }
}
