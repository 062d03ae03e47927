package org.tomospark.bench;

import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.outputs.TiffEncoder;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.outputs.OutputCommit;
import org.tomospark.job.outputs.SliceCommitPool;
import org.tomospark.job.outputs.SliceWriters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * A node's commit rate through the product's commit path, against raw parallel writes of the same bytes measured in the
 * same run. The product path: {@code TASKS} tasks at once, each committing its share of the slices through a
 * {@link SliceCommitPool} on the node's writers ({@link SliceWriters}, {@code THREADS} of them, as an executor's tasks
 * do): TIFF encoding into a direct buffer, CRC32C, the slice written under {@code _temporary/} and renamed into place,
 * then its marker. The raw writes: {@code THREADS} threads, each writing its share of files of the same size from a
 * direct buffer with one positioned write each, nothing else (no encoding, checksum, rename or marker). GB/s = bytes of
 * slice files / wall seconds. Each measure runs {@code ROUNDS} times into an emptied directory; the median is printed.
 *
 * <pre>CommitRateBench DIR [--threads N] [--tasks T] [--slices S] [--size PX] [--rounds R]</pre>
 */
public final class CommitRateBench {
    private final Path dir;
    private final int threads, tasks, slices, size, rounds;
    private final float[] pixels;

    private CommitRateBench(Path dir, int threads, int tasks, int slices, int size, int rounds) {
        this.dir = dir;
        this.threads = threads;
        this.tasks = tasks;
        this.slices = slices;
        this.size = size;
        this.rounds = rounds;
        this.pixels = new float[size * size];
        for (int i = 0; i < pixels.length; i++) pixels[i] = (float) Math.sin(i * 1e-3) * 1e-3f;
    }

    public static void main(String[] a) throws Exception {
        if (a.length < 1) throw new IllegalArgumentException("usage: CommitRateBench DIR [--threads N] [--tasks T] [--slices S] "
                + "[--size PX] [--rounds R]");
        int threads = Runtime.getRuntime().availableProcessors(), tasks = -1, slices = 256, size = 2048, rounds = 3;
        for (int i = 1; i < a.length; i += 2) {
            int v = Integer.parseInt(a[i + 1]);
            switch (a[i]) {
                case "--threads" -> threads = v;
                case "--tasks" -> tasks = v;
                case "--slices" -> slices = v;
                case "--size" -> size = v;
                case "--rounds" -> rounds = v;
                default -> throw new IllegalArgumentException("unknown option " + a[i]);
            }
        }
        if (tasks < 0) tasks = threads;
        new CommitRateBench(Path.of(a[0]), threads, tasks, slices, size, rounds).run();
    }

    private void run() throws Exception {
        long bytes = (long) slices * size * size * 4;
        System.out.printf(Locale.ROOT, "%d slices of %d² float32 (%.2f GB) into %s; %d threads, %d tasks; %d cores; %s%n", slices, size,
                bytes / 1e9, dir, threads, tasks, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        double raw = median(this::rawWrites), product = median(this::productCommits);
        long file = Files.size(last());
        System.out.printf(Locale.ROOT, "| raw parallel writes | %.2f GB/s |%n", (double) slices * file / raw / 1e9);
        System.out.printf(Locale.ROOT, "| product commit path | %.2f GB/s |%n", (double) slices * file / product / 1e9);
        System.out.printf(Locale.ROOT, "| product / raw | %.2f |%n", raw / product);
        double n = (double) rounds * slices;
        System.out.printf(Locale.ROOT, "per slice, a writer's busy ms: encode %.2f, CRC32C %.2f, write+rename+marker %.2f%n",
                encode.sum() / n / 1e6, hash.sum() / n / 1e6, write.sum() / n / 1e6);
        clear();
    }

    private Path last() {
        return dir.resolve("commit").resolve(String.format("slice_%05d.tif", slices - 1));
    }

    /** The median of the rounds' seconds, the directory emptied before each. */
    private double median(Measure m) throws Exception {
        double[] s = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            clear();
            s[r] = m.seconds();
        }
        Arrays.sort(s);
        return s[rounds / 2];
    }

    @FunctionalInterface
    private interface Measure {
        double seconds() throws Exception;
    }

    /** THREADS threads, each writing files of one slice file's size from its own direct buffer. */
    private double rawWrites() throws Exception {
        Path raw = Files.createDirectories(dir.resolve("raw"));
        int fileBytes = TiffEncoder.size(size, size, null);
        return onThreads(threads, first -> {
            ByteBuffer b = ByteBuffer.allocateDirect(fileBytes).order(ByteOrder.LITTLE_ENDIAN);
            b.asFloatBuffer().put(pixels);
            for (int s = first; s < slices; s += threads) {
                try (FileChannel ch = FileChannel.open(raw.resolve("f" + s), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    ByteBuffer d = b.duplicate();
                    for (long at = 0; d.hasRemaining(); ) at += ch.write(d, at);
                }
            }
        });
    }

    /** One thread's share of a measured round: thread {@code first} of the round takes slices first, first + n, ... */
    @FunctionalInterface
    private interface Share {
        void run(int first) throws Exception;
    }

    /** Runs {@code share} on {@code n} threads at once; returns the seconds until all are done. */
    private static double onThreads(int n, Share share) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            long t0 = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    share.run(first);
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
            return (System.nanoTime() - t0) / 1e9;
        } finally {
            pool.shutdown();
        }
    }

    /** The writers' busy time per stage, summed over the product's rounds. */
    private final LongAdder encode = new LongAdder(), hash = new LongAdder(), write = new LongAdder();

    /** TASKS tasks, each committing its share of the slices through a commit pool on the node's writers. */
    private double productCommits() throws Exception {
        Path out = Files.createDirectories(dir.resolve("commit"));
        Files.createDirectories(out.resolve(OutputCommit.COMMITTED));
        OutputCommit commit = new OutputCommit(out.toString(), HadoopConf.create());
        SliceWriters.node(threads);
        return onThreads(tasks, first -> {
            // a task's group: its slices are in memory; the node's writers commit them
            try (SliceCommitPool pool = SliceCommitPool.shared(commit, threads, Math.max(1, slices / tasks + 1), null,
                    SampleCoding.FLOAT32, row -> {
                    }, px -> {
                    })) {
                for (int s = first; s < slices; s += tasks) pool.submit(s, pixels, size, size);
                pool.finish();
                SliceCommitPool.Timings busy = pool.timings();
                encode.add(busy.encodeNanos());
                hash.add(busy.hashNanos());
                write.add(busy.writeNanos());
            }
        });
    }

    private void clear() throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
