package org.tomospark.executor.backends.cuda;

import jcuda.driver.CUdeviceptr;

import java.util.ArrayList;
import java.util.List;

import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;

/** Device buffers that an owner allocates one by one and frees together, on its device's current context. */
final class Allocations {
    private final List<CUdeviceptr> buffers = new ArrayList<>();

    /** Allocates {@code bytes} into {@code d} and remembers it. */
    void alloc(CUdeviceptr d, long bytes) {
        cuMemAlloc(d, bytes);
        buffers.add(d);
    }

    /** Frees every buffer allocated so far. */
    void freeAll() {
        for (CUdeviceptr d : buffers) cuMemFree(d);
        buffers.clear();
    }
}
