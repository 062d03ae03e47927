package org.tomospark.executor.inputs;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.DatasetCreationOptions;
import io.jhdf.api.WritableGroup;
import org.tomospark.executor.preprocess.RawStack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Reads every row of a uint16 DataExchange scan in bands, from the page cache: the general hyperslab reader (one
 * thread; jhdf's for contiguous scans) against the direct reader on 1..N threads, next to the floor of the OS alone
 * (dd and cat of the whole file). This main reads through FileChannels; spark-job's ReadBenchmark adds Hadoop streams.
 * The scans are generated where missing: by h5py (src/test/python/bench_scan.py), or by jhdf where python3-h5py is
 * missing.
 * <p>
 * usage: BandReadBenchmark DIR [ANGLES ROWS COLUMNS [BAND_ROWS [ROUNDS [THREADS,..]]]]
 * (defaults: 1024 256 2048 32 3 1,2)
 */
public final class BandReadBenchmark {
    /** Where to look for a python3 with h5py: Debian's first, then the PATH's (where pip installed h5py). */
    private static final List<String> PYTHONS = List.of("/usr/bin/python3", "python3");

    private BandReadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "/tmp/readbench"));
        int angles = arg(args, 1, 1024), rows = arg(args, 2, 256), cols = arg(args, 3, 2048);
        int band = arg(args, 4, 32), rounds = arg(args, 5, 3);
        int[] threads = threads(args, 6);
        Path f = scan(dir, angles, rows, cols, "contiguous");
        header(band, rounds);
        List<String[]> table = new ArrayList<>();
        String scan = angles + "x" + rows + "x" + cols;
        floors(table, scan, f, rounds);
        long[] sum = new long[1];
        double old = median(rounds, () -> readAll(() -> DataExchangeSource.open(f, ReadOptions.hyperslab()), rows, band, sum));
        long bytes = (long) angles * rows * cols * 2;
        table.add(row(scan, "old: jhdf hyperslab, FileChannel", 1, old, bytes, old));
        for (int t : threads) {
            double s = median(rounds, () -> readAll(() -> DataExchangeSource.open(f, ReadOptions.threads(t)), rows, band, sum));
            table.add(row(scan, "new: direct, FileChannel", t, s, bytes, old));
            double h = median(rounds, () -> readAll(() -> openWithHeapBuffers(f, t), rows, band, sum));
            table.add(row(scan, "new: direct, FileChannel into heap buffers (as Hadoop's local reads)", t, h, bytes, old));
        }
        print(table);
    }

    /** Positioned reads into heap buffers, which the JDK fills through a direct buffer of its own: one copy more. */
    private static ProjectionSource openWithHeapBuffers(Path f, int threads) {
        try {
            FileChannelRangeReader direct = FileChannelRangeReader.open(f);
            RangeReader heap = new RangeReader() {
                @Override
                public void readFully(long position, ByteBuffer dst) throws IOException {
                    direct.readFully(position, dst);
                }

                @Override
                public void close() throws IOException {
                    direct.close();
                }
            };
            return DataExchangeSource.open(FileChannel.open(f, StandardOpenOption.READ), heap, f.toString(), ReadOptions.threads(threads));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void header(int band, int rounds) {
        System.out.printf(Locale.ROOT, "%s, %d processors, Java %s; bands of %d rows, median of %d rounds after one warm-up%n",
                LocalDate.now(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), band, rounds);
    }

    public static void print(List<String[]> table) {
        System.out.println();
        System.out.println("| scan | path | threads | seconds | MB/s | vs old |");
        System.out.println("|---|---|---|---|---|---|");
        for (String[] r : table) System.out.println("| " + String.join(" | ", r) + " |");
    }

    /** The OS alone reading the whole file from the page cache: dd with 1 MiB blocks, and cat. */
    public static void floors(List<String[]> table, String scan, Path f, int rounds) throws IOException {
        long fileBytes = Files.size(f);
        double dd = median(rounds, () -> time(() -> run("dd", "if=" + f, "of=/dev/null", "bs=1M")));
        double cat = median(rounds, () -> time(() -> run("sh", "-c", "cat \"$0\" > /dev/null", f.toString())));
        table.add(row(scan, "floor: dd bs=1M, the whole file (" + fileBytes + " bytes)", 1, dd, fileBytes, 0));
        table.add(row(scan, "floor: cat, the whole file", 1, cat, fileBytes, 0));
    }

    /**
     * Seconds to read every row in bands of {@code band} rows (the reads alone); each path must give the sum of
     * samples the first one gave ({@code sum[0]}, 0 before the first).
     */
    public static double readAll(Supplier<ProjectionSource> open, int rows, int band, long[] sum) {
        long nanos = 0, s = 0;
        try (ProjectionSource src = open.get()) {
            for (int r = 0; r < rows; r += band) {
                long t0 = System.nanoTime();
                RawStack stack = src.readProjections(r, Math.min(band, rows - r));
                nanos += System.nanoTime() - t0;
                for (short v : stack.uint16Data()) s += v & 0xffff;
            }
        }
        if (sum[0] == 0) sum[0] = s;
        else if (sum[0] != s) throw new IllegalStateException("sum of samples " + s + ", another path read " + sum[0]);
        return nanos / 1e9;
    }

    /** One untimed warm-up round (it also brings the file into the page cache), then the median of the rounds. */
    public static double median(int rounds, Supplier<Double> measure) {
        measure.get();
        double[] s = new double[rounds];
        for (int i = 0; i < rounds; i++) s[i] = measure.get();
        Arrays.sort(s);
        return rounds % 2 == 1 ? s[rounds / 2] : (s[rounds / 2 - 1] + s[rounds / 2]) / 2;
    }

    public static String[] row(String scan, String path, int threads, double seconds, long bytes, double old) {
        return new String[]{scan, path, String.valueOf(threads), String.format(Locale.ROOT, "%.3f", seconds),
                String.format(Locale.ROOT, "%.0f", bytes / seconds / 1e6), old == 0 ? ""
                        : String.format(Locale.ROOT, "%.1f×", old / seconds)};
    }

    /**
     * The scan DIR/scan-AxRxC[-gzip].h5, written where missing: contiguous, or chunked one projection per chunk with
     * gzip level 1 (h5py only).
     */
    /**
     * The scan of bench_scan.py in {@code layout} (contiguous, gzip, bitshuffle-lz4 or blosc-zstd), written if missing.
     */
    public static Path scan(Path dir, int angles, int rows, int cols, String layout) throws Exception {
        boolean compressed = !layout.equals("contiguous");
        Path f = dir.resolve("scan-" + angles + "x" + rows + "x" + cols + (compressed ? "-" + layout : "") + ".h5");
        if (Files.exists(f)) return f;
        Path part = Path.of(f + ".part");
        Path script = Path.of("src/test/python/bench_scan.py");
        if (!Files.exists(script)) script = Path.of("gpu-executor/src/test/python/bench_scan.py");
        if (!Files.exists(script)) script = Path.of("../gpu-executor/src/test/python/bench_scan.py");
        String python = pythonWithH5py();
        if (python != null && Files.exists(script)) {
            System.out.println("writing " + f + " with h5py ...");
            List<String> cmd = new ArrayList<>(List.of(python, script.toString(), part.toString(),
                    "" + angles, "" + rows, "" + cols));
            cmd.add(layout);
            run(cmd.toArray(String[]::new));
        } else {
            if (compressed) throw new IllegalStateException("the " + layout
                    + " scan needs python3-h5py and python3-hdf5plugin");
            System.out.println("writing " + f + " with jhdf ...");
            writeWithJhdf(part, angles, rows, cols);
        }
        Files.move(part, f);
        return f;
    }

    /** The first of {@link #PYTHONS} that imports h5py, or null. */
    private static String pythonWithH5py() {
        for (String p : PYTHONS) {
            try {
                Process proc = new ProcessBuilder(p, "-c", "import h5py").redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (proc.waitFor() == 0) return p;
            } catch (IOException e) {
                System.out.println(p + " cannot be started (" + e.getMessage() + "); trying the next python3");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /** A smooth profile moving with the angle, plus noise, as bench_scan.py writes it. */
    private static void writeWithJhdf(Path f, int angles, int rows, int cols) {
        SplittableRandom rng = new SplittableRandom(7);
        short[][][] data = new short[angles][rows][cols];
        for (int p = 0; p < angles; p++) {
            double shift = 0.3 * cols * Math.sin(Math.PI * p / angles);
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++) {
                    double x = (c - cols / 2.0 - shift) / (0.2 * cols);
                    data[p][r][c] = (short) (1000 + 1500 * Math.exp(-x * x) + rng.nextInt(64));
                }
        }
        DatasetCreationOptions u16 = DatasetCreationOptions.builder().unsigned().build();
        double[] theta = new double[angles];
        for (int i = 0; i < angles; i++) theta[i] = i * 180.0 / angles;
        try (WritableHdfFile w = HdfFile.write(f)) {
            WritableGroup ex = w.putGroup("exchange");
            ex.putDataset("data", data, u16);
            ex.putDataset("theta", theta);
        }
    }

    public static int[] threads(String[] args, int i) {
        return args.length > i ? Arrays.stream(args[i].split(",")).mapToInt(Integer::parseInt).toArray() : new int[]{1, 2};
    }

    public static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }

    private static void run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() != 0) throw new IllegalStateException(String.join(" ", cmd) + " failed with status " + p.exitValue());
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static double time(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1e9;
    }
}
