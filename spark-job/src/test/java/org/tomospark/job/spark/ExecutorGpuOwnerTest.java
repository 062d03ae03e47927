package org.tomospark.job.spark;

import com.codahale.metrics.MetricRegistry;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskKilled;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;
import org.apache.spark.scheduler.AccumulableInfo;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backends.cuda.CudaException;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.pipeline.SliceGroupProcessor;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The executor plugin without a cluster: what stops an executor, what does not, and the shutdown of the processor cache. */
class ExecutorGpuOwnerTest {
    /** An executor's plugin context: only its id matters here. */
    static PluginContext executor(String id) {
        return new PluginContext() {
            public MetricRegistry metricRegistry() { return new MetricRegistry(); }
            public SparkConf conf() { return new SparkConf(false); }
            public String executorID() { return id; }
            public String hostname() { return "127.0.0.1"; }
            public Map<String, ResourceInformation> resources() { return Map.of(); }
            public void send(Object message) { }
            public Object ask(Object message) { return null; }
        };
    }

    /** An empty Scala list, as Spark's failure reasons take for their accumulators. */
    static <T> Seq<T> none() {
        return CollectionConverters.asScala(new ArrayList<T>()).toList();
    }

    static ExceptionFailure failure(Throwable t) {
        return new ExceptionFailure(t, ExecutorGpuOwnerTest.<AccumulableInfo>none());
    }

    static CudaException sticky() {
        return new CudaException("back-projecting batch at row 64", "CUDA_ERROR_ILLEGAL_ADDRESS", null);
    }

    @Test
    void aStickyCudaErrorStopsTheExecutorWithItsOwnStatus() {
        List<Integer> exits = new ArrayList<>();
        ExecutorGpuOwner owner = new ExecutorGpuOwner(exits::add);
        owner.init(executor("3"), Map.of());
        owner.onTaskFailed(failure(sticky()));
        assertEquals(List.of(ExecutorGpuOwner.STICKY_DEVICE_ERROR_EXIT), exits);
        // found through causes and suppressed exceptions too (a task may wrap the device's error)
        RuntimeException wrapped = new RuntimeException("group 2 failed", new IllegalStateException(sticky()));
        owner.onTaskFailed(failure(wrapped));
        RuntimeException suppressing = new RuntimeException("closing the processor failed");
        suppressing.addSuppressed(sticky());
        owner.onTaskFailed(failure(suppressing));
        assertEquals(3, exits.size());
    }

    @Test
    void otherFailuresLeaveTheExecutorRunning() {
        List<Integer> exits = new ArrayList<>();
        ExecutorGpuOwner owner = new ExecutorGpuOwner(exits::add);
        owner.init(executor("1"), Map.of());
        // not sticky: the context is still usable
        owner.onTaskFailed(failure(new CudaException("allocating buffers", "CUDA_ERROR_OUT_OF_MEMORY", null)));
        owner.onTaskFailed(failure(new UncheckedIOException("disk full", new IOException("No space left on device"))));
        owner.onTaskFailed(new TaskKilled("cancelled", none(), none(), none()));
        assertEquals(List.of(), exits);
        // in local mode the executor is the driver's JVM: it is never stopped
        ExecutorGpuOwner local = new ExecutorGpuOwner(exits::add);
        local.init(executor("driver"), Map.of());
        local.onTaskFailed(failure(sticky()));
        assertEquals(List.of(), exits);
    }

    @Test
    void stickyCauseNamesTheDeviceError() {
        CudaException c = sticky();
        assertSame(c, ExecutorGpuOwner.stickyCause(failure(new RuntimeException(c))));
        assertNull(ExecutorGpuOwner.stickyCause(failure(new RuntimeException("no CUDA here"))));
    }

    @Test
    void shutdownClosesTheCachedProcessors() throws Exception {
        ExecutorGpuOwner owner = new ExecutorGpuOwner(code -> {
            throw new AssertionError("no exit expected, got " + code);
        });
        owner.init(executor("5"), Map.of());
        ReconstructionParams params = TestScans.params();
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(32).anglesRange(180, 24).build();
        SliceGeometry slice = SliceGeometry.square(32);
        String job = "owner-test-" + System.nanoTime();
        int before = ExecutorResources.processorsCreated();
        for (int i = 0; i < 2; i++) // the second task of the job reuses the first one's processor
            ExecutorResources.lease("java", "", job, 1, b -> new SliceGroupProcessor(scan, slice, params, b, 4, true),
                    () -> params.algorithm().backendOptions()).close();
        assertEquals(before + 1, ExecutorResources.processorsCreated());
        owner.shutdown();
        // the cache is empty now: the next task builds a new processor
        ExecutorResources.lease("java", "", job, 1, b -> new SliceGroupProcessor(scan, slice, params, b, 4, true),
                () -> params.algorithm().backendOptions()).close();
        assertEquals(before + 2, ExecutorResources.processorsCreated());
    }

    @Test
    void registeringKeepsTheUsersPlugins() {
        String ours = ExecutorGpuPlugin.class.getName();
        SparkConf none = new SparkConf(false);
        ExecutorGpuPlugin.register(none);
        assertEquals(ours, none.get("spark.plugins"));
        SparkConf other = new SparkConf(false).set("spark.plugins", "com.example.OtherPlugin");
        ExecutorGpuPlugin.register(other);
        assertEquals("com.example.OtherPlugin," + ours, other.get("spark.plugins"));
        SparkConf already = new SparkConf(false).set("spark.plugins", ours + ", com.example.OtherPlugin");
        ExecutorGpuPlugin.register(already);
        assertEquals(ours + ", com.example.OtherPlugin", already.get("spark.plugins"));
    }
}
