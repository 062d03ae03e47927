package org.tomospark.executor.backend;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a backend on a GPU on a background thread, once per backend, device and JVM, while the caller does other work
 * (the driver plans, the direct engine reads the flats, an executor waits for its first task): the backends that
 * {@linkplain BackendProvider#runsOnAssignedGpus run on the GPUs a run is given}, through their
 * {@link BackendProvider#openAhead}. What they open (a context, loaded kernels) belongs to the device for the JVM's
 * life, so the first group's processor finds it ready. A device that cannot be opened is only logged here: the first
 * group that uses it fails with the reason.
 */
public final class DeviceWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceWarmUp.class);
    private static final Map<String, Thread> STARTED = new ConcurrentHashMap<>();

    private DeviceWarmUp() {
    }

    /**
     * Starts opening, on each device (an index or Spark GPU address), the backends a run asking for {@code backendId}
     * may use there ({@link Backends#onAssignedGpus}; auto: every one), where not already opened or being opened.
     */
    public static void onDevices(String backendId, Iterable<String> devices) {
        for (BackendProvider p : Backends.onAssignedGpus(backendId))
            for (String d : devices) STARTED.computeIfAbsent(p.id() + "/" + d, k -> start(p, d));
    }

    /** For a run on backend {@code id}: starts opening it on the device of {@code options} (its first where none is set). */
    public static void forBackend(String id, BackendOptions options) {
        String device = options.device();
        onDevices(id, List.of(device == null || device.isBlank() ? "0" : device));
    }

    /**
     * Starts the probes of the backends that run on GPUs (a driver's native library loaded and initialised: the larger
     * part of a context's second on the GPU machines) on a background thread, before a command knows its backend or
     * device: no context is created and no device is taken, so a run that ends up elsewhere loses nothing but the probe.
     * Each answer is cached for the JVM ({@link NativeProbe}); a later {@link #forBackend} finds it done.
     */
    public static void probeGpusEarly() {
        Thread t = new Thread(() -> {
            for (BackendProvider p : Backends.onAssignedGpus("auto")) p.unavailableReason();
        }, "tomospark-gpu-probe");
        t.setDaemon(true);
        t.start();
    }

    private static Thread start(BackendProvider p, String device) {
        Thread t = new Thread(() -> {
            long t0 = System.nanoTime();
            try {
                // not usable here (auto on a CPU machine): nothing to open, and nothing to say
                if (p.unavailableReason() != null) return;
                p.openAhead(device);
                LOG.info("GPU {}: {} opened ahead of the first group in {} ms", device, p.id(), (System.nanoTime() - t0) / 1_000_000);
            } catch (RuntimeException | LinkageError e) {
                LOG.info("GPU {}: {} not opened ahead ({}); the first group that uses it will", device, p.id(), e.toString());
            }
        }, "tomospark-gpu-warm-up-" + p.id() + "-" + device);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
