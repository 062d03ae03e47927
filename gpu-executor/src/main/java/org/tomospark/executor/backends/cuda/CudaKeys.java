package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.config.ConfigKey;

import java.util.List;

/**
 * The settings of the CUDA backend, as typed config keys: documented in conf/CONFIG.md, settable from the command line, Spark
 * and the notebook API like every key (its provider lists them, {@code keys()}), carried to the backend in
 * {@code BackendOptions.extra()} and read here with {@code BackendOptions.get}. Each key's default, validator and
 * documentation live here and nowhere else.
 */
public final class CudaKeys {
    private static final String CATEGORY = "Backend: cuda";

    public static final ConfigKey<Integer> CHUNK_SLICES = ConfigKey.integer(CATEGORY, "cuda.chunkSlices",
            "Slices per chunk of the CUDA pipeline (one chunk is uploaded while the one before is computed and the one "
                    + "before that downloaded); rounded to the kernel's slices per pass and shrunk to fit device memory. "
                    + "0: the slices of one block of the kernel (32 for the tensor-core kernels), at least 8, or at least 4 where "
                    + "several processors share the GPU (cuda.processorsPerDevice).", 0, 0, 4096);
    public static final ConfigKey<Integer> PROCESSORS_PER_DEVICE = ConfigKey.integer(CATEGORY, "cuda.processorsPerDevice",
            "Group processors that use one GPU at once: the Spark engine sets it to job.tasksPerDevice, the direct engine to "
                    + "direct.groupsPerDevice. With more than one, their pipelines overlap one another, and the automatic chunk "
                    + "(cuda.chunkSlices) is 4 slices: less pinned host memory to set up per processor, shorter fills and drains per "
                    + "group.", 1, 1, 1024);
    public static final ConfigKey<Double> MEMORY_FRACTION = ConfigKey.decimal(CATEGORY, "cuda.memoryFraction",
            "Share of the device's free memory (less 256 MiB) one CUDA backend may allocate.", "0.8", 0.01, 1);
    public static final ConfigKey<Boolean> AUTOTUNE = ConfigKey.bool(CATEGORY, "cuda.autotune",
            "With backend.variant=auto: the device's cached choice (cuda.tuningCache), else time every kernel variant of the "
                    + "mode once and cache the fastest. false: the fallback table's variant, whatever a cache holds, the same on "
                    + "every device of a kind (so every executor of a job computes the same bytes).", true);
    public static final ConfigKey<String> TUNING_CACHE = ConfigKey.string(CATEGORY, "cuda.tuningCache",
            "File of the per-device auto-tuning choices; empty: ~/.cache/tomospark/cuda-tuning.properties.", "");
    public static final ConfigKey<Integer> HOST_THREADS = ConfigKey.integer(CATEGORY, "cuda.hostThreads",
            "Threads that copy between Java arrays and pinned buffers; 0: min(8, cores).", 0, 0, 1024);
    public static final ConfigKey<Boolean> ALLOW_TEXTURE_WEIGHTS = ConfigKey.bool(CATEGORY, "cuda.allowTextureWeights",
            "Whether auto-tuning may choose variants interpolated with the texture unit's 8-bit weights (about 1.5e-3 off on "
                    + "white noise, outside the 1e-5 float32 and 1e-3 half accuracy). Cone beam: whether FDK back-projects in its "
                    + "texture mode, the band in half precision and a share of the projections filtered by the texture unit "
                    + "(about 1.5x faster; within 5e-3 of the Java reference instead of 1e-5).",
            false);
    public static final ConfigKey<Boolean> CORRECT_ON_DEVICE = ConfigKey.bool(CATEGORY, "cuda.correctOnDevice",
            "Upload uint16 counts as they are and do the flat/dark correction and -log on the device, when the job filters "
                    + "there and has no other sinogram stage (half the bytes over PCIe, no per-sample host work); the "
                    + "sinograms equal the host's bit for bit.", true);

    /** Every key of this backend, in declaration order. */
    public static final List<ConfigKey<?>> ALL = List.of(CHUNK_SLICES, PROCESSORS_PER_DEVICE, MEMORY_FRACTION,
            AUTOTUNE, TUNING_CACHE, HOST_THREADS, ALLOW_TEXTURE_WEIGHTS, CORRECT_ON_DEVICE);

    private CudaKeys() {
    }
}
