package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.BackendOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The threads that copy slices between Java arrays and the pinned buffers of the chunk pipeline: one pool per JVM,
 * shared by every CUDA backend (tasks and auto-tuning's backends alike), sized by the first backend's
 * {@code cuda.hostThreads} (0: min(8, cores)); daemon threads, never shut down.
 */
final class HostCopyPool {
    private static volatile ExecutorService pool;

    private HostCopyPool() {
    }

    /** Copies slice {@code s} of a chunk. */
    interface SliceTask {
        void run(int s);
    }

    static ExecutorService get(BackendOptions options) {
        ExecutorService p = pool;
        if (p == null) {
            synchronized (HostCopyPool.class) {
                p = pool;
                if (p == null) {
                    int n = options.get(CudaKeys.HOST_THREADS);
                    int threads = n > 0 ? n : Math.min(8, Runtime.getRuntime().availableProcessors());
                    p = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
                        Thread t = new Thread(r, "tomospark-cuda-host-copy");
                        t.setDaemon(true);
                        return t;
                    });
                    pool = p;
                }
            }
        }
        return p;
    }

    /** Threads of a pool made here (1 for any other executor). */
    static int threads(ExecutorService pool) {
        return pool instanceof ThreadPoolExecutor t ? t.getMaximumPoolSize() : 1;
    }

    /** Runs the task for slices 0..n on the pool (on the calling thread for one slice) and waits for all. */
    static void parallel(ExecutorService pool, int n, SliceTask task) {
        if (n == 1) {
            task.run(0);
            return;
        }
        List<Future<?>> fs = new ArrayList<>(n);
        for (int s = 0; s < n; s++) {
            final int ss = s;
            fs.add(pool.submit(() -> task.run(ss)));
        }
        for (Future<?> f : fs) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while copying host buffers", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("host buffer copy failed: " + e.getCause(), e.getCause());
            }
        }
    }
}
