package org.tomospark.job.spark;

import org.apache.spark.TaskContext;
import org.tomospark.executor.util.Cancellation;

/**
 * A Spark task's {@link Cancellation}: its kill flag, which Spark sets when the task's job is cancelled or the task is
 * killed, also where it leaves the thread uninterrupted (a job group set with interruptOnCancel = false, as notebooks
 * set theirs), or its thread's interrupt.
 */
final class TaskCancellation {
    private TaskCancellation() {
    }

    /** The calling task's cancellation; outside a task, the calling thread's interrupt alone. */
    static Cancellation current() {
        Cancellation thread = Cancellation.ofCurrentThread();
        TaskContext tc = TaskContext.get();
        return tc == null ? thread : thread.or(tc::isInterrupted);
    }
}
