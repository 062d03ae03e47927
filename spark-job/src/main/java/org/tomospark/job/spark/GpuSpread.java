package org.tomospark.job.spark;

import java.util.List;
import java.util.Map;

/**
 * Which of an executor's GPUs a task uses. Spark assigns a task one address of its executor's GPUs
 * ({@code spark.executor.resource.gpu.amount} of them), filling one address's fractional slots
 * ({@code spark.task.resource.gpu.amount}) before the next: with fewer running tasks than slots, two tasks can share one
 * GPU while another idles. The task keeps Spark's address unless another GPU of the executor runs fewer of this
 * JVM's tasks; then it takes the least busy one (the lowest address among equals). Over the executor, each GPU then
 * runs at most one task more than any other.
 */
final class GpuSpread {
    private GpuSpread() {
    }

    /**
     * @param assigned     the address Spark gave the task
     * @param executorGpus every GPU address of the executor (empty when unknown: then {@code assigned})
     * @param running      tasks of this JVM running on each address now (absent: none)
     */
    static String choose(String assigned, List<String> executorGpus, Map<String, Integer> running) {
        String best = assigned;
        int least = running.getOrDefault(assigned, 0);
        for (String gpu : executorGpus) {
            int n = running.getOrDefault(gpu, 0);
            if (n < least) {
                best = gpu;
                least = n;
            }
        }
        return best;
    }
}
