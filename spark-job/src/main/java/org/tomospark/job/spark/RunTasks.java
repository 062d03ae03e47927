package org.tomospark.job.spark;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import scala.jdk.javaapi.CollectionConverters;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;

/**
 * Which tasks of one run's Spark jobs (those carrying its job tag) are still running, as the listener bus tells it.
 * The scheduler posts a task's start before the end of its job, and a killed task's end only when its thread has
 * stopped; so once the bus has delivered the end of every job of the run and the end of every task it saw start, no task
 * of the run runs any more. The status tracker cannot tell this: it reads a store the bus updates late and in batches,
 * and shows no active task while the starts of running tasks are still queued.
 */
final class RunTasks extends SparkListener {
    static final String TAGS = "spark.job.tags";

    private final String tag;
    private final Set<Integer> jobs = new HashSet<>();
    private final Set<Integer> endedJobs = new HashSet<>();
    private final Set<Integer> stages = new HashSet<>();
    private final Set<Long> running = new HashSet<>();

    RunTasks(String tag) {
        this.tag = tag;
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart e) {
        if (!tagged(e.properties())) return;
        jobs.add(e.jobId());
        for (StageInfo s : CollectionConverters.asJava(e.stageInfos())) stages.add(s.stageId());
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd e) {
        if (jobs.contains(e.jobId())) {
            endedJobs.add(e.jobId());
            notifyAll();
        }
    }

    @Override
    public synchronized void onTaskStart(SparkListenerTaskStart e) {
        if (stages.contains(e.stageId())) running.add(e.taskInfo().taskId());
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
        if (running.remove(e.taskInfo().taskId())) notifyAll();
    }

    /** Tasks of the run that started and have not ended, as far as the bus has delivered. */
    synchronized int running() {
        return running.size();
    }

    /**
     * Waits until the bus has delivered the end of each of {@code jobIds} and of every task of the run it saw start;
     * false if that has not happened within {@code timeoutMs}.
     */
    synchronized boolean awaitStopped(Collection<Integer> jobIds, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (!endedJobs.containsAll(jobIds) || !running.isEmpty()) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) return false;
            wait(left);
        }
        return true;
    }

    private boolean tagged(Properties p) {
        String tags = p == null ? null : p.getProperty(TAGS);
        return tags != null && Arrays.asList(tags.split(",")).contains(tag);
    }
}
