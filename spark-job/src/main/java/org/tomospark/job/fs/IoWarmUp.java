package org.tomospark.job.fs;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A command's first file operations pay for loading and initialising Hadoop's FileSystem (its service list, the user's
 * login) and Jackson: a few tenths of a second in a fresh JVM, on the path to the job. This starts them on a background
 * thread while the command line is parsed. It opens nothing of the run's: the local file system, uncached under
 * {@link HadoopConf}, and a JSON round trip in memory.
 */
public final class IoWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(IoWarmUp.class);

    private IoWarmUp() {
    }

    /** Starts both warm-ups, each on a thread of its own. */
    public static void start() {
        daemon("tomospark-fs-warm-up", IoWarmUp::fileSystem);
        daemon("tomospark-json-warm-up", IoWarmUp::json);
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    static void fileSystem() {
        try {
            FileSystem local = new Path("file:///").getFileSystem(HadoopConf.create());
            local.getFileStatus(new Path("/"));
        } catch (IOException | RuntimeException e) {
            // only a warm-up: the run meets the same failure where it can name the file
            LOG.debug("file system warm-up: {}", e.toString());
        }
    }

    static void json() {
        try {
            Json.read(Json.write(Map.of("warm", List.of(1.0, "up"))), "warm-up");
        } catch (RuntimeException e) {
            LOG.debug("JSON warm-up: {}", e.toString());
        }
    }
}
