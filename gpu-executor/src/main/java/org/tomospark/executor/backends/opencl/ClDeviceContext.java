package org.tomospark.executor.backends.opencl;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_image_format;
import org.jocl.cl_program;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_DEVICE_EXTENSIONS;
import static org.jocl.CL.CL_DEVICE_GLOBAL_MEM_SIZE;
import static org.jocl.CL.CL_DEVICE_IMAGE2D_MAX_HEIGHT;
import static org.jocl.CL.CL_DEVICE_IMAGE2D_MAX_WIDTH;
import static org.jocl.CL.CL_DEVICE_IMAGE_SUPPORT;
import static org.jocl.CL.CL_DEVICE_LOCAL_MEM_SIZE;
import static org.jocl.CL.CL_DEVICE_MAX_COMPUTE_UNITS;
import static org.jocl.CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE;
import static org.jocl.CL.CL_DEVICE_MAX_WORK_GROUP_SIZE;
import static org.jocl.CL.CL_MEM_OBJECT_IMAGE2D;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clGetSupportedImageFormats;
import static org.jocl.CL.clReleaseProgram;

/**
 * One OpenCL context on one device, shared by every backend instance of the JVM (see
 * {@link ClRuntime#context}), with the device's limits and a cache of built programs keyed by
 * SHA-256(source) + build options (the device is fixed per context). Programs are thread-safe to share;
 * kernels and queues are not and belong to each backend instance.
 */
public final class ClDeviceContext {
    private static final Logger LOG = LoggerFactory.getLogger(ClDeviceContext.class);
    /** The build option that keeps the kernels' parameter names and types for {@link ClKernel}. */
    static final String KERNEL_ARG_INFO = "-cl-kernel-arg-info";

    private final ClRuntime.DeviceInfo info;
    private final cl_context context;
    private final Map<String, cl_program> programs = new ConcurrentHashMap<>();
    private final Set<Long> imageFormats = new HashSet<>(); // (order << 32) | type
    final boolean imageSupport;
    final long maxAlloc;
    final long globalMem;
    final long localMem;
    final long image2dMaxWidth;
    final long image2dMaxHeight;
    final long maxWorkGroup;
    final String extensions;
    final int computeUnits;

    ClDeviceContext(ClRuntime.DeviceInfo info) {
        this.info = info;
        cl_device_id d = info.device();
        cl_context_properties props = new cl_context_properties();
        props.addProperty(CL_CONTEXT_PLATFORM, info.platform());
        try {
            context = clCreateContext(props, 1, new cl_device_id[]{d}, null, null, null);
        } catch (CLException e) {
            throw new OpenClException("could not create an OpenCL context on " + info + ": " + CL.stringFor_errorCode(e.getStatus()), e);
        }
        imageSupport = ClRuntime.deviceLong(d, CL_DEVICE_IMAGE_SUPPORT) != 0;
        maxAlloc = ClRuntime.deviceLong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        globalMem = ClRuntime.deviceLong(d, CL_DEVICE_GLOBAL_MEM_SIZE);
        localMem = ClRuntime.deviceLong(d, CL_DEVICE_LOCAL_MEM_SIZE);
        maxWorkGroup = ClRuntime.deviceLong(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
        computeUnits = (int) ClRuntime.deviceLong(d, CL_DEVICE_MAX_COMPUTE_UNITS);
        extensions = ClRuntime.deviceString(d, CL_DEVICE_EXTENSIONS);
        if (imageSupport) {
            image2dMaxWidth = ClRuntime.deviceLong(d, CL_DEVICE_IMAGE2D_MAX_WIDTH);
            image2dMaxHeight = ClRuntime.deviceLong(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
            int[] n = new int[1];
            clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, null, n);
            cl_image_format[] f = new cl_image_format[n[0]];
            for (int i = 0; i < f.length; i++) f[i] = new cl_image_format();
            clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, n[0], f, null);
            for (cl_image_format x : f)
                imageFormats.add(((long) x.image_channel_order << 32) | (x.image_channel_data_type & 0xffffffffL));
        } else {
            image2dMaxWidth = 0;
            image2dMaxHeight = 0;
        }
        LOG.info("opencl: context created on {}; images {}, max alloc {} MiB", info, imageSupport, maxAlloc >> 20);
    }

    public ClRuntime.DeviceInfo info() {
        return info;
    }

    cl_context context() {
        return context;
    }

    /** Whether read-only 2D images of this channel order and type can be created (e.g. CL_RG on PoCL: no). */
    public boolean supportsImageFormat(int channelOrder, int channelType) {
        return imageFormats.contains(((long) channelOrder << 32) | (channelType & 0xffffffffL));
    }

    public boolean hasExtension(String ext) {
        for (String e : extensions.split("\\s+")) if (e.equals(ext)) return true;
        return false;
    }

    /**
     * The program for this source and options, built on first request and cached for the context.
     * A build failure throws with the compiler's build log.
     */
    cl_program program(ClProgramSpec spec) {
        return program(spec.file(), KernelSources.get(spec.file()), spec.options());
    }

    /** Builds (or takes from the cache) a program from this source text and options: tests build altered sources. */
    cl_program program(String name, String source, String options) {
        String key = sha256(source) + "|" + options;
        cl_program p = programs.get(key);
        if (p != null) return p;
        synchronized (programs) {
            p = programs.get(key);
            if (p != null) return p;
            p = build(name, source, options);
            programs.put(key, p);
            return p;
        }
    }

    /** Number of programs built (tests check the cache). */
    int programCount() {
        return programs.size();
    }

    private cl_program build(String name, String source, String options) {
        long t0 = System.nanoTime();
        // no lengths: the source is passed whole, NUL-terminated (a length in chars would cut a non-ASCII source short,
        // the driver counting bytes)
        cl_program p = clCreateProgramWithSource(context, 1, new String[]{source}, null, null);
        try {
            // with the kernels' parameter names and types kept: ClArgs binds arguments by name (ClKernel)
            clBuildProgram(p, 1, new cl_device_id[]{info.device()}, options + " " + KERNEL_ARG_INFO, null, null);
        } catch (CLException e) {
            String log = buildLog(p);
            clReleaseProgram(p);
            throw new OpenClException("OpenCL build of kernels/" + name + " with options '" + options + "' failed on "
                    + info + " (" + CL.stringFor_errorCode(e.getStatus()) + "). Build log:\n" + log, e);
        }
        LOG.info("opencl: built {} [{}] in {} ms", name, options, (System.nanoTime() - t0) / 1_000_000);
        return p;
    }

    private String buildLog(cl_program p) {
        try {
            long[] size = new long[1];
            clGetProgramBuildInfo(p, info.device(), CL_PROGRAM_BUILD_LOG, 0, null, size);
            byte[] b = new byte[(int) size[0]];
            clGetProgramBuildInfo(p, info.device(), CL_PROGRAM_BUILD_LOG, b.length, Pointer.to(b), null);
            int len = 0;
            while (len < b.length && b[len] != 0) len++;
            return new String(b, 0, len, StandardCharsets.UTF_8).strip();
        } catch (CLException e) {
            return "(no build log: " + CL.stringFor_errorCode(e.getStatus()) + ")";
        }
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
