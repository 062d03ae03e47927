package org.tomospark.job.fs;

import org.apache.spark.SparkEnv;

/**
 * The cores of the node this JVM runs its share of the work on: on a Spark executor its cores
 * ({@code spark.executor.cores}, else the processors it sees), in the driver (local mode, the direct engine) every
 * available processor. The node's writers and readers are sized by it, and shared by the tasks of the JVM.
 */
public final class NodeCores {
    private NodeCores() {
    }

    public static int count() {
        int processors = Runtime.getRuntime().availableProcessors();
        SparkEnv env = SparkEnv.get();
        if (env != null && !"driver".equals(env.executorId()))
            return Math.max(1, env.conf().getInt("spark.executor.cores", processors));
        return processors;
    }
}
