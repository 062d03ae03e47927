package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GpuSpreadTest {
    @Test
    void sparksAddressIsKeptWhileNoOtherGpuIsLessBusy() {
        assertEquals("1", GpuSpread.choose("1", List.of("0", "1"), Map.of()));
        assertEquals("1", GpuSpread.choose("1", List.of("0", "1"), Map.of("0", 1, "1", 1)));
        assertEquals("0", GpuSpread.choose("0", List.of(), Map.of("0", 3)), "executor GPUs unknown: Spark's address");
    }

    @Test
    void aTaskMovesToTheLeastBusyGpu() {
        assertEquals("1", GpuSpread.choose("0", List.of("0", "1"), Map.of("0", 1)));
        assertEquals("2", GpuSpread.choose("0", List.of("0", "1", "2"), Map.of("0", 2, "1", 1)));
    }

    /** Spark's way of filling slots (always the first address) against the spread: no GPU runs two more than another. */
    @Test
    void tasksArrivingOneByOneAreBalanced() {
        List<String> gpus = List.of("0", "1", "2", "3");
        Map<String, Integer> running = new HashMap<>();
        for (int task = 0; task < 10; task++) running.merge(GpuSpread.choose("0", gpus, running), 1, Integer::sum);
        int max = running.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int min = gpus.stream().mapToInt(g -> running.getOrDefault(g, 0)).min().orElseThrow();
        assertEquals(10, running.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(max - min <= 1, running.toString());
        assertEquals(Map.of("0", 3, "1", 3, "2", 2, "3", 2), running);
    }

    @Test
    void aTaskAskingForSeveralGpusIsRefusedNamingTheKeys() {
        SparkConf conf = new SparkConf(false).set("spark.task.resource.gpu.amount", "2");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SparkReconstruction.checkGpusPerTask(conf));
        assertTrue(e.getMessage().startsWith("spark.task.resource.gpu.amount=2: a task uses one GPU"), e.getMessage());
        assertTrue(e.getMessage().contains("spark.executor.resource.gpu.amount"), e.getMessage());
        SparkReconstruction.checkGpusPerTask(conf.set("spark.task.resource.gpu.amount", "0.25"));
        SparkReconstruction.checkGpusPerTask(conf.set("spark.task.resource.gpu.amount", "1"));
        assertThrows(IllegalArgumentException.class,
                () -> SparkReconstruction.checkGpusPerTask(conf.set("spark.task.resource.gpu.amount", "half")));
    }
}
