package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

import java.util.Arrays;

import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleGetGlobal;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleLoadDataEx;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The three modules of a backend on the current context (each backend loads its own: the back-projection module's
 * {@code __constant__} projection table is per module): back-projection, ramp filter, flat/dark correction, from the
 * packaged {@link KernelBuild}. Driver calls only.
 */
final class CudaModules implements AutoCloseable {
    private final KernelBuild build;
    private CUmodule backproject, filter, correct;

    /** Loads the modules into the calling thread's current context. */
    CudaModules(KernelBuild build) {
        this.build = build;
        try {
            backproject = load("backproject");
            filter = load("filter");
            correct = load("preprocess");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private CUmodule load(String name) {
        return load(build, name);
    }

    /** Loads module {@code name} of {@code build} into the calling thread's current context. */
    static CUmodule load(KernelBuild build, String name) {
        CUmodule m = new CUmodule();
        byte[] bytes = build.module(name);
        if (build.fatbin()) {
            cuModuleLoadData(m, bytes);
        } else {
            // PTX text must be NUL-terminated for the driver's JIT
            cuModuleLoadDataEx(m, Pointer.to(Arrays.copyOf(bytes, bytes.length + 1)), 0, new int[0], Pointer.to(new int[0]));
        }
        return m;
    }

    CUfunction backprojection(String name) {
        return function(build, backproject, name);
    }

    CUfunction filter(String name) {
        return function(build, filter, name);
    }

    CUfunction correction(String name) {
        return function(build, correct, name);
    }

    /** The texture kernels' projection table in constant memory; {@code bytes[0]} receives its size. */
    CUdeviceptr projectionConstants(long[] bytes) {
        CUdeviceptr p = new CUdeviceptr();
        cuModuleGetGlobal(p, bytes, backproject, "c_proj");
        return p;
    }

    /** Function {@code name} of module {@code m}, failing with advice when the packaged kernels lack it. */
    static CUfunction function(KernelBuild build, CUmodule m, String name) {
        CUfunction f = new CUfunction();
        try {
            cuModuleGetFunction(f, m, name);
        } catch (jcuda.CudaException e) {  // JCuda's, not this package's CudaException
            throw new IllegalStateException("cuda: kernel " + name + " is not in the loaded module (" + build.source()
                    + "): rebuild kernels (kernels/build-ptx.sh)", e);
        }
        return f;
    }

    /**
     * Function {@code name} of module {@code m}, or null where the module has none (a kernel built for some
     * architectures only: CUDA_ERROR_NOT_FOUND); any other failure is thrown.
     */
    static CUfunction functionIfPresent(CUmodule m, String name) {
        CUfunction f = new CUfunction();
        try {
            cuModuleGetFunction(f, m, name);
            return f;
        } catch (jcuda.CudaException e) {  // JCuda's, not this package's CudaException
            if (String.valueOf(e.getMessage()).contains("CUDA_ERROR_NOT_FOUND")) return null;
            throw e;
        }
    }

    /** Unloads what was loaded. */
    @Override
    public void close() {
        for (CUmodule m : new CUmodule[]{backproject, filter, correct}) if (m != null) cuModuleUnload(m);
        backproject = filter = correct = null;
    }
}
