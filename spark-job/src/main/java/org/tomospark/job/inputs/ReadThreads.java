package org.tomospark.job.inputs;

import org.apache.spark.TaskContext;
import org.tomospark.executor.inputs.ReadOptions;

/**
 * How many threads one band read may use: inside a Spark task the task's {@code spark.task.cpus}, so concurrent
 * tasks of an executor do not oversubscribe its cores; elsewhere (the driver, the direct engine) every available
 * processor.
 */
public final class ReadThreads {
    private ReadThreads() {
    }

    public static int current() {
        TaskContext task = TaskContext.get();
        return task != null ? Math.max(1, task.cpus()) : Runtime.getRuntime().availableProcessors();
    }

    /** Direct reads on {@link #current()} threads. */
    public static ReadOptions options() {
        return ReadOptions.threads(current());
    }
}
