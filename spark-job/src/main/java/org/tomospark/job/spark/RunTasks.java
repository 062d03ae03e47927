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
    private long jobSubmitMillis = Long.MAX_VALUE, firstLaunchMillis = Long.MAX_VALUE, deserializeMillisMax;

    /**
     * How the run's first task got going, on the driver's clock: when its first job was submitted, when the scheduler
     * launched its first task, and the longest an executor took to deserialize one of its tasks.
     */
    record Launch(long jobSubmitMillis, long firstLaunchMillis, long deserializeMillisMax) {
        static final Launch NONE = new Launch(0, 0, 0);

        boolean known() {
            return firstLaunchMillis >= jobSubmitMillis && jobSubmitMillis > 0;
        }
    }

    RunTasks(String tag) {
        this.tag = tag;
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart e) {
        if (!tagged(e.properties())) return;
        jobs.add(e.jobId());
        jobSubmitMillis = Math.min(jobSubmitMillis, e.time());
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
        if (!stages.contains(e.stageId())) return;
        running.add(e.taskInfo().taskId());
        firstLaunchMillis = Math.min(firstLaunchMillis, e.taskInfo().launchTime());
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
        if (stages.contains(e.stageId()) && e.taskMetrics() != null)
            deserializeMillisMax = Math.max(deserializeMillisMax, e.taskMetrics().executorDeserializeTime());
        if (running.remove(e.taskInfo().taskId())) notifyAll();
    }

    /** The run's launch, as far as the bus has delivered. */
    synchronized Launch launch() {
        return firstLaunchMillis == Long.MAX_VALUE ? Launch.NONE : new Launch(jobSubmitMillis, firstLaunchMillis, deserializeMillisMax);
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
