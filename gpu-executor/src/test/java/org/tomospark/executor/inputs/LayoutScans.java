package org.tomospark.executor.inputs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The scans of {@code gpu-executor/src/test/python/layouts.py}: one DataExchange file per HDF5 storage layout and
 * byte order, and raw files, written by h5py and numpy (writers independent of the project's jhdf), with samples
 * that are a formula of their indices ({@link #u16}, {@link #f32}). A test that needs them is skipped where Debian's
 * python3 with python3-h5py is missing.
 */
public final class LayoutScans {
    public static final Path PYTHON = Path.of("/usr/bin/python3");
    /** The scans' shape: angles, rows, columns (the compact-layout file: 9, 3, 17). */
    public static final int N = 181, R = 13, W = 333;
    /** Frame numbers of the flats and darks in the formula. */
    public static final int FLAT0 = 1000, DARK0 = 2000;

    private LayoutScans() {
    }

    /** Writes the scans into {@code dir}; tests run from gpu-executor or from a sibling module. */
    public static Path write(Path dir) throws Exception {
        assumeTrue(Files.isExecutable(PYTHON), "needs Debian's python3 with python3-h5py (installed by .ci/run)");
        Path script = Path.of("src/test/python/layouts.py");
        if (!Files.exists(script)) script = Path.of("../gpu-executor/src/test/python/layouts.py");
        Process p = new ProcessBuilder(PYTHON.toString(), script.toAbsolutePath().toString(), dir.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "python3-h5py is needed to write the scans: " + log);
        return dir;
    }

    /** The uint16 sample of frame p, row r, column c (flats: p + FLAT0, darks: p + DARK0), as its 16 bits. */
    public static short u16(int p, int r, int c) {
        return (short) ((p * 7919L + r * 104729L + c * 31L + 12345) % 65536);
    }

    /** The float32 sample of frame p, row r, column c. */
    public static float f32(int p, int r, int c) {
        return (float) (p * 1000.0 - r * 40.0 + c * 0.5 - 7.25);
    }

    /** The formula's band: frames p0.., rows [rowStart, rowStart + rows), every column. */
    public static short[] u16Band(int p0, int frames, int rowStart, int rows, int width) {
        short[] a = new short[frames * rows * width];
        int i = 0;
        for (int p = 0; p < frames; p++)
            for (int r = rowStart; r < rowStart + rows; r++)
                for (int c = 0; c < width; c++) a[i++] = u16(p0 + p, r, c);
        return a;
    }

    public static float[] f32Band(int p0, int frames, int rowStart, int rows, int width) {
        float[] a = new float[frames * rows * width];
        int i = 0;
        for (int p = 0; p < frames; p++)
            for (int r = rowStart; r < rowStart + rows; r++)
                for (int c = 0; c < width; c++) a[i++] = f32(p0 + p, r, c);
        return a;
    }

    /** Bands at the start, middle and end, one row, and every row, for frames of {@code rows} rows. */
    public static int[][] bands(int rows) {
        if (rows < 8) return new int[][]{{0, 1}, {rows / 2, 1}, {rows - 1, 1}, {1, rows - 1}, {0, rows}};
        return new int[][]{{0, 1}, {0, 5}, {rows / 2 - 2, 4}, {rows - 1, 1}, {rows - 4, 4}, {3, rows - 5}, {0, rows}};
    }
}
