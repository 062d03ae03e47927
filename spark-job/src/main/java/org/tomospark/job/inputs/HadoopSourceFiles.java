package org.tomospark.job.inputs;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.inputs.RangeReader;
import org.tomospark.executor.inputs.ReadOptions;
import org.tomospark.executor.inputs.SourceFile;
import org.tomospark.executor.inputs.SourceFiles;

import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * The source files of a virtual dataset, through the Hadoop FileSystem of the file that holds it: a relative name is
 * taken from that file's folder (as HDF5 does), so a scan and its camera files copied together to {@code hdfs://} read
 * the same as on a local disk; an absolute name keeps the virtual file's file system.
 */
record HadoopSourceFiles(FileSystem fs, Path virtualFile) implements SourceFiles {
    @Override
    public String resolve(String name) {
        Path p = new Path(name);
        return (p.isAbsolute() ? fs.makeQualified(p) : new Path(virtualFile.getParent(), name)).toString();
    }

    @Override
    public boolean exists(String resolved) throws IOException {
        try {
            return fs.getFileStatus(new Path(resolved)).isFile();
        } catch (FileNotFoundException e) {
            return false;
        }
    }

    @Override
    public SourceFile open(String resolved, ReadOptions options) throws IOException {
        Path p = new Path(resolved);
        FileStatus st = fs.getFileStatus(p);
        HadoopSeekableChannel ch = new HadoopSeekableChannel(fs.open(p), st.getLen(), resolved);
        RangeReader ranges;
        try {
            ranges = RangeReaders.open(fs, p, st.getLen(), resolved);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return SourceFile.open(ch, ranges, resolved);
    }
}
