package org.tomospark.job.spark;

import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backends.java.JavaBackend;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.pipeline.SliceGroupProcessor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Per-executor-JVM state, shared by all tasks of the JVM: which device a task uses, at most
 * {@code job.tasksPerDevice} tasks per GPU at once, and a cache of set-up backends/processors keyed by device
 * and job, so a GPU context (and its kernels, tables and buffers) is created once per JVM and reused by every
 * later task instead of per task.
 */
public final class ExecutorResources {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorResources.class);

    private static final Map<String, Semaphore> DEVICE_PERMITS = new ConcurrentHashMap<>();
    private static final Map<String, ConcurrentLinkedQueue<SliceGroupProcessor>> IDLE = new ConcurrentHashMap<>();
    private static final Map<String, Integer> CREATED = new ConcurrentHashMap<>();
    private static final Map<String, AtomicInteger> IN_USE = new ConcurrentHashMap<>();
    private static final Map<String, Integer> MAX_IN_USE = new ConcurrentHashMap<>();
    private static volatile List<String> executorGpus = List.of();
    private static volatile BlockingQueue<String> localDevices;
    private static volatile List<String> localDeviceList;
    private static volatile boolean autoFallbackLogged;

    private ExecutorResources() {
    }

    /** The device a task runs on and how it got it. */
    public record Assignment(String device, String source) {
    }

    /**
     * The task's GPU: Spark's task resources ({@code spark.task.resource.gpu.amount}) if any; otherwise the least busy
     * of the executor's own GPUs ({@code spark.executor.resource.gpu.amount} alone: every task of the executor shares
     * them, {@code job.tasksPerDevice} at a time); otherwise, in local mode, one address of {@code localDevices} taken
     * for the task's duration (so each concurrent task has its own device); otherwise none ("").
     */
    static Assignment acquireDevice(List<String> devices, int tasksPerDevice) throws InterruptedException {
        TaskContext tc = TaskContext.get();
        if (tc != null) {
            ResourceInformation gpu = tc.resources().get("gpu").getOrElse(() -> null);
            if (gpu != null && gpu.addresses().length > 0) return spreadOverExecutorGpus(gpu.addresses()[0]);
            if (!executorGpus.isEmpty()) return leastBusyExecutorGpu();
        }
        if (!devices.isEmpty()) {
            BlockingQueue<String> q = localQueue(devices, tasksPerDevice);
            String d = q.take();
            int now = IN_USE.computeIfAbsent(d, k -> new AtomicInteger()).incrementAndGet();
            MAX_IN_USE.merge(d, now, Math::max);
            return new Assignment(d, "local");
        }
        return new Assignment("", "none");
    }

    static void releaseDevice(Assignment a) {
        if (a.source().equals("local")) {
            IN_USE.get(a.device()).decrementAndGet();
            localDevices.add(a.device());
        } else if (a.source().startsWith("spark") || a.source().equals("executor")) {
            IN_USE.get(a.device()).decrementAndGet();
        }
    }

    /**
     * The executor's GPU addresses (from the executor plugin's resources), so that a task can move off a GPU that
     * Spark filled first while another of the executor's GPUs idles ({@link GpuSpread}).
     */
    static void executorGpus(List<String> addresses) {
        executorGpus = List.copyOf(addresses);
    }

    private static synchronized Assignment spreadOverExecutorGpus(String assigned) {
        Map<String, Integer> running = new HashMap<>();
        IN_USE.forEach((d, n) -> running.put(d, n.get()));
        String d = GpuSpread.choose(assigned, executorGpus, running);
        int now = IN_USE.computeIfAbsent(d, k -> new AtomicInteger()).incrementAndGet();
        MAX_IN_USE.merge(d, now, Math::max);
        return new Assignment(d, d.equals(assigned) ? "spark" : "spark, moved from " + assigned);
    }

    private static final Map<Integer, Semaphore> BANDS = new ConcurrentHashMap<>();

    /**
     * The conveyor's bound on this JVM ({@link Conveyor}): a permit to read and process one slice group, of
     * {@code depth} shared by the JVM's tasks; null when there is no bound (a CPU backend, depth 0). Release it once the
     * group is processed: its slices then go to the writers while the next group is read.
     */
    static Semaphore bandPermits(int depth) {
        return depth <= 0 ? null : BANDS.computeIfAbsent(depth, Semaphore::new);
    }

    private static final Map<Integer, Semaphore> FLIGHTS = new ConcurrentHashMap<>();

    /**
     * The conveyor's other bound on this JVM: a permit to hold one slice group in memory, from its read to its commit, of
     * {@code inFlight} shared by the JVM's tasks; null when there is no bound (0).
     */
    static Semaphore flightPermits(int inFlight) {
        return inFlight <= 0 ? null : FLIGHTS.computeIfAbsent(inFlight, Semaphore::new);
    }

    /** The GPUs this JVM's tasks share: the executor's (from its plugin), or local mode's job.devices. */
    static int gpusOfThisJvm(List<String> localDevices) {
        return !executorGpus.isEmpty() ? executorGpus.size() : localDevices.size();
    }

    /** The executor's GPU with the fewest of its tasks on it now (the first of equals). */
    private static synchronized Assignment leastBusyExecutorGpu() {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String d : executorGpus) {
            AtomicInteger n = IN_USE.get(d);
            int now = n == null ? 0 : n.get();
            if (now < fewest) {
                fewest = now;
                best = d;
            }
        }
        int now = IN_USE.computeIfAbsent(best, k -> new AtomicInteger()).incrementAndGet();
        MAX_IN_USE.merge(best, now, Math::max);
        return new Assignment(best, "executor");
    }

    private static synchronized BlockingQueue<String> localQueue(List<String> devices, int perDevice) {
        if (localDevices == null || !devices.equals(localDeviceList)) {
            LinkedBlockingQueue<String> q = new LinkedBlockingQueue<>();
            for (int i = 0; i < perDevice; i++) q.addAll(devices);
            localDevices = q;
            localDeviceList = List.copyOf(devices);
        }
        return localDevices;
    }

    /**
     * The backend id a task uses: {@code auto} becomes the host's ({@link Backends#planned}) when no GPU is assigned
     * (said once per JVM); a named
     * backend is used as given, so cuda without a GPU fails in {@link Backends#resolve} with its reason.
     */
    static String backendFor(String requested, String device) {
        if (requested.equals("auto") && device.isEmpty()) {
            String onHost = Backends.planned("auto", false).id();
            if (!autoFallbackLogged) {
                autoFallbackLogged = true;
                LOG.warn("backend auto: no GPU is assigned to this task (no spark.task.resource.gpu, job.devices or "
                        + "spark.driver.resource.gpu); using {}", onHost);
            }
            return onHost;
        }
        return requested;
    }

    /** Holds the device's permit and a processor until closed. */
    public static final class Lease implements AutoCloseable {
        private final String key;
        private final Semaphore permit;
        final SliceGroupProcessor processor;
        private boolean closed;

        private Lease(String key, Semaphore permit, SliceGroupProcessor processor) {
            this.key = key;
            this.permit = permit;
            this.processor = processor;
        }

        @Override
        public void close() {
            if (closed) return;
            closed = true;
            IDLE.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>()).add(processor);
            if (permit != null) permit.release();
        }

        /** Drops the processor (after an error: its device state is unknown). */
        void discard() {
            if (closed) return;
            closed = true;
            try {
                processor.close();
            } finally {
                if (permit != null) permit.release();
            }
        }
    }

    /**
     * Borrows a processor for (backend, device, job signature), creating one (and its backend) only when all
     * cached ones are in use. GPU devices are bounded by a semaphore of {@code tasksPerDevice} permits.
     */
    static Lease lease(String backend, String device, String signature, int tasksPerDevice,
                       Function<BackprojectionBackend, SliceGroupProcessor> make,
                       Supplier<BackendOptions> options) throws InterruptedException {
        // a GPU backend with no device assigned uses its default device: bounded like any other
        String permitKey = device.isEmpty() && !backend.equals(JavaBackend.ID) ? backend + ":default" : device;
        Semaphore permit = permitKey.isEmpty() ? null : DEVICE_PERMITS.computeIfAbsent(permitKey, d -> new Semaphore(tasksPerDevice));
        if (permit != null) permit.acquire();
        try {
            String key = backend + "|" + device + "|" + signature;
            SliceGroupProcessor p = IDLE.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>()).poll();
            if (p == null) {
                evictOtherJobs(backend + "|" + device + "|", key);
                BackprojectionBackend b = Backends.open(backend, options.get().withDevice(device));
                try {
                    p = make.apply(b);
                } catch (RuntimeException e) {
                    b.close();
                    throw e;
                }
                CREATED.merge(key, 1, Integer::sum);
                LOG.info("executor: created processor #{} for {} on device '{}' ({})", CREATED.get(key), backend, device,
                        b.deviceDescription());
            }
            return new Lease(key, permit, p);
        } catch (RuntimeException | Error e) {
            if (permit != null) permit.release();
            throw e;
        }
    }

    /** The most tasks that held a local-mode device at once (tests check one device per concurrent task). */
    public static int maxConcurrentUse(String device) {
        return MAX_IN_USE.getOrDefault(device, 0);
    }

    /**
     * Closes idle processors of the same backend and device made for other jobs (other geometry or parameters),
     * so a long-lived executor (a notebook session) holds device memory for one job at a time.
     */
    private static void evictOtherJobs(String prefix, String keep) {
        for (Map.Entry<String, ConcurrentLinkedQueue<SliceGroupProcessor>> e : IDLE.entrySet())
            if (e.getKey().startsWith(prefix) && !e.getKey().equals(keep)) closeAll(e.getValue());
    }

    /**
     * Closes every idle cached processor, with its backend and device buffers (the executor is shutting down, see
     * {@link ExecutorGpuOwner}); a failure to close one is logged and the others are still closed. Returns how many
     * were closed. A later task creates new ones.
     */
    static int closeIdle() {
        int closed = 0;
        for (ConcurrentLinkedQueue<SliceGroupProcessor> idle : IDLE.values()) closed += closeAll(idle);
        return closed;
    }

    /** Closes and removes every processor of {@code idle}; returns how many closed cleanly. */
    private static int closeAll(ConcurrentLinkedQueue<SliceGroupProcessor> idle) {
        int closed = 0;
        SliceGroupProcessor p;
        while ((p = idle.poll()) != null) {
            try {
                p.close();
                closed++;
            } catch (RuntimeException | Error e) {
                LOG.warn("executor: closing an idle processor failed: {}", e.toString());
            }
        }
        return closed;
    }

    /** Processors created in this JVM so far, for all keys (tests check the reuse). */
    public static int processorsCreated() {
        return CREATED.values().stream().mapToInt(Integer::intValue).sum();
    }
}
