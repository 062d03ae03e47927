package org.tomospark.bench;

import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static jcuda.driver.JCudaDriver.CU_MEMHOSTREGISTER_PORTABLE;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemHostRegister;
import static jcuda.driver.JCudaDriver.cuMemHostUnregister;

/**
 * What a process's end costs once it has used a GPU as a reconstruction does: the CUDA driver's primary context,
 * {@code DEVICE_GIB} of device memory and {@code HOST_GIB} of direct host memory registered with the driver in 16 MiB
 * frames. With {@code release}, everything is given back before the exit (device memory freed, frames unregistered,
 * the context released) and each step timed; without, the driver and the kernel tear it down as the process exits.
 * Prints {@code exit-call EPOCH_MS} just before {@code System.exit}, for a caller that times the process's end.
 * <pre>CudaExitProbe DEVICE_GIB HOST_GIB [release|keep|none]</pre>
 * ({@code none}: no CUDA at all, the JVM's own exit).
 */
public final class CudaExitProbe {
    private static final long FRAME = 16L << 20;

    private CudaExitProbe() {
    }

    public static void main(String[] args) {
        double deviceGib = Double.parseDouble(args[0]), hostGib = Double.parseDouble(args[1]);
        String mode = args.length > 2 ? args[2] : "keep";
        List<ByteBuffer> frames = new ArrayList<>();
        long t = System.nanoTime();
        for (long b = 0; b < hostGib * (1L << 30); b += FRAME) {
            ByteBuffer f = ByteBuffer.allocateDirect((int) FRAME);
            for (int i = 0; i < FRAME; i += 4096) f.put(i, (byte) 1);
            frames.add(f);
        }
        t = lap("host frames allocated and touched", t);
        if (!mode.equals("none")) {
            JCudaDriver.setExceptionsEnabled(true);
            cuInit(0);
            CUdevice dev = new CUdevice();
            cuDeviceGet(dev, 0);
            CUcontext ctx = new CUcontext();
            cuDevicePrimaryCtxRetain(ctx, dev);
            cuCtxSetCurrent(ctx);
            t = lap("driver initialised, primary context retained", t);
            CUdeviceptr mem = new CUdeviceptr();
            long bytes = (long) (deviceGib * (1L << 30));
            if (bytes > 0) cuMemAlloc(mem, bytes);
            t = lap("device memory allocated", t);
            for (ByteBuffer f : frames) cuMemHostRegister(Pointer.to(f), FRAME, CU_MEMHOSTREGISTER_PORTABLE);
            t = lap("frames registered", t);
            if (mode.equals("release")) {
                for (ByteBuffer f : frames) cuMemHostUnregister(Pointer.to(f));
                t = lap("frames unregistered", t);
                if (bytes > 0) cuMemFree(mem);
                t = lap("device memory freed", t);
                cuDevicePrimaryCtxRelease(dev);
                lap("primary context released", t);
            }
        }
        System.out.println("exit-call " + System.currentTimeMillis());
        System.out.flush();
        System.exit(0);
    }

    private static long lap(String what, long t0) {
        long now = System.nanoTime();
        System.out.printf(Locale.ROOT, "%s: %.3f s%n", what, (now - t0) / 1e9);
        return now;
    }
}
