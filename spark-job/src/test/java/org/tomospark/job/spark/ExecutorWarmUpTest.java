package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.pipeline.SliceGroupProcessor;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executor's warm-up finds the product's classes where the JVM loads them from, and loads every one. */
class ExecutorWarmUpTest {

    @Test
    void theClassesOfBothModulesAreListedAndLoaded() {
        List<String> job = ExecutorWarmUp.classNames(GroupTask.class);
        List<String> core = ExecutorWarmUp.classNames(SliceGroupProcessor.class);
        assertTrue(job.contains(GroupTask.class.getName()), "the task's own class");
        assertTrue(job.contains(ExecutorWarmUp.class.getName()));
        assertTrue(core.contains(SliceGroupProcessor.class.getName()), "the executor module's classes");
        assertTrue(core.contains("org.tomospark.executor.pipeline.GroupPlanner$Group"), "nested classes too");
        for (String n : job) assertTrue(n.startsWith("org.tomospark."), n);
        for (String n : core) assertTrue(n.startsWith("org.tomospark."), n);
        // every listed class loads (none of them initialised: no static state is touched)
        assertEquals(job.size() + core.size(), ExecutorWarmUp.loadProductClasses());
    }
}
