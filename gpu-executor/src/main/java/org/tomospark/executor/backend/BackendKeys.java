package org.tomospark.executor.backend;

import org.tomospark.executor.config.ConfigKey;

import java.util.List;
import java.util.Locale;

/**
 * The settings of each backend, as typed config keys: documented in conf/CONFIG.md, settable from the command line,
 * Spark and the notebook API like every key, carried to the backend in {@link BackendOptions#extra()} and read there
 * with {@link BackendOptions#get}. Each key's default, validator and documentation live here and nowhere else.
 */
public final class BackendKeys {
    private BackendKeys() {
    }

    private static final String CUDA = "Backend: cuda";
    private static final String OPENCL = "Backend: opencl";
    private static final String JAVA = "Backend: java";

    public static final ConfigKey<Integer> CUDA_CHUNK_SLICES = ConfigKey.integer(CUDA, "cuda.chunkSlices",
            "Slices per chunk of the CUDA pipeline (one chunk is uploaded while the one before is computed and the one "
                    + "before that downloaded); rounded to the kernel's slices per pass and shrunk to fit device memory. "
                    + "0: the slices of one block of the kernel (32 for the tensor-core kernels), at least 8, or at least 4 where "
                    + "several processors share the GPU (cuda.processorsPerDevice).", 0, 0, 4096);
    public static final ConfigKey<Integer> CUDA_PROCESSORS_PER_DEVICE = ConfigKey.integer(CUDA, "cuda.processorsPerDevice",
            "Group processors that use one GPU at once: the Spark engine sets it to job.tasksPerDevice, the direct engine to "
                    + "direct.groupsPerDevice. With more than one, their pipelines overlap one another, and the automatic chunk "
                    + "(cuda.chunkSlices) is 4 slices: less pinned host memory to set up per processor, shorter fills and drains per "
                    + "group.", 1, 1, 1024);
    public static final ConfigKey<Double> CUDA_MEMORY_FRACTION = ConfigKey.decimal(CUDA, "cuda.memoryFraction",
            "Share of the device's free memory (less 256 MiB) one CUDA backend may allocate.", "0.8", 0.01, 1);
    public static final ConfigKey<Boolean> CUDA_AUTOTUNE = ConfigKey.bool(CUDA, "cuda.autotune",
            "With backend.variant=auto and no cached choice for the device: time every kernel variant of the mode once and "
                    + "cache the fastest (cuda.tuningCache). false: take the fallback table's variant, the same on every "
                    + "device of a kind (so every executor of a job computes the same bytes).", true);
    public static final ConfigKey<String> CUDA_TUNING_CACHE = ConfigKey.string(CUDA, "cuda.tuningCache",
            "File of the per-device auto-tuning choices; empty: ~/.cache/tomospark/cuda-tuning.properties.", "");
    public static final ConfigKey<Integer> CUDA_HOST_THREADS = ConfigKey.integer(CUDA, "cuda.hostThreads",
            "Threads that copy between Java arrays and pinned buffers; 0: min(8, cores).", 0, 0, 1024);
    public static final ConfigKey<Boolean> CUDA_ALLOW_TEXTURE_WEIGHTS = ConfigKey.bool(CUDA, "cuda.allowTextureWeights",
            "Whether auto-tuning may choose variants interpolated with the texture unit's 8-bit weights (about 1.5e-3 off on "
                    + "white noise, outside the 1e-5 float32 and 1e-3 half accuracy). Cone beam: whether FDK back-projects in its "
                    + "texture mode, the band in half precision and a share of the projections filtered by the texture unit "
                    + "(about 1.5x faster; within 5e-3 of the Java reference instead of 1e-5).",
            false);
    public static final ConfigKey<Boolean> CUDA_CORRECT_ON_DEVICE = ConfigKey.bool(CUDA, "cuda.correctOnDevice",
            "Upload uint16 counts as they are and do the flat/dark correction and -log on the device, when the job filters "
                    + "there and has no other sinogram stage (half the bytes over PCIe, no per-sample host work); the "
                    + "sinograms equal the host's bit for bit.", true);

    public static final ConfigKey<String> OPENCL_COORDS = ConfigKey.of(OPENCL, "opencl.coords",
            "Arithmetic of the detector coordinate: auto (double on CPU devices and for nearest, float for linear on GPUs), "
                    + "float, double (needs cl_khr_fp64).", "auto", BackendKeys::lower,
            v -> v.equals("auto") || v.equals("float") || v.equals("double"), "auto, float, double");
    public static final ConfigKey<String> OPENCL_FILTER = ConfigKey.of(OPENCL, "opencl.filter",
            "Where the ramp filter runs: host, or device (an FFT kernel).", "host", BackendKeys::lower,
            v -> v.equals("host") || v.equals("device"), "host, device");
    public static final ConfigKey<String> OPENCL_IMAGES = ConfigKey.of(OPENCL, "opencl.images",
            "auto: image kernels where the device has images; off: the local-memory ALU kernel only.", "auto",
            BackendKeys::lower, v -> v.equals("auto") || v.equals("off"), "auto, off");
    public static final ConfigKey<Integer> OPENCL_ALU_GROUP = ConfigKey.integer(OPENCL, "opencl.alu.group",
            "Work-group edge of the ALU kernel (group x group work-items).", 16, 1, 64);
    public static final ConfigKey<Integer> OPENCL_ALU_PIX = ConfigKey.integer(OPENCL, "opencl.alu.pix",
            "Pixels per work-item of the ALU kernel, along a row.", 2, 1, 16);
    public static final ConfigKey<Boolean> OPENCL_PROFILE = ConfigKey.bool(OPENCL, "opencl.profile",
            "Profile the kernels (event timing, reported by the benchmarks).", false).internal();
    public static final ConfigKey<String> OPENCL_DEFINE = ConfigKey.string(OPENCL, "opencl.define",
            "Extra -D options for the OpenCL build (kernel experiments and tests).", "").internal();

    public static final ConfigKey<Integer> JAVA_TILE = ConfigKey.integer(JAVA, "java.tile",
            "Edge in pixels of the square tiles the java backend spreads over its threads.", 32, 4, 4096);
    public static final ConfigKey<Integer> JAVA_PROJECTION_CHUNK = ConfigKey.integer(JAVA, "java.projectionChunk",
            "Projections per pass over a tile (keeps the touched part of the compound sinogram in cache).", 128, 1, 1 << 20);

    /** Every backend key, in declaration order. */
    public static final List<ConfigKey<?>> ALL = List.of(CUDA_CHUNK_SLICES, CUDA_PROCESSORS_PER_DEVICE, CUDA_MEMORY_FRACTION,
            CUDA_AUTOTUNE, CUDA_TUNING_CACHE, CUDA_HOST_THREADS, CUDA_ALLOW_TEXTURE_WEIGHTS, CUDA_CORRECT_ON_DEVICE, OPENCL_COORDS,
            OPENCL_FILTER, OPENCL_IMAGES, OPENCL_ALU_GROUP, OPENCL_ALU_PIX, OPENCL_PROFILE, OPENCL_DEFINE, JAVA_TILE,
            JAVA_PROJECTION_CHUNK);

    private static String lower(String s) {
        return s.trim().toLowerCase(Locale.ROOT);
    }
}
