package org.tomospark.job.spark;

import org.apache.spark.SparkContext;

import java.util.List;

/**
 * The Spark jobs of one run, on the calling thread: they stay in the caller's job group (Zeppelin and other notebooks
 * cancel a paragraph and draw its progress bar through that group), are interrupted when cancelled, so that a
 * cancelled task stops before it commits another slice, and carry a job tag of their own, by which the run cancels
 * them after a failure, and by which it follows their tasks ({@link RunTasks}) until they have stopped. {@link #close}
 * puts back the caller's description and interrupt flag and removes the tag.
 */
final class JobScope implements AutoCloseable {
    static final String GROUP = "spark.jobGroup.id";
    static final String DESCRIPTION = "spark.job.description";
    static final String INTERRUPT_ON_CANCEL = "spark.job.interruptOnCancel";

    private final SparkContext sc;
    private final String tag;
    private final String description;
    private final String interruptOnCancel;
    private final RunTasks tasks;

    private JobScope(SparkContext sc, String tag, String description) {
        this.sc = sc;
        this.tag = tag;
        this.description = sc.getLocalProperty(DESCRIPTION);
        this.interruptOnCancel = sc.getLocalProperty(INTERRUPT_ON_CANCEL);
        sc.setLocalProperty(INTERRUPT_ON_CANCEL, "true");
        if (this.description == null) sc.setLocalProperty(DESCRIPTION, description);
        this.tasks = new RunTasks(tag);
        sc.addSparkListener(tasks);
        sc.addJobTag(tag);
    }

    /** Opens the scope: {@code tag} must not contain a comma (Spark's rule for tags). */
    static JobScope open(SparkContext sc, String tag, String description) {
        return new JobScope(sc, tag, description);
    }

    String tag() {
        return tag;
    }

    /** Cancels this run's jobs (and no other job of the caller's group). */
    void cancel() {
        sc.cancelJobsWithTag(tag);
    }

    /**
     * Waits until the given jobs of this run have ended and none of their tasks runs any more (a cancelled task runs
     * on until it sees its interrupt); false if some still run after {@code timeoutMs}.
     */
    boolean awaitStopped(List<Integer> jobIds, long timeoutMs) throws InterruptedException {
        return tasks.awaitStopped(jobIds, timeoutMs);
    }

    /** How this run's first task got going ({@link RunTasks.Launch}), as far as the listener bus has told. */
    RunTasks.Launch launch() {
        return tasks.launch();
    }

    /** Tasks of this run still running, as far as the listener bus has told. */
    int running() {
        return tasks.running();
    }

    @Override
    public void close() {
        sc.removeSparkListener(tasks);
        sc.removeJobTag(tag);
        sc.setLocalProperty(DESCRIPTION, description);
        sc.setLocalProperty(INTERRUPT_ON_CANCEL, interruptOnCancel);
    }
}
