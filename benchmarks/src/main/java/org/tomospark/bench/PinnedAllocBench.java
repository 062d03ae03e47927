package org.tomospark.bench;

import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemHostRegister;
import static jcuda.driver.JCudaDriver.cuMemHostUnregister;

/**
 * How fast the CUDA driver pins host memory on this machine, by the ways a pipeline could get its page-locked
 * buffers: {@code cuMemAllocHost} one buffer after another, the same from several threads at once, and
 * {@code cuMemHostRegister} of direct buffers the JVM has already zeroed (one thread and several). Each way pins the
 * same bytes (buffers × MiB) and frees them again; the times are printed with the rate.
 *
 * <pre>PinnedAllocBench [--buffers 4] [--mib 128] [--threads 4] [--device 0]</pre>
 */
public final class PinnedAllocBench {
    private PinnedAllocBench() {
    }

    public static void main(String[] args) throws Exception {
        int buffers = 4, mib = 128, threads = 4, device = 0;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--buffers" -> buffers = Integer.parseInt(args[i + 1]);
                case "--mib" -> mib = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--device" -> device = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        JCudaDriver.setExceptionsEnabled(true);
        long t0 = System.nanoTime();
        JCudaDriver.cuInit(0);
        CUdevice dev = new CUdevice();
        JCudaDriver.cuDeviceGet(dev, device);
        CUcontext ctx = new CUcontext();
        JCudaDriver.cuDevicePrimaryCtxRetain(ctx, dev);
        cuCtxSetCurrent(ctx);
        System.out.printf(Locale.ROOT, "context: %.3f s%n", (System.nanoTime() - t0) / 1e9);
        long bytes = (long) mib << 20;
        for (int round = 0; round < 2; round++) {
            report("allocHost, 1 thread", buffers, bytes, allocHost(ctx, buffers, bytes, 1));
            report("allocHost, " + threads + " threads", buffers, bytes, allocHost(ctx, buffers, bytes, threads));
            report("register zeroed direct, 1 thread", buffers, bytes, register(ctx, buffers, bytes, 1));
            report("register zeroed direct, " + threads + " threads", buffers, bytes, register(ctx, buffers, bytes, threads));
        }
    }

    private static void report(String what, int buffers, long bytes, double[] secs) {
        double gb = buffers * (double) bytes / 1e9;
        System.out.printf(Locale.ROOT, "%-40s %d x %d MiB: pin %.3f s (%.2f GB/s), free %.3f s%n", what, buffers,
                bytes >> 20, secs[0], gb / secs[0], secs[1]);
    }

    /** Seconds to pin and to free {@code buffers} buffers with cuMemAllocHost on {@code threads} threads. */
    private static double[] allocHost(CUcontext ctx, int buffers, long bytes, int threads) throws Exception {
        List<Pointer> ps = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Pointer p : onThreads(ctx, buffers, threads, i -> {
            Pointer p = new Pointer();
            cuMemAllocHost(p, bytes);
            return p;
        })) ps.add(p);
        long t1 = System.nanoTime();
        for (Pointer p : ps) cuMemFreeHost(p);
        return new double[]{(t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9};
    }

    /** The same with direct buffers (zeroed by the JVM, outside the timing) registered with cuMemHostRegister. */
    private static double[] register(CUcontext ctx, int buffers, long bytes, int threads) throws Exception {
        List<ByteBuffer> bbs = new ArrayList<>();
        for (int i = 0; i < buffers; i++) bbs.add(ByteBuffer.allocateDirect((int) Math.min(bytes, Integer.MAX_VALUE - 8)));
        long t0 = System.nanoTime();
        List<Pointer> ps = onThreads(ctx, buffers, threads, i -> {
            Pointer p = Pointer.to(bbs.get(i));
            cuMemHostRegister(p, bbs.get(i).capacity(), 0);
            return p;
        });
        long t1 = System.nanoTime();
        for (Pointer p : ps) cuMemHostUnregister(p);
        return new double[]{(t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9};
    }

    interface Pin {
        Pointer pin(int i);
    }

    private static List<Pointer> onThreads(CUcontext ctx, int n, int threads, Pin pin) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Pointer>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                fs.add(ex.submit(() -> {
                    cuCtxSetCurrent(ctx);
                    return pin.pin(k);
                }));
            }
            List<Pointer> out = new ArrayList<>();
            for (Future<Pointer> f : fs) out.add(f.get());
            return out;
        } finally {
            ex.shutdown();
        }
    }
}
