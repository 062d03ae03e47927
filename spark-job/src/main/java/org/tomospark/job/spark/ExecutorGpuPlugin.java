package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The job's Spark plugin ({@code spark.plugins}). Its executor side, {@link ExecutorGpuOwner}, owns the executor's GPU
 * state: it closes the cached processors when the executor shuts down, and it stops an executor whose device a sticky
 * CUDA error has broken, so that Spark runs the task again elsewhere. It has no driver side.
 */
public final class ExecutorGpuPlugin implements SparkPlugin {
    static final String PLUGINS = "spark.plugins";

    @Override
    public DriverPlugin driverPlugin() {
        return null;
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new ExecutorGpuOwner();
    }

    /** Adds this plugin to {@code spark.plugins} unless the list names it already; plugins the user listed are kept. */
    public static void register(SparkConf conf) {
        String name = ExecutorGpuPlugin.class.getName();
        List<String> plugins = new ArrayList<>();
        if (conf.contains(PLUGINS))
            for (String p : conf.get(PLUGINS).split(",")) if (!p.isBlank()) plugins.add(p.trim());
        if (plugins.contains(name)) return;
        plugins.add(name);
        conf.set(PLUGINS, String.join(",", plugins));
    }

    /** Whether {@code spark.plugins} in {@code conf} names this plugin. */
    static boolean registered(SparkConf conf) {
        return conf.contains(PLUGINS) && Arrays.stream(conf.get(PLUGINS).split(",")).map(String::trim)
                .anyMatch(ExecutorGpuPlugin.class.getName()::equals);
    }
}
