package org.tomospark.job.spark;

import org.apache.spark.ExceptionFailure;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.DeviceWarmUp;
import org.tomospark.executor.backends.cuda.CudaException;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The executor side of {@link ExecutorGpuPlugin}: the owner of the executor JVM's GPU state beyond single tasks.
 * <ul>
 *   <li>At start it opens the executor's GPUs ahead and readies the JVM for its first task ({@link ExecutorWarmUp}).</li>
 *   <li>At shutdown it closes the processors {@link ExecutorResources} caches (their backends, device buffers and
 *       kernels), so that the device memory is given back even when the JVM lives on (a notebook's local mode).</li>
 *   <li>When a task fails with a sticky CUDA error ({@link CudaException#sticky()}), the device's context is corrupt
 *       and every later task of this JVM would fail on it. The owner says so in the executor's log and stops the JVM
 *       with {@link #STICKY_DEVICE_ERROR_EXIT}; Spark sees the executor lost and runs the task again on another one
 *       (a fresh executor gets a fresh context). Retrying on the broken device would only use up the task's attempts.
 *       In local mode the executor is the driver's own JVM: it is not stopped, and the run fails with the error.</li>
 * </ul>
 */
final class ExecutorGpuOwner implements ExecutorPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorGpuOwner.class);
    /** Exit status of an executor stopped after a sticky device error; Spark's own executor exit statuses are 50 to 58. */
    static final int STICKY_DEVICE_ERROR_EXIT = 44;
    /** How long the JVM's shutdown hooks may take before the stop is forced. */
    static final long EXIT_GRACE_SECONDS = 30;
    private static final String DRIVER = "driver";

    private final IntConsumer exit;
    private volatile String executorId = "?";

    ExecutorGpuOwner() {
        this(ExecutorGpuOwner::exitJvm);
    }

    /** {@code exit}: what stops the JVM with a status (tests record it instead). */
    ExecutorGpuOwner(IntConsumer exit) {
        this.exit = exit;
    }

    @Override
    public void init(PluginContext ctx, Map<String, String> extraConf) {
        executorId = ctx.executorID();
        ResourceInformation gpus = ctx.resources().get("gpu");
        List<String> addresses = gpus == null ? List.of() : List.of(gpus.addresses());
        if (!DRIVER.equals(executorId)) {
            ExecutorResources.executorGpus(addresses);
            DeviceWarmUp.onDevices("auto", addresses);
            ExecutorWarmUp.start(executorId);
        }
        LOG.info("executor {}: tomospark owns this executor's GPU state (GPUs {}, cached processors, sticky device errors)",
                executorId, addresses);
    }

    @Override
    public void shutdown() {
        int closed = ExecutorResources.closeIdle();
        LOG.info("executor {}: shutting down, closed {} cached processor(s)", executorId, closed);
    }

    @Override
    public void onTaskFailed(TaskFailedReason reason) {
        CudaException sticky = stickyCause(reason);
        if (sticky == null) return;
        if (DRIVER.equals(executorId)) {
            LOG.error("executor driver (local mode): a task failed with a sticky CUDA error ({}); the driver's JVM is not "
                    + "stopped, so its device stays unusable until the JVM exits", sticky.getMessage());
            return;
        }
        String message = "executor " + executorId + ": a task failed with a sticky CUDA error: " + sticky.getMessage()
                + "; stopping this executor (exit status " + STICKY_DEVICE_ERROR_EXIT + ") so that Spark runs its tasks on "
                + "another executor";
        LOG.error(message);
        System.err.println("error: " + message);
        System.err.flush();
        exit.accept(STICKY_DEVICE_ERROR_EXIT);
    }

    /** The first sticky {@link CudaException} among the failure's exception, its causes and their suppressed ones, or null. */
    static CudaException stickyCause(TaskFailedReason reason) {
        if (!(reason instanceof ExceptionFailure ef) || ef.exception().isEmpty()) return null;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> todo = new ArrayDeque<>();
        todo.add(ef.exception().get());
        while (!todo.isEmpty()) {
            Throwable t = todo.poll();
            if (!seen.add(t)) continue;
            if (t instanceof CudaException c && c.sticky()) return c;
            if (t.getCause() != null) todo.add(t.getCause());
            for (Throwable s : t.getSuppressed()) todo.add(s);
        }
        return null;
    }

    /** System.exit, forced by Runtime.halt if the shutdown hooks have not finished in {@link #EXIT_GRACE_SECONDS}. */
    private static void exitJvm(int status) {
        Thread force = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(EXIT_GRACE_SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(status);
        }, "tomospark-exit");
        force.setDaemon(true);
        force.start();
        System.exit(status);
    }
}
