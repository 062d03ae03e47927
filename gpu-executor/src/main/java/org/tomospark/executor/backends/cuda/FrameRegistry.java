package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;
import jcuda.driver.CUcontext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.memory.SliceFrames;

import java.util.IdentityHashMap;
import java.util.Map;

import static jcuda.driver.JCudaDriver.CU_MEMHOSTREGISTER_PORTABLE;
import static jcuda.driver.JCudaDriver.cuCtxGetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuMemHostRegister;
import static jcuda.driver.JCudaDriver.cuMemHostUnregister;

/**
 * The direct slice frames registered with the CUDA driver (their pages pinned, for every context of the process), so
 * that a device copies slices straight into them. Only the JVM's lasting frames ({@link SliceFrames}) are registered:
 * they are never freed while registered; a frame the pool releases is unregistered first. Registration runs at 18–24 GB/s
 * on the GPU machines, once per frame. Where the driver refuses it, the frames are filled through the pipeline's own
 * pinned buffers instead (one host copy more), and the refusal is logged once.
 */
final class FrameRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(FrameRegistry.class);
    /** Each registered frame, with the device whose context registered it (made current to unregister it). */
    private static final Map<SliceFrame, CudaDevice> REGISTERED = new IdentityHashMap<>();
    private static boolean refused;

    static {
        SliceFrames.jvm().addListener(FrameRegistry::release);
    }

    private FrameRegistry() {
    }

    /**
     * Whether the device may copy into {@code f} directly: a lasting direct frame, registered now (on the calling
     * thread's current context, which must be {@code dev}'s) if it was not. False for heap frames, frames no pool keeps,
     * and after the driver refused a registration.
     */
    static boolean ensure(SliceFrame f, CudaDevice dev) {
        if (!f.isDirect() || !f.lasting()) return false;
        synchronized (FrameRegistry.class) {
            if (REGISTERED.containsKey(f)) return true;
            if (refused) return false;
            try {
                cuMemHostRegister(Pointer.to(f.memory()), f.memory().capacity(), CU_MEMHOSTREGISTER_PORTABLE);
            } catch (jcuda.CudaException e) {  // JCuda's
                String name = CudaException.nameFrom(e.getMessage());
                if (CudaException.isSticky(name)) throw e;
                refused = true;
                LOG.warn("cuda: the driver refused to register a slice frame ({}); slices are copied through pinned buffers", name);
                return false;
            }
            REGISTERED.put(f, dev);
            return true;
        }
    }

    /** Where the device writes the frame's pixels (a registered frame's). */
    static Pointer pixels(SliceFrame f) {
        return Pointer.to(f.pixelBytes());
    }

    /**
     * Unregisters every registered frame (each on its device's context), before the devices are given back; a frame a
     * device fills later is registered again.
     */
    static void releaseAll() {
        Map<SliceFrame, CudaDevice> all;
        synchronized (FrameRegistry.class) {
            all = new IdentityHashMap<>(REGISTERED);
            REGISTERED.clear();
        }
        for (Map.Entry<SliceFrame, CudaDevice> e : all.entrySet()) {
            if (!e.getValue().usable()) continue;
            e.getValue().makeCurrent();
            cuMemHostUnregister(Pointer.to(e.getKey().memory()));
        }
    }

    /** Unregisters a frame the pool is about to release. */
    private static void release(SliceFrame f) {
        CudaDevice dev;
        synchronized (FrameRegistry.class) {
            dev = REGISTERED.remove(f);
        }
        if (dev == null || !dev.usable()) return;
        // the calling thread may drive another device: its own context is put back afterwards
        CUcontext before = new CUcontext();
        try {
            cuCtxGetCurrent(before);
            dev.makeCurrent();
            cuMemHostUnregister(Pointer.to(f.memory()));
        } catch (jcuda.CudaException e) {  // JCuda's
            LOG.warn("cuda: unregistering a released slice frame failed: {}", CudaException.nameFrom(e.getMessage()));
        } finally {
            cuCtxSetCurrent(before);
        }
    }

    /** Whether {@code f} is registered now. */
    static synchronized boolean isRegistered(SliceFrame f) {
        return REGISTERED.containsKey(f);
    }
}
