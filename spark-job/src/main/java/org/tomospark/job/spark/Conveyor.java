package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.resource.ResourceProfile;
import org.apache.spark.resource.ResourceProfileBuilder;
import org.apache.spark.resource.TaskResourceRequests;

/**
 * How an executor's GPUs are kept fed: a conveyor of slice groups, each read on the executor's free cores, processed on
 * one of its GPUs and handed to its writers. The one formula, from the executor's cores C and GPUs G and
 * {@code job.tasksPerDevice} T (the groups one GPU processes at once):
 * <ul>
 *   <li>depth D = G × (T + 1): each GPU has T groups on it and one more read ahead;</li>
 *   <li>at most 2D groups in flight in each executor JVM, from the start of their read to the end of their commit: D
 *       read or processed, D more whose slices wait for the writers (so a slow disk holds the GPUs back instead of
 *       filling the memory); the memory plan gives each of them its share of the executor's memory;</li>
 *   <li>on a cluster the group stage runs with D task slots per executor, {@code spark.task.cpus} = ⌊C / D⌋ (a task
 *       resource profile, so the user's {@code spark.task.*} settings are not needed, and tasks the executor cannot
 *       start yet wait in the scheduler, where another executor takes them, not in this one's slots);</li>
 *   <li>each executor JVM reads and processes at most D groups at once, whatever Spark's slots (local mode runs every
 *       core's task);</li>
 *   <li>reads take as many of the C cores as other reads leave free, the writers are C threads, shared by the tasks;</li>
 *   <li>groups: at least four for each slot of the application, so that every executor gets work and the last groups
 *       are short ({@link MemoryPlanner}, within the memory budgets).</li>
 * </ul>
 * A CPU backend has no conveyor: one task per core, as Spark schedules it.
 */
final class Conveyor {
    /** Groups planned for each conveyor slot of the application, at least. */
    static final int GROUPS_PER_SLOT = 4;

    private Conveyor() {
    }

    /** Groups an executor with {@code gpus} GPUs reads and processes at once; 0 for a CPU backend (no bound). */
    static int depth(int gpus, int tasksPerDevice) {
        return gpus <= 0 ? 0 : gpus * (tasksPerDevice + 1);
    }

    /**
     * The task resource profile of the group stage on a cluster: {@code spark.task.cpus} = executor cores / depth, no
     * task GPU amount (the tasks share their executor's GPUs). Null where Spark's own settings stand: local mode (no task
     * profiles there), a CPU backend, executor cores or GPUs not set, or {@code spark.task.cpus} or
     * {@code spark.task.resource.gpu.amount} set by the user.
     */
    static ResourceProfile profile(SparkConf conf, boolean local, boolean gpus, int tasksPerDevice) {
        if (local || !gpus || conf.contains("spark.task.cpus") || conf.contains("spark.task.resource.gpu.amount")) return null;
        int cores = conf.getInt("spark.executor.cores", 0);
        int depth = depth(executorGpus(conf), tasksPerDevice);
        if (cores <= 0 || depth <= 0) return null;
        int cpus = Math.max(1, cores / depth);
        return new ResourceProfileBuilder().require(new TaskResourceRequests().cpus(cpus)).build();
    }

    /**
     * Slots of the whole application for planning groups: the conveyor depth of each executor times the executors
     * (those registered, at least one), or {@code fallback} (Spark's task slots) without a conveyor.
     */
    static int applicationSlots(SparkConf conf, boolean local, int localDevices, int executors, int tasksPerDevice, int fallback) {
        if (local) {
            int d = depth(localDevices, tasksPerDevice);
            return d > 0 ? d : fallback;
        }
        int d = depth(executorGpus(conf), tasksPerDevice);
        return d > 0 ? d * Math.max(1, executors) : fallback;
    }

    /** Groups an executor JVM of conveyor depth {@code depth} holds in memory at once, from read to commit (2D). */
    static int inFlight(int depth) {
        return 2 * depth;
    }

    /**
     * Slice groups an executor JVM of a GPU backend holds in memory at once, among which the memory plan shares its
     * memory: the conveyor's task slots on a cluster (its task resource profile); otherwise Spark's task slots
     * ({@code sparkSlots}: every core's task in local mode), but never more than the conveyor's groups in flight, since
     * the other tasks wait holding nothing. {@code localDevices}: local mode's GPUs (job.devices; none = the default one).
     */
    static int groupsHeld(SparkConf conf, boolean local, int localDevices, int tasksPerDevice, int sparkSlots) {
        if (profile(conf, local, true, tasksPerDevice) != null) return depth(executorGpus(conf), tasksPerDevice);
        int gpus = Math.max(1, local ? localDevices : executorGpus(conf));
        return Math.max(1, Math.min(sparkSlots, inFlight(depth(gpus, tasksPerDevice))));
    }

    /** Whole GPUs of an executor ({@code spark.executor.resource.gpu.amount}, 0 when not set). */
    static int executorGpus(SparkConf conf) {
        String key = "spark.executor.resource.gpu.amount";
        if (!conf.contains(key)) return 0;
        try {
            return (int) Math.floor(Double.parseDouble(conf.get(key).trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": not a number: '" + conf.get(key) + "'", e);
        }
    }
}
