package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ResourceTypeInfo;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.params.CoreKeys;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * On YARN an executor has GPUs only where YARN schedules them: the application asks for them
 * ({@code spark.executor.resource.gpu.amount}, Spark maps it to YARN's resource type named by
 * {@code spark.yarn.resourceGpuDeviceName}, {@code yarn.io/gpu} by default), YARN gives each container its own, and a
 * discovery script shipped with the application names them to Spark (YARN does not tell Spark the addresses). Where
 * the cluster has no such resource type, Spark only warns and its executors would share the nodes' GPUs unscheduled;
 * this refuses such a run before anything is written, naming the setting.
 */
public final class YarnGpus {
    static final String AMOUNT = "spark.executor.resource.gpu.amount";
    static final String DISCOVERY = "spark.executor.resource.gpu.discoveryScript";
    static final String TYPE = "spark.yarn.resourceGpuDeviceName";
    private static final Logger LOG = LoggerFactory.getLogger(YarnGpus.class);

    private YarnGpus() {
    }

    static boolean onYarn(SparkConf sconf) {
        return sconf.get("spark.master", "").startsWith("yarn");
    }

    /**
     * The same checks before a context starts on YARN, so that a refused run never submits an application: with
     * {@code backend} as the command names it (null or blank: auto), the settings ({@link SparkStart#begin(Supplier,
     * Consumer)}) and the cluster's configuration as the context would make it. A backend that is not one is left to the
     * command's own validation, which names it.
     */
    public static Consumer<SparkConf> beforeStart(String backend) {
        return sconf -> {
            if (!onYarn(sconf)) return;
            String id;
            boolean gpu;
            try {
                id = CoreKeys.BACKEND.parse(backend == null ? "" : backend);
                gpu = !id.equals("auto") && Backends.planned(id, true).runsOnAssignedGpus();
            } catch (IllegalArgumentException e) {
                id = backend;
                gpu = false;
            }
            check(sconf, SparkHadoopUtil.get().newConfiguration(sconf), id, gpu);
        };
    }

    /**
     * Checks a run on YARN: a GPU backend named outright ({@code gpuBackend}) needs executor GPUs, and executor GPUs need
     * a discovery script and a resource type the ResourceManager knows ({@code hadoop}: the cluster's configuration).
     */
    static void check(SparkConf sconf, Configuration hadoop, String backend, boolean gpuBackend) {
        if (!onYarn(sconf)) return;
        boolean asks = sconf.getDouble(AMOUNT, 0) > 0;
        if (gpuBackend && !asks)
            throw new IllegalArgumentException("backend " + backend + " runs on GPUs, but on YARN an executor has GPUs only "
                    + "where the application asks YARN for them: set " + AMOUNT + " (GPUs per executor) and " + DISCOVERY
                    + " (conf/gpu-discovery.sh, shipped with --files), or choose the java backend");
        if (!asks) return;
        if (!sconf.contains(DISCOVERY))
            throw new IllegalArgumentException(AMOUNT + " is set, but " + DISCOVERY + " is not: YARN does not tell Spark which "
                    + "GPUs a container has; ship conf/gpu-discovery.sh with --files and set " + DISCOVERY + "=./gpu-discovery.sh");
        String type = sconf.get(TYPE, "yarn.io/gpu");
        List<String> types;
        try (YarnClient client = YarnClient.createYarnClient()) {
            client.init(new YarnConfiguration(hadoop));
            client.start();
            types = client.getResourceTypeInfo().stream().map(ResourceTypeInfo::getName).toList();
        } catch (IOException | YarnException | RuntimeException e) {
            // the question helps the user; the run does not depend on it
            LOG.warn("could not ask YARN's ResourceManager for its resource types ({}); not checking that it schedules {}", e, type);
            return;
        }
        if (!types.contains(type))
            throw new IllegalArgumentException(AMOUNT + " asks YARN for GPUs, but this YARN cluster has no resource type '" + type
                    + "' (" + TYPE + "; its types: " + String.join(", ", types) + "): executors would share the nodes' GPUs "
                    + "unscheduled. Its administrator declares GPUs in resource-types.xml (yarn.resource-types=yarn.io/gpu) "
                    + "and on each NodeManager (yarn.nodemanager.resource-plugins=yarn.io/gpu); README, \"YARN\"");
    }
}
