package org.tomospark.job.inputs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tomospark.job.fs.UserPaths;
import org.tomospark.executor.inputs.DataExchangeSource;
import org.tomospark.executor.inputs.NxTomoSource;
import org.tomospark.executor.inputs.ProjectionSource;
import org.tomospark.executor.inputs.RangeReader;
import org.tomospark.executor.inputs.ReadOptions;
import org.tomospark.executor.inputs.SourceFiles;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;
import java.util.Locale;

/** Opens scans through the Hadoop FileSystem API, so hdfs:// and file:// read the same way. */
public final class Inputs {
    private Inputs() {
    }

    /** Resolves a user path or URI (a bare path means the default file system, usually file://). */
    public static Path path(String uri) {
        return UserPaths.path(uri, "input (--input)");
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
        return openHdf(uri, conf, options, DataExchangeSource::open);
    }

    /** Opens an NXtomo (NeXus) file the same way: jhdf's metadata reads on a stream, bands by positioned reads. */
    public static ProjectionSource openNxTomo(String uri, Configuration conf, ReadOptions options) {
        return openHdf(uri, conf, options, NxTomoSource::open);
    }

    /** Whether an HDF5 file is an NXtomo scan rather than DataExchange (reads only its metadata). */
    public static boolean isNxTomo(String uri, Configuration conf) {
        Path p = path(uri);
        try {
            FileSystem fs = p.getFileSystem(conf);
            long length = fs.getFileStatus(p).getLen();
            try (HadoopSeekableChannel ch = new HadoopSeekableChannel(fs.open(p), length, uri)) {
                return NxTomoSource.isNxTomo(ch, uri);
            }
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException(uri + ": input not found", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(uri + ": cannot read input (" + e.getMessage() + ")", e);
        }
    }

    /** Makes a source of one HDF5 layout from the file's metadata channel and its positioned reads. */
    @FunctionalInterface
    interface HdfOpener {
        ProjectionSource open(SeekableByteChannel channel, RangeReader ranges, String name, SourceFiles sources,
                              ReadOptions options);
    }

    private static ProjectionSource openHdf(String uri, Configuration conf, ReadOptions options, HdfOpener opener) {
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
        if (st.isDirectory()) throw new IllegalArgumentException(uri + ": is a directory, expected an HDF5 file");
        try {
            FSDataInputStream in = fs.open(p);
            HadoopSeekableChannel ch = new HadoopSeekableChannel(in, st.getLen(), uri);
            try {
                return opener.open(ch, RangeReaders.open(fs, p, st.getLen(), uri), uri,
                        new HadoopSourceFiles(fs, fs.makeQualified(p)), options);
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
