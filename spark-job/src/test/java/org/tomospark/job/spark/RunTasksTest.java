package org.tomospark.job.spark;

import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run's scope follows its tasks through the listener bus: after one task fails the job, the others, which ignore
 * their interrupt for a while (as a task in a native call or a GPU kernel does), are waited for until each has
 * finished, and not a moment less; a job of another run (another tag) is not waited for.
 */
class RunTasksTest {
    /** How long a busy task ignores its interrupt. */
    static final long BUSY_MS = 1500;
    static final AtomicInteger STARTED = new AtomicInteger();
    static final AtomicInteger FINISHED = new AtomicInteger();

    @Test
    void afterAFailureTheScopeWaitsForEveryTaskThatStarted() throws Exception {
        SparkContext sc = TestScans.spark();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        STARTED.set(0);
        FINISHED.set(0);
        try (JobScope scope = JobScope.open(sc, "run-tasks-test-" + System.nanoTime(), "tasks that outlive their job")) {
            JavaFutureAction<Void> f = jsc.parallelize(IntStream.range(0, 4).boxed().toList(), 4).foreachAsync(RunTasksTest::work);
            ExecutionException failed = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
            assertTrue(String.valueOf(failed.getCause()).contains("the failing task"), String.valueOf(failed.getCause()));
            assertTrue(STARTED.get() >= 2, STARTED.get() + " tasks started");
            assertTrue(FINISHED.get() < STARTED.get() - 1, "the busy tasks still run when the job has failed");
            scope.cancel();
            assertTrue(scope.awaitStopped(f.jobIds(), 60_000), scope.running() + " tasks still run");
            assertEquals(STARTED.get() - 1, FINISHED.get(), "every busy task that started has finished");
            assertEquals(0, scope.running());
        }
    }

    @Test
    void jobsOfAnotherTagAreNotFollowed() throws Exception {
        SparkContext sc = TestScans.spark();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
        try (JobScope mine = JobScope.open(sc, "run-tasks-mine-" + System.nanoTime(), "an idle run")) {
            sc.removeJobTag(mine.tag());
            List<Integer> jobs;
            try (JobScope other = JobScope.open(sc, "run-tasks-other-" + System.nanoTime(), "another run")) {
                JavaFutureAction<List<Integer>> f = jsc.parallelize(List.of(1, 2), 2).collectAsync();
                assertEquals(List.of(1, 2), f.get(60, TimeUnit.SECONDS));
                jobs = f.jobIds();
                assertTrue(other.awaitStopped(jobs, 60_000));
            }
            assertFalse(mine.awaitStopped(jobs, 200), "another run's job is not this run's");
        }
    }

    /** Partition 0 fails the job at once; the others stay busy for {@link #BUSY_MS}, whatever their interrupts. */
    private static void work(int partition) {
        STARTED.incrementAndGet();
        if (partition == 0) {
            sleepThroughInterrupts(200);
            throw new IllegalStateException("the failing task");
        }
        sleepThroughInterrupts(BUSY_MS);
        FINISHED.incrementAndGet();
    }

    private static void sleepThroughInterrupts(long ms) {
        long end = System.nanoTime() + ms * 1_000_000L;
        boolean interrupted = false;
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
