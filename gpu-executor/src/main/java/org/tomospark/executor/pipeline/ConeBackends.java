package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackendKeys;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.cuda.CudaFdk;
import org.tomospark.executor.backend.opencl.OpenClFdk;
import org.tomospark.executor.cone.ConeBackprojector;
import org.tomospark.executor.cone.ConeGeometry;
import org.tomospark.executor.cone.ConeVolume;
import org.tomospark.executor.cone.FdkBackprojector;

/**
 * The FDK back-projector of a backend: the same backend ids and the same auto-selection as parallel beam
 * ({@link Backends#resolve}), each backend's cone-beam kernels behind {@link ConeBackprojector}. On cuda,
 * cuda.allowTextureWeights selects the texture mode (half precision and the texture unit: faster, 5e-3 instead of 1e-5
 * of the Java reference).
 */
public final class ConeBackends {
    private ConeBackends() {
    }

    /**
     * @param id          backend id or auto
     * @param maxBandRows the most detector rows a slab's band holds
     * @param maxSlices   the most slices a slab holds
     */
    public static ConeBackprojector open(String id, BackendOptions options, ConeGeometry g, ConeVolume vol, int maxBandRows,
                                         int maxSlices) {
        String resolved = Backends.resolve(id).id();
        return switch (resolved) {
            case "cuda" -> new CudaFdk(g, vol, maxBandRows, maxSlices, options.device(),
                    options.get(BackendKeys.CUDA_ALLOW_TEXTURE_WEIGHTS) ? CudaFdk.Mode.TEXTURE : CudaFdk.Mode.EXACT);
            case "opencl" -> new OpenClFdk(g, vol, maxBandRows, maxSlices, options.device());
            default -> new FdkBackprojector(g, vol);
        };
    }
}
