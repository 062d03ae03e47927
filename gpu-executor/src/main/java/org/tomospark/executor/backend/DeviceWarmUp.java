package org.tomospark.executor.backend;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a GPU's CUDA context and kernels on a background thread, once per device and JVM, while the caller does other
 * work (the driver plans, the direct engine reads the flats, an executor waits for its first task). The context and
 * the loaded modules belong to the device for the JVM's life, so the first group's processor finds them ready. A device
 * that cannot be opened is only logged here: the first group that uses it fails with the reason.
 */
public final class DeviceWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceWarmUp.class);
    private static final Map<String, Thread> STARTED = new ConcurrentHashMap<>();

    private DeviceWarmUp() {
    }

    /** Starts opening CUDA on each device (an index or Spark GPU address) not already opened or being opened. */
    public static void cuda(Iterable<String> devices) {
        for (String d : devices) STARTED.computeIfAbsent(d, DeviceWarmUp::start);
    }

    /**
     * For a run on backend {@code id} (cuda, or auto where it would pick cuda): starts opening the device of
     * {@code options}. Other backends open nothing.
     */
    public static void forBackend(String id, BackendOptions options) {
        if (!Backends.mayRunOnCuda(id)) return;
        String device = options.device();
        STARTED.computeIfAbsent(device == null || device.isBlank() ? "0" : device, DeviceWarmUp::start);
    }

    /**
     * Starts the CUDA driver's probe (its native library loaded, {@code cuInit}: the larger part of a context's second on
     * the GPU machines) on a background thread, before a command knows its backend or device: no context is created and
     * no device is taken, so a run that ends up elsewhere loses nothing but the probe. The probe's answer is cached for
     * the JVM ({@link NativeProbe}); a later {@link #forBackend} finds it done.
     */
    public static void probeCudaEarly() {
        Thread t = new Thread(() -> {
            for (BackendProvider p : Backends.providers())
                if (p.id().equals("cuda")) p.unavailableReason();
        }, "tomospark-cuda-probe");
        t.setDaemon(true);
        t.start();
    }

    private static Thread start(String device) {
        Thread t = new Thread(() -> {
            long t0 = System.nanoTime();
            try {
                // no CUDA here (auto on a CPU machine): nothing to open, and nothing to say
                for (BackendProvider p : Backends.providers())
                    if (p.id().equals("cuda") && p.unavailableReason() != null) return;
                Backends.open("cuda", BackendOptions.defaults().withDevice(device)).close();
                LOG.info("GPU {}: CUDA opened ahead of the first group in {} ms", device, (System.nanoTime() - t0) / 1_000_000);
            } catch (RuntimeException | LinkageError e) {
                LOG.info("GPU {}: not opened ahead ({}); the first group that uses it will", device, e.toString());
            }
        }, "tomospark-gpu-warm-up-" + device);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
