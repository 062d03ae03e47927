package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.ConeBackprojector;
import org.tomospark.executor.backend.GroupShape;
import org.tomospark.executor.backend.Operation;
import org.tomospark.executor.backend.SolveFootprint;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.geometry.ConeGeometry;
import org.tomospark.executor.geometry.ConeVolume;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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

    @Override
    public Set<Operation> operations() {
        return EnumSet.allOf(Operation.class);
    }

    /** cuda.allowTextureWeights selects the texture mode (half precision and the texture unit: faster, 5e-3 of the Java reference). */
    @Override
    public ConeBackprojector openFdk(ConeGeometry g, ConeVolume vol, int maxBandRows, int maxSlices, BackendOptions options) {
        return new CudaFdk(g, vol, maxBandRows, maxSlices, options.device(),
                options.get(CudaKeys.ALLOW_TEXTURE_WEIGHTS) ? CudaFdk.Mode.TEXTURE : CudaFdk.Mode.EXACT);
    }

    /** The whole solve on the device (kernels/joseph.cu and kernels/iterative.cu): no projection crosses the bus. */
    @Override
    public SolverOps openSolverOps(ScanGeometry scan, SliceGeometry grid, int k, BackendOptions options) {
        return new CudaSolverOps(scan, grid, k, options.device());
    }

    /** Up to 32 slices as the device's memory allows: the kernels gain most from wide passes. */
    @Override
    public int iterativeSlicesPerPass(ScanGeometry scan, SliceGeometry full, SolveFootprint footprint, int groupSlices,
                                      BackendOptions options) {
        return CudaSolverOps.defaultSlicesPerPass(scan, full, footprint, groupSlices, options.device());
    }

    /** One group's uploads, kernels and downloads leave the GPU idle part of the time: the next group's fill it. */
    @Override
    public boolean overlapsGroups() {
        return true;
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
        return List.of(CudaKeys.CHUNK_SLICES, CudaKeys.PROCESSORS_PER_DEVICE, CudaKeys.MEMORY_FRACTION,
                CudaKeys.HOST_THREADS, CudaKeys.TUNING_CACHE, CudaKeys.AUTOTUNE,
                CudaKeys.CORRECT_ON_DEVICE);
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

    /** CUDA runs on the GPUs Spark assigns (their addresses are CUDA device ordinals). */
    @Override
    public boolean runsOnAssignedGpus() {
        return true;
    }

    /** The device's context, its modules and their kernels, kept for the JVM, are made by a backend's setup. */
    @Override
    public void openAhead(String device) {
        BackprojectionBackend b = create();
        try {
            b.setup(BackendOptions.defaults().withDevice(device));
        } finally {
            b.close();
        }
    }

    /** Each processor's chunk pipeline and memory share are sized for the processors sharing its GPU. */
    @Override
    public BackendOptions sharingOneDevice(BackendOptions o, int processors) {
        String key = CudaKeys.PROCESSORS_PER_DEVICE.name();
        return o.extra().containsKey(key) ? o : o.withExtra(key, Integer.toString(processors));
    }

    /** The fallback table's kernel on every device, unless autotuning is asked for. */
    @Override
    public BackendOptions sameBytesOnEveryDevice(BackendOptions o) {
        String key = CudaKeys.AUTOTUNE.name();
        return o.extra().containsKey(key) ? o : o.withExtra(key, "false");
    }

    @Override
    public boolean correctsOnDevice(BackendOptions o) {
        return o.get(CudaKeys.CORRECT_ON_DEVICE);
    }

    /** Its processors write their slices into registered host frames (DMA from the device). */
    @Override
    public boolean fillsDirectFrames() {
        return true;
    }

    @Override
    public List<ConfigKey<?>> keys() {
        return CudaKeys.ALL;
    }
}
