package org.tomospark.job.inputs;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.tomospark.executor.inputs.FileChannelRangeReader;
import org.tomospark.executor.inputs.RangeReader;

import java.io.IOException;

/**
 * Opens the positioned reader of a file named by a Hadoop path. A file on the local file system without Hadoop's
 * checksums ({@link RawLocalFileSystem}, which {@link HadoopConf#tune} sets for file://) is read through a
 * {@link java.nio.channels.FileChannel}, straight into direct buffers; Hadoop's own positioned reads of a local
 * file fill a heap array through a buffer of the JDK's, one copy more. Any other file system is read through
 * Hadoop ({@link HadoopRangeReader}).
 */
public final class RangeReaders {
    private RangeReaders() {
    }

    /** @param name names the file in errors */
    public static RangeReader open(FileSystem fs, Path p, long length, String name) throws IOException {
        if (fs instanceof RawLocalFileSystem local) return FileChannelRangeReader.open(local.pathToFile(p).toPath());
        return new HadoopRangeReader(fs.open(p), length, name);
    }
}
