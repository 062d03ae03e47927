package org.tomospark.job.io;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.executor.io.DataExchangeSource;
import org.tomospark.executor.io.ProjectionSource;
import org.tomospark.executor.io.ReadOptions;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/** Opens scans through the Hadoop FileSystem API, so hdfs:// and file:// read the same way. */
public final class Inputs {
    private Inputs() {
    }

    /** Resolves a user path or URI (a bare path means the default file system, usually file://). */
    public static Path path(String uri) {
        return path(uri, "input (--input)");
    }

    /**
     * Resolves a user path or URI as Hadoop does ({@link Path#Path(String)}): scheme and authority if given, the rest
     * taken literally, so '#', '%', spaces and brackets are part of the name, not URI syntax.
     *
     * @param what what the path is, for errors (e.g. "output (--output)")
     */
    public static Path path(String uri, String what) {
        if (uri == null || uri.isBlank()) throw new IllegalArgumentException(what + ": no path given");
        try {
            return new Path(uri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": '" + uri + "' is not a usable path or URI (" + e.getMessage() + ")", e);
        }
    }

    /** Opens a DataExchange HDF5 file; the file is read by positioned reads, never copied. */
    public static ProjectionSource openHdf5(String uri, Configuration conf) {
        return openHdf5(uri, conf, ReadThreads.options());
    }

    /**
     * Opens a DataExchange HDF5 file, with two handles: a stream for jhdf's metadata reads, and a {@link RangeReaders}
     * reader for the bands' positioned reads on {@code options.threads()} threads.
     */
    public static ProjectionSource openHdf5(String uri, Configuration conf, ReadOptions options) {
        Path p = path(uri);
        FileSystem fs;
        FileStatus st;
        try {
            fs = p.getFileSystem(conf);
            st = fs.getFileStatus(p);
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(uri + ": input not found", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(uri + ": cannot read input (" + e.getMessage() + ")", e);
        }
        if (st.isDirectory()) throw new IllegalArgumentException(uri + ": is a directory, expected a DataExchange .h5 file");
        try {
            FSDataInputStream in = fs.open(p);
            HadoopSeekableChannel ch = new HadoopSeekableChannel(in, st.getLen(), uri);
            try {
                return DataExchangeSource.open(ch, RangeReaders.open(fs, p, st.getLen(), uri), uri, options);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": cannot open input", e);
        }
    }

    /** Opens an input by its form: .h5/.hdf5/.hdf/.nxs files as DataExchange. */
    public static ProjectionSource open(String uri, Configuration conf) {
        String lower = uri.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".h5") || lower.endsWith(".hdf5") || lower.endsWith(".hdf") || lower.endsWith(".nxs") || lower.endsWith(".dxf"))
            return openHdf5(uri, conf);
        throw new IllegalArgumentException(uri + ": unknown input format; expected a DataExchange HDF5 file (.h5, .hdf5)");
    }
}
