package org.tomospark.executor.backend.cuda;

import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.GroupShape;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.config.ConfigKey;

import java.util.List;

/** Registers the CUDA backend (id "cuda"); preferred by {@code auto} when a CUDA driver and device are present. */
public final class CudaBackendProvider implements BackendProvider {
    @Override
    public String id() {
        return CudaBackend.ID;
    }

    @Override
    public String unavailableReason() {
        return CudaDevice.unavailableReason();
    }

    @Override
    public BackprojectionBackend create() {
        String r = unavailableReason();
        if (r != null) throw new BackendUnavailableException("backend 'cuda' cannot run here: " + r);
        return new CudaBackend();
    }

    /**
     * Passes of 8 (half) or 4 (float32) slices; groups of 32 fill a tensor-core block (four groups of 8 or eight of 4),
     * and smaller batches make auto fall back from the tensor-core kernels to slower ones.
     */
    @Override
    public GroupShape groupShape(BackendOptions o) {
        return new GroupShape(CudaBackend.slicesPerPass(o), TENSOR_BLOCK_SLICES);
    }

    /**
     * The kernel (variant, slices per pass, storage, interpolation, whether texture weights may be chosen) decides the
     * bytes; how the pipeline is cut into chunks, where the correction runs (the same operations on host and device),
     * threads, memory shares and the tuning cache do not.
     */
    @Override
    public List<ConfigKey<?>> settingsThatKeepBytes() {
        return List.of(BackendKeys.CUDA_CHUNK_SLICES, BackendKeys.CUDA_PROCESSORS_PER_DEVICE, BackendKeys.CUDA_MEMORY_FRACTION,
                BackendKeys.CUDA_HOST_THREADS, BackendKeys.CUDA_TUNING_CACHE, BackendKeys.CUDA_AUTOTUNE,
                BackendKeys.CUDA_CORRECT_ON_DEVICE);
    }

    /** Unregisters the slice frames, unpins the pinned buffers and releases the primary contexts this JVM opened. */
    @Override
    public void releaseBeforeExit() {
        CudaDevice.releaseAll();
    }

    /** Slices one tensor-core block back-projects. */
    static final int TENSOR_BLOCK_SLICES = 32;

    @Override
    public int autoPriority() {
        return 10;
    }
}
