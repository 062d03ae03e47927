package org.tomospark.job.outputs;

import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.fs.Json;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.tomospark.executor.outputs.ImageIoTiff;
import org.tomospark.executor.outputs.TiffEncoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Measures what writing and committing slices costs, stage by stage, and the throughput of {@link SliceCommitPool}
 * against the single-thread path and the disk's floor (the same bytes written by the OS alone). Prints Markdown tables.
 *
 * <pre>
 * SliceWritingBench --dir DIR [--size 2048] [--slices 64] [--threads 1,2] [--reps 7] [--volume-reps 3] [--only stages|volume|hash]
 * </pre>
 */
public final class SliceWritingBench {
    private final Path dir;
    private final int size, slices, reps, volumeReps;
    private final int[] threads;
    private final float[][] volume;
    private final Configuration raw = HadoopConf.create(), checksummed = new Configuration();

    private SliceWritingBench(Path dir, int size, int slices, int[] threads, int reps, int volumeReps, boolean needVolume) {
        this.dir = dir;
        this.size = size;
        this.slices = slices;
        this.threads = threads;
        this.reps = reps;
        this.volumeReps = volumeReps;
        this.volume = new float[needVolume ? slices : 1][];
        Random r = new Random(1);
        for (int s = 0; s < volume.length; s++) {
            float[] px = new float[size * size];
            float base = r.nextFloat();
            for (int i = 0; i < px.length; i++) px[i] = base + (i % 4093) * 1e-4f;
            volume[s] = px;
        }
        checksummed.setBoolean("fs.file.impl.disable.cache", true);
    }

    public static void main(String[] args) throws Exception {
        Path dir = null;
        int size = 2048, slices = 64, reps = 7, volumeReps = 3;
        int[] threads = {1, 2};
        String only = "";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--slices" -> slices = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--volume-reps" -> volumeReps = Integer.parseInt(args[++i]);
                case "--only" -> only = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) throw new IllegalArgumentException("--dir DIR is required (a directory on the disk to measure)");
        Files.createDirectories(dir);
        System.out.printf(Locale.ROOT, "%d processors, Java %s, %d x %d float32 slices (%.1f MiB TIFF)%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), size, size,
                TiffEncoder.size(size, size, null) / 1048576.0);
        SliceWritingBench b = new SliceWritingBench(dir, size, slices, threads, reps, volumeReps,
                only.isEmpty() || only.equals("volume"));
        if (only.equals("hash")) b.hashOnly();
        if (only.isEmpty() || only.equals("stages")) b.stages();
        if (only.isEmpty() || only.equals("volume")) b.volume();
    }

    /** Something measured once per repetition; its setup and clean-up are not timed. */
    private interface Timed {
        long run() throws Exception;
    }

    private double medianMs(Timed t) throws Exception {
        for (int i = 0; i < 2; i++) t.run(); // warm-up
        long[] ns = new long[reps];
        for (int i = 0; i < reps; i++) ns[i] = t.run();
        Arrays.sort(ns);
        return ns[reps / 2] / 1e6;
    }

    private void row(String what, double ms, long bytes) {
        String rate = bytes == 0 ? "–" : String.format(Locale.ROOT, "%.2f", bytes / ms / 1e6);
        System.out.printf(Locale.ROOT, "| %s | %.2f | %s |%n", what, ms, rate);
    }

    private void hashOnly() throws Exception {
        byte[] tiff = TiffEncoder.encode(volume[0], size, size);
        System.out.println("| stage, per slice | ms | GB/s |\n|---|---|---|");
        row("SHA-256 (MessageDigest, hex)", medianMs(() -> time(() -> Json.sha256(tiff))), tiff.length);
    }

    private void stages() throws Exception {
        float[] px = volume[0];
        byte[] tiff = TiffEncoder.encode(px, size, size);
        byte[] reused = new byte[tiff.length];
        long n = tiff.length;
        System.out.println("\n| stage, per slice | ms | GB/s |\n|---|---|---|");
        row("encode: ImageIO TIFF writer (today)", medianMs(() -> time(() -> ImageIoTiff.encode(px, size, size))), n);
        row("encode: TiffEncoder, new array", medianMs(() -> time(() -> TiffEncoder.encode(px, size, size))), n);
        row("encode: TiffEncoder, reused buffer", medianMs(() -> time(() -> TiffEncoder.encodeInto(px, size, size, null, reused))), n);
        row("SHA-256 (MessageDigest, hex; before marker format 2)", medianMs(() -> time(() -> Json.sha256(tiff))), n);
        row("CRC32C (java.util.zip)", medianMs(() -> time(() -> {
            CRC32C c = new CRC32C();
            c.update(tiff);
            return c.getValue();
        })), n);
        Path d = Files.createDirectories(dir.resolve("stages"));
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        org.apache.hadoop.fs.Path hd = new org.apache.hadoop.fs.Path(d.toUri());
        row("write: Hadoop LocalFileSystem (.crc side file)", medianMs(() -> writeHadoop(checksummed, hd, tiff)), n);
        row("write: Hadoop RawLocalFileSystem", medianMs(() -> writeHadoop(raw, hd, tiff)), n);
        row("write: FileChannel (floor)", medianMs(() -> {
            Path f = d.resolve("channel.bin");
            long t0 = System.nanoTime();
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(tiff));
            }
            long t = System.nanoTime() - t0;
            Files.delete(f);
            return t;
        }), n);
        FileContext fc = FileContext.getFileContext(hd.toUri(), raw);
        row("rename of a slice into place: Hadoop FileContext (before)", medianMs(() -> renameIntoPlace(d, tiff, (a, b) -> fc.rename(
                // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
                new org.apache.hadoop.fs.Path(a.toUri()), new org.apache.hadoop.fs.Path(b.toUri()), Options.Rename.OVERWRITE))), 0);
        row("rename of a slice into place: java.nio (now)", medianMs(() -> renameIntoPlace(d, tiff, (a, b) -> Files.move(a, b,
                StandardCopyOption.ATOMIC_MOVE))), 0);
        byte[] marker = ("2 " + SliceChecksum.crc32c(tiff) + " " + n + "\n").getBytes(StandardCharsets.US_ASCII);
        for (boolean viaHadoop : new boolean[]{true, false}) {
            String way = viaHadoop ? "Hadoop (before)" : "java.nio (now)";
            SliceWriter writer = new SliceWriter(d.resolve("out").toString(), raw, viaHadoop);
            Path o = d.resolve("out");
            // each timed write goes to a name not taken yet, as a first attempt's does
            row("marker, 73 bytes: SliceWriter.writeBytes, temp + rename, " + way, medianMs(() -> {
                Files.deleteIfExists(o.resolve("m.sha256"));
                return time(() -> writer.writeBytes("m.sha256", marker));
            }), 0);
            row("slice: SliceWriter.writeBytes, temp + rename, " + way, medianMs(() -> {
                Files.deleteIfExists(o.resolve("s.tif"));
                return time(() -> writer.writeBytes("s.tif", tiff));
            }), n);
            OutputCommit out = new OutputCommit(o.toString(), raw, viaHadoop);
            Files.createDirectories(o.resolve(OutputCommit.COMMITTED));
            row("commitSlice (CRC32C, slice, marker), " + way, medianMs(() -> {
                Files.deleteIfExists(o.resolve(SliceWriter.sliceName(1)));
                Files.deleteIfExists(o.resolve(OutputCommit.markerName(1)));
                return time(() -> out.commitSlice(1, tiff));
            }), n);
        }
        delete(d);
    }

    /** A rename of one file over another. */
    private interface Rename {
        void rename(Path from, Path to) throws Exception;
    }

    /** Times one rename of a 16 MiB file to a name not taken yet, as a first attempt does (writing and removing it is not). */
    private static long renameIntoPlace(Path d, byte[] bytes, Rename r) throws Exception {
        Path a = d.resolve("a.tif"), b = d.resolve("b.tif");
        Files.write(a, bytes);
        Files.deleteIfExists(b);
        long t0 = System.nanoTime();
        r.rename(a, b);
        return System.nanoTime() - t0;
    }

    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    private long writeHadoop(Configuration conf, org.apache.hadoop.fs.Path dir, byte[] bytes) throws IOException {
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path(dir, "h.tif");
        long t = writeHadoopFile(conf, f, bytes);
        f.getFileSystem(conf).delete(f, false);
        return t;
    }

    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    private static long writeHadoopFile(Configuration conf, org.apache.hadoop.fs.Path f, byte[] bytes) throws IOException {
        long t0 = System.nanoTime();
        FileSystem fs = f.getFileSystem(conf);
        try (FSDataOutputStream o = fs.create(f, true)) {
            o.write(bytes);
        }
        return System.nanoTime() - t0;
    }

    private interface Work {
        Object run() throws Exception;
    }

    private static long time(Work body) throws Exception {
        long t0 = System.nanoTime();
        body.run();
        return System.nanoTime() - t0;
    }

    /** One way of writing the whole volume into an output directory; returns the pool's timings or null. */
    private interface VolumeWriter {
        SliceCommitPool.Timings write(Path out) throws Exception;
    }

    private void volume() throws Exception {
        long bytes = (long) slices * TiffEncoder.size(size, size, null);
        System.out.printf(Locale.ROOT, "%n%d slices, %.2f GiB of TIFF; 'cached': until the last commit returns (page cache),"
                + " 'durable': until every file written is fsynced; the run of the median cached time of %d%n", slices,
                bytes / 1073741824.0, volumeReps);
        System.out.println("\n| path | cached s | cached GB/s | durable s | durable GB/s | encode s | hash s | write s (summed) |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        byte[] same = TiffEncoder.encode(volume[0], size, size);
        measure("floor: FileChannel, same bytes, no encode or hash", bytes, out -> {
            for (int s = 0; s < slices; s++)
                try (FileChannel ch = FileChannel.open(out.resolve(SliceWriter.sliceName(s)), StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap(same));
                }
            return null;
        });
        measure("before: ImageIO encode + commitSlice via Hadoop, calling thread", bytes, out -> {
            OutputCommit c = new OutputCommit(out.toString(), raw, true);
            for (int s = 0; s < slices; s++) c.commitSlice(s, ImageIoTiff.encode(volume[s], size, size));
            return null;
        });
        measure("TiffEncoder + commitSlice via Hadoop, calling thread", bytes, out -> {
            OutputCommit c = new OutputCommit(out.toString(), raw, true);
            for (int s = 0; s < slices; s++) c.commitSlice(s, TiffEncoder.encode(volume[s], size, size));
            return null;
        });
        measure("TiffEncoder + commitSlice via java.nio, calling thread", bytes, out -> {
            OutputCommit c = new OutputCommit(out.toString(), raw);
            for (int s = 0; s < slices; s++) c.commitSlice(s, TiffEncoder.encode(volume[s], size, size));
            return null;
        });
        for (int t : threads) {
            measure("SliceCommitPool, " + t + " thread" + (t == 1 ? "" : "s") + ", queue " + t, bytes, out -> {
                try (SliceCommitPool pool = new SliceCommitPool(new OutputCommit(out.toString(), raw), t, t)) {
                    for (int s = 0; s < slices; s++) pool.submit(s, volume[s], size, size);
                    pool.finish();
                    return pool.timings();
                }
            });
        }
    }

    /** One run: its times to the last commit and to the disk, and the pool's timings (null for other ways). */
    private record Run(double cached, double durable, SliceCommitPool.Timings timings) {
    }

    /** Runs one way of writing {@code volumeReps} times; prints the run of the median cached time. */
    private void measure(String what, long bytes, VolumeWriter w) throws Exception {
        Run[] runs = new Run[volumeReps];
        for (int r = 0; r < volumeReps; r++) {
            Path out = dir.resolve("volume");
            delete(out);
            Files.createDirectories(out.resolve(OutputCommit.COMMITTED));
            syncEverything(); // earlier runs' dirty pages must not be flushed during this one
            long t0 = System.nanoTime();
            SliceCommitPool.Timings t = w.write(out);
            long t1 = System.nanoTime();
            fsyncTree(out);
            long t2 = System.nanoTime();
            runs[r] = new Run((t1 - t0) / 1e9, (t2 - t0) / 1e9, t);
            delete(out);
        }
        Arrays.sort(runs, Comparator.comparingDouble(Run::cached));
        Run m = runs[volumeReps / 2];
        String stages = m.timings() == null ? "| | | |" : String.format(Locale.ROOT, "| %.2f | %.2f | %.2f |",
                m.timings().encodeNanos() / 1e9, m.timings().hashNanos() / 1e9, m.timings().writeNanos() / 1e9);
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f %s%n", what, m.cached(), bytes / m.cached() / 1e9,
                m.durable(), bytes / m.durable() / 1e9, stages);
    }

    private static void syncEverything() throws IOException, InterruptedException {
        new ProcessBuilder("sync").inheritIO().start().waitFor();
    }

    /** fsync of every file and directory under {@code root}: the written bytes and the renames reach the disk. */
    private static void fsyncTree(Path root) throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
                ch.force(true);
            }
        }
    }

    private static void delete(Path root) {
        if (!Files.exists(root)) return;
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
