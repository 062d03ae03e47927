package org.tomospark.job.fs;

import org.apache.hadoop.conf.Configuration;

/** Hadoop configuration used by tomospark's readers and writers. */
public final class HadoopConf {
    private HadoopConf() {
    }

    /**
     * A copy of {@code base} with file:// served by {@code RawLocalFileSystem}: no {@code .crc} side files
     * next to the slices, and positioned reads without checksum overhead. HDFS keeps its own checksums.
     */
    public static Configuration tune(Configuration base) {
        Configuration c = new Configuration(base);
        c.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
        c.setBoolean("fs.file.impl.disable.cache", true);
        return c;
    }

    public static Configuration create() {
        return tune(new Configuration());
    }
}
