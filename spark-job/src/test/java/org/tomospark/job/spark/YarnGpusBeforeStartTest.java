package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What YARN needs for GPUs is checked before a context starts (which on YARN submits an application): a refused run's
 * context start ends in the refusal, naming the setting, its settings stay readable; anything but YARN is not checked.
 * The ResourceManager's own part (its resource types) is YarnClusterTest's, against a MiniYARNCluster.
 */
class YarnGpusBeforeStartTest {
    private static SparkConf yarn() {
        return new SparkConf(false).setMaster("yarn").setAppName("before start");
    }

    @Test
    void aGpuBackendWithoutExecutorGpusIsRefusedAndNoContextStarts() {
        // a context on YARN would be started after the check (begin: where none is active, as in a command line's JVM)
        SparkStart start = SparkStart.start(YarnGpusBeforeStartTest::yarn, YarnGpus.beforeStart("cuda"));
        assertEquals("yarn", start.conf().get("spark.master"), "the settings are there");
        // the context's start ends in the check's refusal, not in Spark's (which would fail on a machine without YARN)
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, start::context);
        assertTrue(e.getMessage().contains(YarnGpus.AMOUNT) && e.getMessage().contains("backend cuda"), e.getMessage());
        assertTrue(start.owned());
        start.stop(); // nothing to stop, returns at once
    }

    @Test
    void executorGpusWithoutADiscoveryScriptAreRefusedWhateverTheBackend() {
        SparkConf conf = yarn().set(YarnGpus.AMOUNT, "1");
        for (String backend : new String[]{null, "", "auto", "java", "CUDA", "tyo"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> YarnGpus.beforeStart(backend).accept(conf));
            assertTrue(e.getMessage().contains(YarnGpus.DISCOVERY), backend + ": " + e.getMessage());
        }
    }

    @Test
    void theHostsBackendOrAutoWithoutGpusPassAndOtherMastersAreNotChecked() {
        for (String backend : new String[]{null, "auto", "java", "tyo"}) YarnGpus.beforeStart(backend).accept(yarn());
        YarnGpus.beforeStart("cuda").accept(new SparkConf(false).setMaster("local[2]"));
        YarnGpus.beforeStart("cuda").accept(new SparkConf(false).setMaster("spark://127.0.0.1:7077"));
    }
}
