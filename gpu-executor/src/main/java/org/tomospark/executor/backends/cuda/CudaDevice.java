package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backend.NativeProbe;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.JCudaDriver;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Owns one device per JVM: its primary context (created lazily on first use, shared by every backend on that
 * device, never destroyed while the JVM runs) and the "unusable" mark set by a sticky error. How many tasks use a
 * device at once is bounded by the caller (job.tasksPerDevice under Spark), in one place. Also probes the driver once
 * and caches the answer.
 */
final class CudaDevice {
    private static final Map<Integer, CudaDevice> DEVICES = new ConcurrentHashMap<>();
    private static final NativeProbe PROBE =
            new NativeProbe("the CUDA driver", CudaDevice::probe);
    private static volatile int deviceCount;

    final int index;
    final CUdevice device = new CUdevice();
    final CUcontext context = new CUcontext();
    final String name;
    final int smCount;
    final int ccMajor, ccMinor;
    final long totalMem;
    final int maxSharedOptin;
    /** Shared memory of an SM, and what the driver reserves of it for each block. */
    final int sharedPerSm, reservedSharedPerBlock;
    private volatile String unusable;
    /** The context's page-locked host buffers, kept across processors (pipelines of one shape reuse them). */
    final PinnedPool pinned = new PinnedPool(PinnedPool.CUDA, PinnedPool.DEFAULT_KEEP_BYTES);

    private CudaDevice(int index) {
        this.index = index;
        JCudaDriver.cuDeviceGet(device, index);
        JCudaDriver.cuDevicePrimaryCtxRetain(context, device);
        JCudaDriver.cuCtxSetCurrent(context);
        byte[] nm = new byte[256];
        JCudaDriver.cuDeviceGetName(nm, nm.length, device);
        int len = 0;
        while (len < nm.length && nm[len] != 0) len++;
        name = new String(nm, 0, len, StandardCharsets.US_ASCII);
        smCount = attr(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        ccMajor = attr(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        ccMinor = attr(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        maxSharedOptin = attr(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        sharedPerSm = attr(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
        reservedSharedPerBlock = attr(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
        long[] tm = new long[1];
        JCudaDriver.cuDeviceTotalMem(tm, device);
        totalMem = tm[0];
    }

    private int attr(int a) {
        int[] v = new int[1];
        JCudaDriver.cuDeviceGetAttribute(v, a, device);
        return v[0];
    }

    /**
     * Null if the CUDA driver can be used here, else why not. Probed once per JVM: without a GPU the first
     * JCudaDriver call throws UnsatisfiedLinkError (libcuda.so.1 missing), and later ones NoClassDefFoundError.
     */
    static String unavailableReason() {
        return PROBE.unavailableReason();
    }

    private static String probe() {
        try {
            JCudaDriver.setExceptionsEnabled(true);
            JCudaDriver.cuInit(0);
            int[] n = new int[1];
            JCudaDriver.cuDeviceGetCount(n);
            deviceCount = n[0];
            if (n[0] == 0) return "the CUDA driver loaded but reports no CUDA device";
            return "";
        } catch (UnsatisfiedLinkError e) {
            return "the CUDA driver cannot be loaded (no NVIDIA GPU/driver here: libcuda.so.1 or JCuda's native library missing): "
                    + firstLine(e.getMessage());
        } catch (NoClassDefFoundError e) {
            return "JCuda's driver class failed to initialise earlier (no CUDA driver here): " + firstLine(e.getMessage());
        } catch (jcuda.CudaException e) {
            return "cuInit failed: " + CudaException.nameFrom(e.getMessage());
        } catch (Throwable t) {
            return "probing the CUDA driver failed: " + t;
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "(no message)";
        int i = s.indexOf('\n');
        return (i < 0 ? s : s.substring(0, i)).trim();
    }

    static int deviceCount() {
        String r = unavailableReason();
        if (r != null) throw new BackendUnavailableException("cuda backend unavailable: " + r);
        return deviceCount;
    }

    /**
     * Parses the device option: empty = 0; an index; or a Spark GPU address (e.g. "1", "gpu1", "cuda:1"): the last
     * integer in it.
     */
    static int parseDevice(String s) {
        if (s == null || s.isBlank()) return 0;
        Matcher m = Pattern.compile("(\\d+)(?!.*\\d)").matcher(s.trim());
        if (!m.find()) throw new IllegalArgumentException("backend.device '" + s
                + "': expected a device index or a Spark GPU address containing one");
        return Integer.parseInt(m.group(1));
    }

    static CudaDevice get(int index) {
        int n = deviceCount();
        if (index < 0 || index >= n)
            throw new IllegalArgumentException("backend.device " + index + " does not exist: this machine has " + n + " CUDA device(s)");
        return DEVICES.computeIfAbsent(index, i -> {
            try {
                return new CudaDevice(i);
            } catch (jcuda.CudaException e) {
                throw new CudaException("opening CUDA device " + i, CudaException.nameFrom(e.getMessage()), e);
            }
        });
    }

    /**
     * Gives back every device this JVM opened, when nothing uses them (a command's run is done): the registered slice
     * frames unregistered, the pinned buffers unpinned, the primary contexts released (destroyed, as nothing else
     * retains them). Measured on an H200 with 3 GiB of registered frames: 0.13 s here and 0.18 s for the process's
     * exit, against 0.46 s for an exit that leaves it to the driver. A later {@link #get} opens the device anew; an
     * object still holding a released device gets a clear error. Devices marked unusable are left as they are.
     */
    static synchronized void releaseAll() {
        if (DEVICES.isEmpty()) return;
        FrameRegistry.releaseAll();
        for (CudaDevice d : List.copyOf(DEVICES.values())) {
            if (!d.usable()) continue;
            DEVICES.remove(d.index);
            JCudaDriver.cuCtxSetCurrent(d.context);
            d.pinned.release();
            d.markUnusable("its context was given back when the run was done");
            JCudaDriver.cuCtxSetCurrent(new CUcontext());
            JCudaDriver.cuDevicePrimaryCtxRelease(d.device);
        }
    }

    /** Binds the shared context to the calling thread. */
    void makeCurrent() {
        checkUsable();
        JCudaDriver.cuCtxSetCurrent(context);
    }

    void checkUsable() {
        String u = unusable;
        if (u != null)
            throw new IllegalStateException("cuda device " + index + " (" + name + ") is unusable after a sticky error: " + u
                    + "; restart the executor");
    }

    void markUnusable(String why) {
        if (unusable == null) unusable = why;
    }

    boolean usable() {
        return unusable == null;
    }

    String describe() {
        return String.format("cuda:%d %s (sm_%d%d, %d SMs, %.1f GiB)", index, name, ccMajor, ccMinor, smCount,
                totalMem / (double) (1L << 30));
    }
}
