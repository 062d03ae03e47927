package org.tomospark.job.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.tomospark.job.inputs.ReadThreads;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A band read in a Spark task uses the task's spark.task.cpus threads; outside a task, every processor. */
class ReadThreadsTest {
    @Test
    void tasksReadOnTheirOwnCpus() {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(TestScans.spark());
        int taskCpus = sc.getConf().getInt("spark.task.cpus", 1);
        List<Integer> inTasks = sc.parallelize(List.of(1, 2, 3, 4), 2).map(i -> ReadThreads.current()).collect();
        assertEquals(List.of(taskCpus, taskCpus, taskCpus, taskCpus), inTasks);
        assertEquals(Runtime.getRuntime().availableProcessors(), ReadThreads.current());
    }
}
