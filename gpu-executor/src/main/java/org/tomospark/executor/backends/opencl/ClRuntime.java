package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;
import org.tomospark.executor.backend.NativeProbe;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import static org.jocl.CL.CL_DEVICE_NAME;
import static org.jocl.CL.CL_DEVICE_TYPE;
import static org.jocl.CL.CL_DEVICE_TYPE_ACCELERATOR;
import static org.jocl.CL.CL_DEVICE_TYPE_ALL;
import static org.jocl.CL.CL_DEVICE_TYPE_CPU;
import static org.jocl.CL.CL_DEVICE_TYPE_GPU;
import static org.jocl.CL.CL_PLATFORM_NAME;
import static org.jocl.CL.CL_PLATFORM_VENDOR;
import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetDeviceInfo;
import static org.jocl.CL.clGetPlatformIDs;
import static org.jocl.CL.clGetPlatformInfo;

/**
 * JVM-wide OpenCL state: the probe (is JOCL loadable, is there a platform), the device list, and one
 * shared {@link ClDeviceContext} per device, created on first use and kept for the life of the JVM
 * (executors run many tasks; creating a context per task would cost tens of milliseconds each).
 * Nothing here runs in a static initializer: the first call does the work.
 */
public final class ClRuntime {
    private static final NativeProbe PROBE =
            new NativeProbe("the OpenCL ICD loader and its drivers", ClRuntime::probe);
    private static volatile List<DeviceInfo> devices;
    private static final Map<String, ClDeviceContext> CONTEXTS = new ConcurrentHashMap<>();

    private ClRuntime() {
    }

    /** One OpenCL device, as enumerated. */
    public record DeviceInfo(int platformIndex, String platformName, String platformVendor, int deviceIndex,
                             String name, long type, cl_platform_id platform, cl_device_id device) {
        public String key() {
            return platformIndex + ":" + deviceIndex;
        }

        public boolean isGpu() {
            return (type & CL_DEVICE_TYPE_GPU) != 0;
        }

        public boolean isCpu() {
            return (type & CL_DEVICE_TYPE_CPU) != 0;
        }

        public String typeName() {
            if (isGpu()) return "GPU";
            if (isCpu()) return "CPU";
            if ((type & CL_DEVICE_TYPE_ACCELERATOR) != 0) return "accelerator";
            return "other";
        }

        @Override
        public String toString() {
            return name + " (" + typeName() + ", platform '" + platformName + "')";
        }
    }

    /** Null if OpenCL can be used here, else why not. Never throws; the answer is cached. */
    public static String unavailableReason() {
        return PROBE.unavailableReason();
    }

    private static String probe() {
        try {
            List<DeviceInfo> l = enumerate();
            if (l.isEmpty()) return "OpenCL platforms were found but they expose no devices";
            devices = List.copyOf(l);
            return "";
        } catch (OpenClException e) {
            return e.getMessage();
        } catch (LinkageError e) {
            return "the JOCL native library could not be loaded (" + e + ")";
        } catch (RuntimeException e) {
            return "OpenCL probe failed: " + e;
        }
    }

    private static List<DeviceInfo> enumerate() {
        CL.setExceptionsEnabled(true);
        int[] n = new int[1];
        try {
            clGetPlatformIDs(0, null, n);
        } catch (CLException e) {
            // the ICD loader answers CL_PLATFORM_NOT_FOUND_KHR (-1001) when no driver is registered
            throw new OpenClException("no OpenCL platform is installed (clGetPlatformIDs: " + CL.stringFor_errorCode(e.getStatus())
                    + "); install an ICD, e.g. Debian packages pocl-opencl-icd ocl-icd-opencl-dev, or a GPU driver", e);
        }
        if (n[0] == 0)
            throw new OpenClException("no OpenCL platform is installed (clGetPlatformIDs found 0); install an ICD, e.g. Debian "
                    + "pocl-opencl-icd");
        cl_platform_id[] platforms = new cl_platform_id[n[0]];
        clGetPlatformIDs(n[0], platforms, null);
        List<DeviceInfo> out = new ArrayList<>();
        for (int pi = 0; pi < platforms.length; pi++) {
            String pname = platformString(platforms[pi], CL_PLATFORM_NAME);
            String vendor = platformString(platforms[pi], CL_PLATFORM_VENDOR);
            int[] nd = new int[1];
            try {
                clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, 0, null, nd);
            } catch (CLException e) {
                continue; // CL_DEVICE_NOT_FOUND: a platform with no devices
            }
            cl_device_id[] devs = new cl_device_id[nd[0]];
            clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, nd[0], devs, null);
            for (int di = 0; di < devs.length; di++) {
                out.add(new DeviceInfo(pi, pname, vendor, di, deviceString(devs[di], CL_DEVICE_NAME).trim(),
                        deviceLong(devs[di], CL_DEVICE_TYPE), platforms[pi], devs[di]));
            }
        }
        return out;
    }

    /** All devices; throws {@link OpenClException} with the reason when OpenCL is unusable. */
    public static List<DeviceInfo> devices() {
        String r = unavailableReason();
        if (r != null) throw new OpenClException("OpenCL is not available: " + r);
        return devices;
    }

    /** Whether an OpenCL GPU is present (for {@code auto}). Never throws. */
    public static boolean hasGpu() {
        if (unavailableReason() != null) return false;
        return devices.stream().anyMatch(DeviceInfo::isGpu);
    }

    /** Picks a device by selector; the error lists what there is. */
    public static DeviceInfo select(DeviceSelector sel) {
        List<DeviceInfo> all = devices();
        List<DeviceInfo> cand = new ArrayList<>();
        for (DeviceInfo d : all) if (sel.platformMatches(d.platformName(), d.platformVendor())) cand.add(d);
        List<DeviceInfo> typed = new ArrayList<>();
        switch (sel.kind()) {
            case DEFAULT -> {
                for (DeviceInfo d : cand) if (d.isGpu()) typed.add(d);
                if (typed.isEmpty()) typed.addAll(cand);
            }
            case GPU -> cand.stream().filter(DeviceInfo::isGpu).forEach(typed::add);
            case CPU -> cand.stream().filter(DeviceInfo::isCpu).forEach(typed::add);
            case ACCELERATOR -> cand.stream().filter(d -> (d.type() & CL_DEVICE_TYPE_ACCELERATOR) != 0).forEach(typed::add);
            case ANY -> typed.addAll(cand);
        }
        if (sel.index() < typed.size()) return typed.get(sel.index());
        throw new OpenClException("opencl device selector '" + sel + "' matches " + typed.size() + " device(s), so index "
                + sel.index() + " does not exist; devices here: " + all);
    }

    /** The shared context of a device: created once per JVM, never released before exit. */
    public static ClDeviceContext context(DeviceInfo d) {
        return CONTEXTS.computeIfAbsent(d.key(), k -> new ClDeviceContext(d));
    }

    /** Number of contexts created so far (tests check sharing). */
    static int contextCount() {
        return CONTEXTS.size();
    }

    static String platformString(cl_platform_id p, int param) {
        long[] size = new long[1];
        clGetPlatformInfo(p, param, 0, null, size);
        byte[] b = new byte[(int) size[0]];
        clGetPlatformInfo(p, param, b.length, Pointer.to(b), null);
        return cString(b);
    }

    static String deviceString(cl_device_id d, int param) {
        long[] size = new long[1];
        clGetDeviceInfo(d, param, 0, null, size);
        byte[] b = new byte[(int) size[0]];
        clGetDeviceInfo(d, param, b.length, Pointer.to(b), null);
        return cString(b);
    }

    static long deviceLong(cl_device_id d, int param) {
        long[] size = new long[1];
        clGetDeviceInfo(d, param, 0, null, size);
        ByteBuffer bb = ByteBuffer.allocate((int) size[0]).order(ByteOrder.nativeOrder());
        clGetDeviceInfo(d, param, size[0], Pointer.to(bb), null);
        return switch ((int) size[0]) {
            case 4 -> bb.getInt(0) & 0xffffffffL;
            case 8 -> bb.getLong(0);
            default -> throw new IllegalStateException("device info " + param + " has unexpected size " + size[0]);
        };
    }

    static long[] deviceSizes(cl_device_id d, int param) {
        long[] size = new long[1];
        clGetDeviceInfo(d, param, 0, null, size);
        int n = (int) (size[0] / Sizeof.size_t);
        ByteBuffer bb = ByteBuffer.allocate((int) size[0]).order(ByteOrder.nativeOrder());
        clGetDeviceInfo(d, param, size[0], Pointer.to(bb), null);
        long[] r = new long[n];
        for (int i = 0; i < n; i++) r[i] = Sizeof.size_t == 8 ? bb.getLong(i * 8) : bb.getInt(i * 4) & 0xffffffffL;
        return r;
    }

    private static String cString(byte[] b) {
        int len = 0;
        while (len < b.length && b[len] != 0) len++;
        return new String(b, 0, len, StandardCharsets.UTF_8);
    }
}
