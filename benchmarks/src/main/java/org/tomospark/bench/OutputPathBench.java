package org.tomospark.bench;

import org.tomospark.executor.outputs.FloatTiff;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The host output path's parts on their own, without Spark or Hadoop: threads that each take slices in turn and
 * TIFF-encode them, hash them with SHA-256, write them under a temporary name and rename them into one directory,
 * as the per-slice commit does. Modes isolate the parts: {@code write} (bytes only), {@code encode}, {@code sha}
 * (encode and hash, nothing written), {@code all}. The directory is created and left for the caller to remove.
 *
 * <pre>OutputPathBench DIR THREADS SLICES SIZE write|encode|sha|all</pre>
 */
public final class OutputPathBench {
    private OutputPathBench() {
    }

    public static void main(String[] a) throws Exception {
        if (a.length != 5) throw new IllegalArgumentException("usage: OutputPathBench DIR THREADS SLICES SIZE write|encode|sha|all");
        Path dir = Path.of(a[0]);
        int threads = Integer.parseInt(a[1]), slices = Integer.parseInt(a[2]), n = Integer.parseInt(a[3]);
        String mode = a[4];
        if (!List.of("write", "encode", "sha", "all").contains(mode)) throw new IllegalArgumentException("unknown mode " + mode);
        Files.createDirectories(dir.resolve("_temporary"));
        float[] pixels = new float[n * n];
        for (int i = 0; i < pixels.length; i++) pixels[i] = i * 1e-3f;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            done.add(pool.submit(() -> {
                writeSlices(dir, first, threads, slices, n, pixels, mode);
                return null;
            }));
        }
        for (Future<?> f : done) f.get();
        pool.shutdown();
        double s = (System.nanoTime() - t0) / 1e9, gb = (double) slices * n * n * 4 / 1e9;
        System.out.printf(Locale.ROOT, "%s, %d threads: %d slices of %d² (%.1f GB) in %.2f s, %.2f GB/s%n", mode, threads,
                slices, n, gb, s, gb / s);
    }

    private static void writeSlices(Path dir, int first, int step, int slices, int n, float[] pixels, String mode)
            throws IOException, NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] unencoded = new byte[n * n * 4];
        for (int s = first; s < slices; s += step) {
            byte[] bytes = mode.equals("write") ? unencoded : FloatTiff.encode(pixels, n, n);
            if (mode.equals("sha") || mode.equals("all")) sha.digest(bytes);
            if (mode.equals("write") || mode.equals("all")) {
                Path tmp = dir.resolve("_temporary").resolve("slice_" + s + ".tmp"), fin = dir.resolve("slice_" + s + ".tif");
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    ByteBuffer b = ByteBuffer.wrap(bytes);
                    while (b.hasRemaining()) ch.write(b);
                }
                Files.move(tmp, fin, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        }
    }
}
