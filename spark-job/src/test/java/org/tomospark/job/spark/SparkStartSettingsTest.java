package org.tomospark.job.spark;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The command line's own context: in local mode a task's result, which carries the middle slice whole for the preview
 * (4 MiB at 1024², 64 MiB at 4096²), is passed to the driver directly rather than through the block manager (Spark's
 * default stops at 1 MiB); a value the user set is kept, and a cluster's settings are left alone.
 */
class SparkStartSettingsTest {
    private static final String KEY = "spark.task.maxDirectResultSize";

    private static SparkConf settingsWith(String master, String direct) {
        String oldMaster = System.getProperty("spark.master");
        String oldDirect = System.getProperty(KEY);
        try {
            set("spark.master", master);
            set(KEY, direct);
            return SparkStart.settings("settings test");
        } finally {
            set("spark.master", oldMaster);
            set(KEY, oldDirect);
        }
    }

    private static void set(String key, String value) {
        if (value == null) System.clearProperty(key);
        else System.setProperty(key, value);
    }

    @Test
    void theEmbeddedContextPassesResultsDirectly() {
        SparkConf conf = settingsWith(null, null);
        assertEquals("local[*]", conf.get("spark.master"));
        assertEquals("128m", conf.get(KEY));
    }

    @Test
    void anyLocalMasterDoesButNotALocalCluster() {
        assertEquals("128m", settingsWith("local[2]", null).get(KEY));
        assertFalse(settingsWith("local-cluster[2,1,1024]", null).contains(KEY));
        assertFalse(settingsWith("spark://127.0.0.1:7077", null).contains(KEY));
    }

    @Test
    void aValueTheUserSetIsKept() {
        assertEquals("2m", settingsWith(null, "2m").get(KEY));
        assertEquals("2m", settingsWith("local[2]", "2m").get(KEY));
    }
}
