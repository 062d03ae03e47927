package org.tomospark.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the machine's storage does with the real path's byte counts and no reconstruction: the input's bytes read back
 * (several threads, large positioned reads, as fast as the OS serves them) and the output's bytes written in 16 MiB
 * blocks and made durable with fdatasync. A job cannot beat the sum by much; its ratio to it is the real path's
 * efficiency.
 */
final class DiskFloor {
    static final int BLOCK = 16 << 20;

    private DiskFloor() {
    }

    record Result(long readBytes, double readSeconds, long writeBytes, double writeSeconds) {
        double seconds() {
            return readSeconds + writeSeconds;
        }
    }

    static Result measure(Path input, long readBytes, Path scratch, long writeBytes) throws Exception {
        long size = Files.size(input);
        long n = Math.min(readBytes, size);
        long t0 = System.nanoTime();
        read(input, n);
        double rs = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        write(scratch, writeBytes);
        double ws = (System.nanoTime() - t1) / 1e9;
        Files.deleteIfExists(scratch);
        return new Result(n, rs, writeBytes, ws);
    }

    /** Reads the first n bytes of a file with one positioned-read stream per core. */
    static void read(Path file, long n) throws Exception {
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            List<Future<?>> fs = new ArrayList<>();
            long blocks = (n + BLOCK - 1) / BLOCK;
            for (int t = 0; t < threads; t++) {
                final int tt = t;
                fs.add(pool.submit(() -> {
                    ByteBuffer b = ByteBuffer.allocateDirect(BLOCK);
                    for (long k = tt; k < blocks; k += threads) {
                        b.clear();
                        long pos = k * BLOCK;
                        b.limit((int) Math.min(BLOCK, n - pos));
                        while (b.hasRemaining()) if (ch.read(b, pos + b.position()) < 0) break;
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get();
        } finally {
            pool.shutdown();
        }
    }

    /** Writes n bytes in blocks and forces them to the device (fdatasync). */
    static void write(Path file, long n) throws IOException {
        ByteBuffer b = ByteBuffer.allocateDirect(BLOCK);
        for (int i = 0; i < BLOCK; i += 4) b.putInt(i, i * 0x9E3779B9);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long left = n;
            while (left > 0) {
                b.clear();
                b.limit((int) Math.min(BLOCK, left));
                while (b.hasRemaining()) left -= ch.write(b);
            }
            ch.force(false);
        }
    }
}
